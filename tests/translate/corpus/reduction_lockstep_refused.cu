// A block sum whose last steps drop the barrier and the volatile as well: an unrolled
// `if (tid < 16)` chain on plain shared memory. Even with --simd-width 32 this is refused, not
// rewritten: without volatile CUDA itself may keep the values in registers, so there is no
// exact meaning to give it. The histogram kernel below it is fine and translates.
// translate flags: --simd-width 32
// expect kernel block_sum: refused warp lockstep 23
// expect kernel count_bins: translated
#include <stdio.h>

#define BLOCK 64

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (tid < 32) s[tid] += s[tid + 32];
    __syncthreads();
    if (tid < 16) {
        s[tid] += s[tid + 16];
        s[tid] += s[tid + 8];
        s[tid] += s[tid + 4];
        s[tid] += s[tid + 2];
        s[tid] += s[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void count_bins(const int *keys, unsigned int *bins, int n, int nbins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[keys[i] % nbins], 1u);
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, 4096 * sizeof(float));
    cudaMalloc(&d_out, 64 * sizeof(float));
    block_sum<<<64, BLOCK>>>(d_in, d_out, 4096);
    cudaDeviceSynchronize();
    return 0;
}
