// Kernel templates reached the ways benchmark codes reach them: a launch inside a host template
// declared before main and defined after it, whose template argument comes from main's call; a
// launch that names no template arguments (deduced from the device pointers the host template
// declares); an enumerator and a device function as template arguments; a device function
// template overloaded by its number of parameters.
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

enum class Op { Scale, Offset };

__device__ float square(float x) { return x * x; }
__device__ float negate(float x) { return -x; }

template <typename T, Op MODE>
__global__ void transform(T *out, const T *in, T k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if ((int)MODE == 0)
            out[i] = in[i] * k;
        else
            out[i] = in[i] + k;
    }
}

template <float (*F)(float)>
__global__ void map(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = F(in[i]);
}

template <float (*F)(float)>
__device__ float combine(float x, float y, float w)
{
    return F(x) + w * F(y);
}

template <float (*F)(float)>
__device__ float combine(float x)
{
    return combine<F>(x, 1.0f, 0.5f);
}

__global__ void pairs(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = combine<square>(in[i]) + combine<negate>(in[i], 2.0f, 3.0f);
}

template <typename T>
__global__ void axpy(T *y, const T *x, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
void run(int n);

int main()
{
    run<float>(1000);
    run<int>(1000);
    return 0;
}

template <typename T>
void run(int n)
{
    T *d_x, *d_y;
    cudaMalloc((void **)&d_x, n * sizeof(T));
    cudaMalloc((void **)&d_y, n * sizeof(T));
    T a = 3;
    axpy<<<(n + 255) / 256, 256>>>(d_y, d_x, a, n);
    transform<T, Op::Scale><<<(n + 255) / 256, 256>>>(d_y, d_x, a, n);
    transform<T, Op::Offset><<<(n + 255) / 256, 256>>>(d_y, d_x, a, n);
    float *f;
    cudaMalloc((void **)&f, n * sizeof(float));
    map<square><<<(n + 255) / 256, 256>>>(f, f, n);
    map<negate><<<(n + 255) / 256, 256>>>(f, f, n);
    pairs<<<(n + 255) / 256, 256>>>(f, f, n);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(f);
}
