/***********************************************************************************
  half buffers read and written through CUDA's conversions: casts, the float math functions and
  the implicit conversions of initialisers, assignments and arguments all convert the value
  (the dialect stores half as its bits).
 ************************************************************************************/
// expect: translated
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__device__ float scaled(float v, float s) { return v * s; }

__global__ void half_scale(const __half *x, __half *y, float *o, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float w = x[i];
        o[i] = scaled(x[i], s) + fabsf(x[i]) - w;
        y[i] = o[i];
    }
}

int main()
{
    const int n = 64;
    __half *x, *y;
    float *o;
    cudaMalloc(&x, n * sizeof(__half));
    cudaMalloc(&y, n * sizeof(__half));
    cudaMalloc(&o, n * sizeof(float));
    half_scale<<<1, n>>>(x, y, o, 2.0f, n);
    return 0;
}
