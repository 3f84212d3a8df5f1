// vectors: float4 and float2 values with their constructors, half as storage.
// expect: translated
#include <cuda_fp16.h>

__global__ void vectors(float4 *out4, float2 *out2, __half *h, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    out4[i] = make_float4(v, v * 2.0f, v * 3.0f, v * 4.0f);
    float2 p = make_float2(v, -v);
    out2[i] = p;
    h[i] = __float2half(__half2float(h[i]) + v);
}
