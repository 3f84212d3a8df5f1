#include <cstdio>
__device__ void warpReduce(volatile float *s, int tid)
{
    s[tid] += s[tid + 32]; s[tid] += s[tid + 16]; s[tid] += s[tid + 8];
    s[tid] += s[tid + 4]; s[tid] += s[tid + 2]; s[tid] += s[tid + 1];
}
__global__ void reduce(const float *in, float *out, unsigned n)
{
    __shared__ float s[256];
    unsigned tid = threadIdx.x, i = blockIdx.x * 512 + tid;
    s[tid] = (i < n ? in[i] : 0) + (i + 256 < n ? in[i + 256] : 0);
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 32; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid < 32) warpReduce(s, tid);
    if (tid == 0) out[blockIdx.x] = s[0];
}
__global__ void exchange(int *o) { __shared__ int x[32]; x[threadIdx.x] = threadIdx.x; o[threadIdx.x] = x[31 - threadIdx.x]; }
