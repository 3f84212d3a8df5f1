// math_extra: the C math functions past the basics that simulation codes call (hypotf for a
// distance, cbrtf for a cube-root density scale, expm1f/log1pf near zero, ldexpf to rescale,
// lroundf/lrintf/nearbyintf to bin), <stdint.h>'s UINT64_C for a hash constant, a header-style
// loop with two counters, and the scoped atomics (_block, _system) for a histogram's totals.
// expect: translated
#include <cuda_runtime.h>
#include <stdint.h>

#define HASH_MUL UINT64_C(0x9E3779B97F4A7C15)

__global__ void math_extra(const float *x, const float *y, float *h, float *c, float *e, float *l,
                           float *ld, long long *bins, unsigned long long *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    h[i] = hypotf(x[i], y[i]);
    c[i] = cbrtf(x[i]);
    e[i] = expm1f(x[i] * 0.01f);
    l[i] = log1pf(fabsf(y[i]) * 0.001f);
    ld[i] = ldexpf(x[i], i % 300 - 150);
    bins[i] = lroundf(x[i]) + 1000 * lrintf(y[i]) + 1000000 * (long long)nearbyintf(x[i] * 0.5f);
    keys[i] = ((unsigned long long)i * HASH_MUL) ^ UINT64_C(0xFFFF);
}

// a window of three neighbours summed with two counters in one for header
__global__ void window_sum(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int k = -1, used = 0; k <= 1 && used < 3; k++, used++) {
        int j = i + k;
        if (j >= 0 && j < n) s += x[j];
    }
    for (const float *p = x + i, *end = x + n; p < end && p < x + i + 1; p++) s += *p;
    out[i] = s;
}

__global__ void scoped_totals(const float *x, unsigned int *totals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (x[i] > 0.0f) atomicAdd_system(&totals[0], 1u);
    atomicMax_block(&totals[1], (unsigned int)i);
    atomicOr_system(&totals[2], 1u << (i % 32));
}

int main()
{
    const int n = 1 << 12;
    float *x, *y, *h, *c, *e, *l, *ld, *w;
    long long *bins;
    unsigned long long *keys;
    unsigned int *totals;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&h, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMalloc(&e, n * sizeof(float));
    cudaMalloc(&l, n * sizeof(float));
    cudaMalloc(&ld, n * sizeof(float));
    cudaMalloc(&w, n * sizeof(float));
    cudaMalloc(&bins, n * sizeof(long long));
    cudaMalloc(&keys, n * sizeof(unsigned long long));
    cudaMalloc(&totals, 3 * sizeof(unsigned int));
    math_extra<<<(n + 255) / 256, 256>>>(x, y, h, c, e, l, ld, bins, keys, n);
    window_sum<<<(n + 255) / 256, 256>>>(x, w, n);
    scoped_totals<<<(n + 255) / 256, 256>>>(x, totals, n);
    cudaDeviceSynchronize();
    return 0;
}
