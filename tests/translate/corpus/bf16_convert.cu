/***********************************************************************************
  bfloat16 buffers in the style of llm.c (floatX is __nv_bfloat16): values read through casts
  and CUDA's implicit conversions, written back rounded to nearest even.
 ************************************************************************************/
// expect: translated
#include <cuda_bf16.h>
#include <cuda_runtime.h>

typedef __nv_bfloat16 floatX;

__global__ void bf16_scale(floatX *out, const floatX *inp, const float *f, floatX *rounded,
                           float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = (float)inp[i];
        float w = inp[i];
        out[i] = (floatX)(v * s + w);
        rounded[i] = __float2bfloat16(f[i]);
    }
}

int main()
{
    const int n = 64;
    floatX *out, *inp, *rounded;
    float *f;
    cudaMalloc(&out, n * sizeof(floatX));
    cudaMalloc(&inp, n * sizeof(floatX));
    cudaMalloc(&rounded, n * sizeof(floatX));
    cudaMalloc(&f, n * sizeof(float));
    bf16_scale<<<1, n>>>(out, inp, f, rounded, 2.0f, n);
    return 0;
}
