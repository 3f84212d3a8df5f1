// The reduction of "Optimizing Parallel Reduction in CUDA" (kernel 6): the warp-synchronous tail
// in a device function that writes through a volatile shared pointer, called under tid < 32, and
// a block size that is a template parameter. Without --simd-width 32 this is refused (the tail
// relies on lockstep); with it, the helper is rewritten with shuffles.
// translate flags: --simd-width 32
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

#define cudaCheckErrors(msg)                                                          \
    do {                                                                              \
        cudaError_t __err = cudaGetLastError();                                       \
        if (__err != cudaSuccess) {                                                   \
            fprintf(stderr, "Fatal error: %s (%s at %s:%d)\n", msg,                   \
                    cudaGetErrorString(__err), __FILE__, __LINE__);                   \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

template <unsigned int blockSize>
__device__ void warpReduce(volatile int *sdata, unsigned int tid)
{
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce6(int *g_idata, int *g_odata, unsigned int n)
{
    extern __shared__ int sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    sdata[tid] = 0;
    while (i < n) {
        sdata[tid] += g_idata[i];
        if (i + blockSize < n) sdata[tid] += g_idata[i + blockSize];
        i += gridSize;
    }
    __syncthreads();
    if (blockSize >= 512) {
        if (tid < 256) sdata[tid] += sdata[tid + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128) sdata[tid] += sdata[tid + 128];
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (tid < 64) sdata[tid] += sdata[tid + 64];
        __syncthreads();
    }
    if (tid < 32) warpReduce<blockSize>(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

int main(int argc, char **argv)
{
    const unsigned int n = 1u << 22;
    const int threads = 256, blocks = 64;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaCheckErrors("cudaMalloc");
    reduce6<threads><<<blocks, threads, threads * sizeof(int)>>>(d_in, d_out, n);
    cudaCheckErrors("reduce6");
    int h_out[blocks];
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    long long total = 0;
    for (int b = 0; b < blocks; b++) total += h_out[b];
    printf("sum = %lld\n", total);
    return 0;
}
