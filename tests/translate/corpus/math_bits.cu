// Bit casts and the math functions CUDA has beyond the C basics: a float's bits ordered as an
// integer key (radix-sort style), a bit-level approximation refined by Newton steps, sincosf for
// a rotation, and isnan/isinf/signbit/rintf to sanitise and classify values.
// expect: translated
#include <stdio.h>

__device__ unsigned int float_to_key(float f)
{
    unsigned int u = __float_as_uint(f);
    unsigned int mask = (u & 0x80000000u) ? 0xffffffffu : 0x80000000u;
    return u ^ mask;
}

__device__ float key_to_float(unsigned int k)
{
    unsigned int mask = (k & 0x80000000u) ? 0x80000000u : 0xffffffffu;
    return __uint_as_float(k ^ mask);
}

__device__ float approx_rsqrt(float x)
{
    int i = __float_as_int(x);
    i = 0x5f3759df - (i >> 1);
    float y = __int_as_float(i);
    y = y * (1.5f - 0.5f * x * y * y);
    y = y * (1.5f - 0.5f * x * y * y);
    return y;
}

__global__ void classify(const float *in, unsigned int *keys, float *back, float *rs, int *cls,
                         float *clean, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    keys[i] = float_to_key(v);
    back[i] = key_to_float(keys[i]);
    rs[i] = (isfinite(v) && v > 0.0f) ? approx_rsqrt(v) : 0.0f;
    cls[i] = isnan(v) + 2 * isinf(v) + 4 * signbit(v);
    clean[i] = isnan(v) || isinf(v) ? 0.0f : rintf(v * 4.0f) * 0.25f;
}

__global__ void rotate_points(const float2 *p, float2 *out, const float *angle, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s, c;
    sincosf(angle[i], &s, &c);
    out[i] = make_float2(c * p[i].x - s * p[i].y, s * p[i].x + c * p[i].y);
}

__global__ void flip_low_bit(double *d, long long *bits, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long b = __double_as_longlong(d[i]);
    bits[i] = b;
    d[i] = __longlong_as_double(b ^ 1ll);
}

int main()
{
    const int n = 1000;
    float *in, *back, *rs, *clean, *angle;
    unsigned int *keys;
    int *cls;
    float2 *p, *out;
    double *d;
    long long *bits;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&keys, n * sizeof(unsigned int));
    cudaMalloc(&back, n * sizeof(float));
    cudaMalloc(&rs, n * sizeof(float));
    cudaMalloc(&cls, n * sizeof(int));
    cudaMalloc(&clean, n * sizeof(float));
    cudaMalloc(&angle, n * sizeof(float));
    cudaMalloc(&p, n * sizeof(float2));
    cudaMalloc(&out, n * sizeof(float2));
    cudaMalloc(&d, n * sizeof(double));
    cudaMalloc(&bits, n * sizeof(long long));
    classify<<<(n + 255) / 256, 256>>>(in, keys, back, rs, cls, clean, n);
    rotate_points<<<(n + 255) / 256, 256>>>(p, out, angle, n);
    flip_low_bit<<<(n + 255) / 256, 256>>>(d, bits, n);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
