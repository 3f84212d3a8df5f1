// Half-precision arithmetic written with cuda_fp16.h's operators, as mixed-precision inference
// code writes it: sums, products and quotients of __half values, a negation, compound
// assignments into a half buffer and comparisons that pick a branch. Each operation rounds to
// half, as CUDA's __hadd, __hmul and __hdiv do; hexp, hsqrt, hfloor, hrcp, hlog and the __half2
// h2exp2 and h2log2 are computed in float and rounded to half.
// expect: translated
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__device__ __half axpy_h(__half a, __half x, __half y)
{
    return a * x + y;
}

__global__ void half_update(__half *w, const __half *g, const __half *m, __half lr, int *sign,
                            int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half step = axpy_h(lr, g[i], m[i]);
    __half damped = step / (lr + m[i]);
    w[i] -= damped;
    if (g[i] > m[i])
        sign[i] = 1;
    else if (g[i] == m[i])
        sign[i] = 0;
    else
        sign[i] = -1;
    if (-g[i] >= m[i]) sign[i] += 10;
}

// cuda_fp16.h's math functions on __half and __half2, each rounded to half
__global__ void half_math(const __half *x, __half *y, const __half2 *p, __half2 *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half a = hexp(x[i]);
    __half b = hsqrt(a);
    __half c = hfloor(b * __float2half(4.0f));
    y[i] = c + hrcp(b) - hlog(a);
    q[i] = h2log2(h2exp2(p[i]));
}

int main()
{
    const int n = 4096;
    __half *w, *g, *m;
    int *sign;
    cudaMalloc(&w, n * sizeof(__half));
    cudaMalloc(&g, n * sizeof(__half));
    cudaMalloc(&m, n * sizeof(__half));
    cudaMalloc(&sign, n * sizeof(int));
    half_update<<<(n + 255) / 256, 256>>>(w, g, m, __float2half(0.125f), sign, n);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
