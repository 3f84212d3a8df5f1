// Bit manipulation through unions, as SVD and hashing kernels do it: a float's sign bit cleared
// and its exponent read through `union un { float f; unsigned int ui; }` locals, and a buffer of
// unions written as one member and read back as another.
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

union un {
    float f;
    unsigned int ui;
};

typedef union {
    unsigned int word;
    unsigned char bytes[4];
} packed_t;

__device__ int exponent_of(float x)
{
    un v;
    v.f = x;
    return (int)((v.ui >> 23) & 0xffu) - 127;
}

__global__ void float_bits(const float *in, float *absval, int *expo, packed_t *packed, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    un a;
    a.f = in[i];
    a.ui &= 0x7fffffffu;
    absval[i] = a.f;
    expo[i] = exponent_of(in[i]);
    packed[i].word = (unsigned int)i * 2654435761u;
    packed[i].bytes[0] = (unsigned char)(packed[i].bytes[3] ^ 0x5a);
}

int main()
{
    const int n = 256;
    float h[n];
    for (int i = 0; i < n; i++) h[i] = (i - 128) * 0.37f;
    float *d_in, *d_abs;
    int *d_exp;
    packed_t *d_packed;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_abs, n * sizeof(float));
    cudaMalloc(&d_exp, n * sizeof(int));
    cudaMalloc(&d_packed, n * sizeof(packed_t));
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    float_bits<<<n / 64, 64>>>(d_in, d_abs, d_exp, d_packed, n);
    cudaMemcpy(h, d_abs, sizeof h, cudaMemcpyDeviceToHost);
    printf("%f\n", h[0]);
    cudaFree(d_in);
    cudaFree(d_abs);
    cudaFree(d_exp);
    cudaFree(d_packed);
    return 0;
}
