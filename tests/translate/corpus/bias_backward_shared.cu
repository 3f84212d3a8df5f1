// The bias gradient as llm.c's matmul_backward_bias kernels accumulate it: each block sums its
// rows per channel into shared memory with float atomics, then adds its sums into the global
// gradient with float atomics.
// expect: translated
#include <cuda_runtime.h>

#define MAX_CHANNELS 64
#define ROWS_PER_BLOCK 32

__global__ void bias_backward_shared(float *dbias, const float *dout, int rows, int C)
{
    __shared__ float smem[MAX_CHANNELS];
    for (int c = threadIdx.x; c < C; c += blockDim.x)
        smem[c] = 0.0f;
    __syncthreads();
    int r0 = blockIdx.x * ROWS_PER_BLOCK;
    for (int i = threadIdx.x; i < ROWS_PER_BLOCK * C; i += blockDim.x) {
        int r = r0 + i / C, c = i % C;
        if (r < rows) atomicAdd(&smem[c], dout[r * C + c]);
    }
    __syncthreads();
    for (int c = threadIdx.x; c < C; c += blockDim.x)
        atomicAdd(&dbias[c], smem[c]);
}

int main()
{
    float *dbias, *dout;
    int rows = 1000, C = 48;
    cudaMalloc(&dbias, C * sizeof(float));
    cudaMalloc(&dout, rows * C * sizeof(float));
    cudaMemset(dbias, 0, C * sizeof(float));
    bias_backward_shared<<<(rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, 128>>>(dbias, dout, rows, C);
    return 0;
}
