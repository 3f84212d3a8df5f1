// Statistics kept in 64 bits, the way simulation and data-analysis codes keep them: double
// sums of values and squares accumulated with atomicAdd (sm_60 and later), a weighted event
// count that passes 2^32 in unsigned long long, the first flagged index claimed with a 64-bit
// compare-and-swap, and the smallest key found with atomicMin on a packed (key << 32 | index).
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

#define EVENT_WEIGHT (1ull << 22)

__global__ void moments(const double *x, double *sums, unsigned long long *events, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    atomicAdd(&sums[0], v);
    atomicAdd(&sums[1], v * v);
    if (v > 0.5) atomicAdd(events, EVENT_WEIGHT);
}

__global__ void first_and_min(const int *flags, const unsigned int *keys,
                              unsigned long long *first, unsigned long long *packed_min, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (flags[i]) atomicCAS(first, 0ull, (unsigned long long)i + 1);
    unsigned long long packed = ((unsigned long long)keys[i] << 32) | (unsigned int)i;
    atomicMin(packed_min, packed);
}

int main()
{
    const int n = 5000;
    double *x, *sums;
    unsigned long long *events, *first, *packed_min;
    int *flags;
    unsigned int *keys;
    cudaMalloc(&x, n * sizeof(double));
    cudaMalloc(&sums, 2 * sizeof(double));
    cudaMalloc(&events, sizeof(unsigned long long));
    cudaMalloc(&flags, n * sizeof(int));
    cudaMalloc(&keys, n * sizeof(unsigned int));
    cudaMalloc(&first, sizeof(unsigned long long));
    cudaMalloc(&packed_min, sizeof(unsigned long long));
    moments<<<(n + 255) / 256, 256>>>(x, sums, events, n);
    first_and_min<<<(n + 255) / 256, 256>>>(flags, keys, first, packed_min, n);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
