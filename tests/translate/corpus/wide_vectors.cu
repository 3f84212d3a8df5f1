// A lattice update written for OpenCL first and ported to CUDA the way lattice-Boltzmann codes
// are: the OpenCL vector types the kernel was written with (int8, float8) are declared by hand as
// structs with .s0 ... .s7, and helpers take and return them. In OpenCL C and Metal those names
// are built-in types, so the translation renames them.
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

typedef struct {
    int s0, s1, s2, s3, s4, s5, s6, s7;
} int8;

typedef struct __align__(32) {
    float s0, s1, s2, s3, s4, s5, s6, s7;
} float8;

__device__ int8 neighbours(int p, int width, float8 dir)
{
    int8 n;
    n.s0 = p + (int)dir.s0 * width;
    n.s1 = p + (int)dir.s1 * width;
    n.s2 = p + (int)dir.s2 * width;
    n.s3 = p + (int)dir.s3 * width;
    n.s4 = p + (int)dir.s4 * width;
    n.s5 = p + (int)dir.s5 * width;
    n.s6 = p + (int)dir.s6 * width;
    n.s7 = p + (int)dir.s7 * width;
    return n;
}

__device__ float pick(const float *f, int i, int n)
{
    return i >= 0 && i < n ? f[i] : 0.0f;
}

// each cell gathers its eight neighbours along the directions, weighted
__global__ void stream(const float *f, float *out, const float8 *weights, float8 dir, int width,
                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int8 nb = neighbours(i, width, dir);
    float8 w = weights[i % 4];
    out[i] = w.s0 * pick(f, nb.s0, n) + w.s1 * pick(f, nb.s1, n) + w.s2 * pick(f, nb.s2, n) +
             w.s3 * pick(f, nb.s3, n) + w.s4 * pick(f, nb.s4, n) + w.s5 * pick(f, nb.s5, n) +
             w.s6 * pick(f, nb.s6, n) + w.s7 * pick(f, nb.s7, n);
}

int main()
{
    const int width = 64, n = width * 48;
    float *f, *out;
    float8 *w;
    cudaMalloc(&f, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&w, 4 * sizeof(float8));
    float8 dir = {-1, 0, 1, -1, 1, -1, 0, 1};
    stream<<<(n + 127) / 128, 128>>>(f, out, w, dir, width, n);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
