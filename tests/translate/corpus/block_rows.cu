// block_rows: per-row partial sums of squares over a 2-D grid of one-row blocks, the way CFD
// codes reduce a pressure field (a halving while loop over a shared cache indexed by threadIdx.x
// alone: apart because every launch gives blocks of BLOCK_SIZE x 1).
// expect: translated
#include <cuda_runtime.h>

#define NUM 512
#define BLOCK_SIZE 128

__global__ void sum_squares(const float *__restrict__ p, float *__restrict__ sums)
{
    int col = (blockIdx.x * blockDim.x) + threadIdx.x;
    int row = (blockIdx.y * blockDim.y) + threadIdx.y;
    __shared__ float cache[BLOCK_SIZE];
    float v = p[row * NUM + col];
    cache[threadIdx.x] = v * v;
    __syncthreads();
    int i = BLOCK_SIZE >> 1;
    while (i != 0) {
        if (threadIdx.x < i) {
            cache[threadIdx.x] += cache[threadIdx.x + i];
        }
        __syncthreads();
        i >>= 1;
    }
    if (threadIdx.x == 0) {
        sums[blockIdx.y + (gridDim.y * blockIdx.x)] = cache[0];
    }
}

int main()
{
    float *p, *sums;
    cudaMalloc(&p, NUM * NUM * sizeof(float));
    cudaMalloc(&sums, (NUM / BLOCK_SIZE) * NUM * sizeof(float));
    dim3 block(BLOCK_SIZE, 1);
    dim3 grid(NUM / BLOCK_SIZE, NUM);
    sum_squares<<<grid, block>>>(p, sums);
    cudaDeviceSynchronize();
    return 0;
}
