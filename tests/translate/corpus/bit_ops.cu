// Integer bit tricks in the style of FFT and hashing code: a bit-reversal permutation with
// __brev, Hamming weights with __popc / __popcll, integer log2 from __clz, the lowest set bit
// from __ffs, and a multiplicative hash with __umulhi. Indices are clamped with nested
// min/max, which the dialect's macros evaluate twice (fine: they have no side effects).
// expect: translated
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#define CUDA_CHECK(x)                                                                    \
    do {                                                                                 \
        cudaError_t e_ = (x);                                                            \
        if (e_ != cudaSuccess) {                                                         \
            printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));           \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

__global__ void bit_reverse_permute(float *out, const float *in, int log2n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (1u << log2n)) out[__brev(i) >> (32 - log2n)] = in[i];
}

__global__ void bit_stats(int *weight, int *ilog2, int *lowest, const unsigned int *x,
                          const unsigned long long *wide, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned int v = x[i];
    weight[i] = __popc(v) + __popcll(wide[i]);
    ilog2[i] = v ? 31 - __clz(v) : -1;
    lowest[i] = __ffs(v) + 100 * __ffsll(wide[i]) + 10000 * __clzll(wide[i]);
}

__global__ void hash_bucket(int *bucket, const unsigned int *keys, int n, int nbuckets)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int h = __umulhi(keys[i], 2654435761u) ^ (keys[i] * 2654435761u);
        int b = (int)(h % (unsigned int)nbuckets) - 2;
        bucket[i] = min(max(b, 0), nbuckets - 5);
    }
}

int main()
{
    const int log2n = 10, n = 1 << log2n;
    float *in, *out;
    CUDA_CHECK(cudaMalloc(&in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&out, n * sizeof(float)));
    bit_reverse_permute<<<n / 256, 256>>>(out, in, log2n);
    CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
}
