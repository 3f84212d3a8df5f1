// DAXPY and a double-precision norm: translated with GP_REQUIRES_FP64 (not a Metal target);
// runs on the CPU and on OpenCL devices with fp64.
// expect: translated
#include <cstdio>
#include <cmath>

__global__ void daxpy(int n, double a, const double *x, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void scaled_norm(int n, const double *x, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sqrt(x[i] * x[i] + 1.0) * exp(-fabs(x[i]));
}

int main()
{
    const int n = 1 << 20;
    double *x, *y;
    cudaMalloc(&x, n * sizeof(double));
    cudaMalloc(&y, n * sizeof(double));
    daxpy<<<(n + 255) / 256, 256>>>(n, 2.0, x, y);
    scaled_norm<<<(n + 255) / 256, 256>>>(n, x, y);
    cudaDeviceSynchronize();
    return 0;
}
