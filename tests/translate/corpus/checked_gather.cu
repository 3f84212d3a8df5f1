// A gather and a bucketed count that check their indices with assert while debugging: each
// assert becomes a test that prints CUDA's message (file, line, kernel, block, thread, the
// condition as written) through gp_printf where it fails; the work-item goes on.
// expect: translated
#include <cassert>
#include <cstdio>

#define BUCKETS 16

__global__ void gather_rows(const float *src, const int *rows, float *dst, int nrows, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    int r = rows[i];
    assert(r >= 0 && "row index must not be negative");
    assert(r < nrows);
    dst[i] = src[min(max(r, 0), nrows - 1)];
}

__global__ void count_buckets(const int *keys, unsigned int *counts, int n)
{
    __shared__ unsigned int local[BUCKETS];
    assert(blockDim.x >= BUCKETS);
    if (threadIdx.x < BUCKETS) local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = keys[i] % BUCKETS;
        if (b < 0) assert(!"keys are never negative");
        atomicAdd(&local[b < 0 ? 0 : b], 1u);
    }
    __syncthreads();
    if (threadIdx.x < BUCKETS) atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}

int main()
{
    gather_rows<<<(1000 + 127) / 128, 128>>>(nullptr, nullptr, nullptr, 64, 1000);
    count_buckets<<<(5000 + 255) / 256, 256>>>(nullptr, nullptr, 5000);
    return 0;
}
