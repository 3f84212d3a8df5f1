/***********************************************************************************
  Packed half arithmetic in the style of attention and LayerNorm kernels: __half2 pairs read
  from buffers, combined with CUDA's __h*2 intrinsics, unpacked to float2, and single halves
  compared and picked with a conditional (a half chosen from two halves keeps its bits).
 ************************************************************************************/
// expect: translated
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void half2_axpy(const __half2 *x, __half2 *y, __half2 a, float *diff, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 v = __hfma2(a, x[i], y[i]);
        y[i] = __hmax2(v, __hneg2(x[i]));
        float2 f = __half22float2(v);
        diff[i] = f.x - __high2float(v) + __low2float(__floats2half2_rn(0.25f, 8.0f));
    }
}

__global__ void half_pick(const __half *p, const __half *q, __half *r, int *flag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half s = __hadd(p[i], q[i]);
        __half m = __hmul(p[i], q[i]);
        r[i] = __hlt(s, m) ? m : __hsub(s, __float2half(0.5f));
        flag[i] = __hge(p[i], q[i]) + 2 * __heq(p[i], q[i]);
        __half2 both = __halves2half2(s, m);
        r[n + i] = both.y;
    }
}

int main()
{
    const int n = 64;
    __half2 *x, *y;
    __half *p, *q, *r;
    float *diff;
    int *flag;
    cudaMalloc(&x, n * sizeof(__half2));
    cudaMalloc(&y, n * sizeof(__half2));
    cudaMalloc(&diff, n * sizeof(float));
    cudaMalloc(&p, n * sizeof(__half));
    cudaMalloc(&q, n * sizeof(__half));
    cudaMalloc(&r, 2 * n * sizeof(__half));
    cudaMalloc(&flag, n * sizeof(int));
    half2_axpy<<<2, 32>>>(x, y, __floats2half2_rn(2.0f, -0.5f), diff, n);
    half_pick<<<2, 32>>>(p, q, r, flag, n);
    return 0;
}
