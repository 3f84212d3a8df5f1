// Numeric code that spells its conversions with CUDA's intrinsics: float and double to integer with a
// rounding mode, a double taken apart into its 32-bit halves and put back, the high half of a
// product, a rounded average, and double arithmetic in the default rounding mode.
// expect: translated
#include <cuda_runtime.h>

__global__ void conv(const float *f, const double *d, int *o, double *od, unsigned *u, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    o[8 * i + 0] = __float2int_rn(f[i]);
    o[8 * i + 1] = __float2int_rd(f[i]);
    o[8 * i + 2] = __float2int_ru(f[i]);
    o[8 * i + 3] = __double2int_rn(d[i]);
    o[8 * i + 4] = __double2hiint(d[i]);
    o[8 * i + 5] = __double2loint(d[i]);
    o[8 * i + 6] = __mulhi(o[8 * i + 4], 123456789);
    o[8 * i + 7] = (int)__float2uint_rn(fabsf(f[i]));
    od[2 * i] = __hiloint2double(__double2hiint(d[i]), __double2loint(d[i])) + __drcp_rn(d[i] + 3.0);
    od[2 * i + 1] = __fma_rn(d[i], 2.0, __dsqrt_rn(fabs(d[i])));
    u[i] = __umulhi((unsigned)i * 2654435761u, 40503u) + __urhadd(0xffffffffu, (unsigned)i);
}

int main()
{
    const int n = 1000;
    float *f;
    double *d, *od;
    int *o;
    unsigned *u;
    cudaMalloc(&f, n * sizeof(float));
    cudaMalloc(&d, n * sizeof(double));
    cudaMalloc(&o, 8 * n * sizeof(int));
    cudaMalloc(&od, 2 * n * sizeof(double));
    cudaMalloc(&u, n * sizeof(unsigned));
    conv<<<(n + 127) / 128, 128>>>(f, d, o, od, u, n);
    cudaDeviceSynchronize();
    return 0;
}
