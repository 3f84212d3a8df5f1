#ifdef __CUDACC__
__device__ float sq(float x) { return x * x; }
#endif

__global__ void k(float *x) {
    __shared__ float t[32];
    x[0] = t[0];
}
void run(float *x) { k<<<1, 32>>>(x); }

#if defined(__CUDA_ARCH__)
__device__ int lane(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }
#endif

__global__ void k(float *x) {
    float v = __shfl_down_sync(0xffffffff, x[0], 1);
    wmma::fragment<int, 16, 16, 16, half> a;
    asm("mov.u32 %0, %%laneid;" : "=r"(v));
}

struct Params {
    virtual ~Params() {}
    virtual void set_bias(int b) {
        TORCH_CHECK(false, "set_bias is not implemented for this type");
    }
};

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#include <mma.h>
using namespace nvcuda;
__device__ void tile(const half *a) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a, 16);
}

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#ifdef __CUDACC__
__device__ float sq(float x) { return x * x; }
#endif

__global__ void k(float *x) {
    __shared__ float t[32];
    x[0] = t[0];
}
void run(float *x) { k<<<1, 32>>>(x); }

#if defined(__CUDA_ARCH__)
__device__ int lane(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }
#endif

__global__ void k(float *x) {
    float v = __shfl_down_sync(0xffffffff, x[0], 1);
    wmma::fragment<int, 16, 16, 16, half> a;
    asm("mov.u32 %0, %%laneid;" : "=r"(v));
}

struct Params {
    virtual ~Params() {}
    virtual void set_bias(int b) {
        TORCH_CHECK(false, "set_bias is not implemented for this type");
    }
};

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#include <mma.h>
using namespace nvcuda;
__device__ void tile(const half *a) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a, 16);
}

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

/* a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
a comment line naming cudaMalloc
*/
const char *k = R"(__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
__global__ void f() {}
)";
#ifdef __CUDACC__
__device__ float sq(float x) { return x * x; }
#endif

__global__ void k(float *x) {
    __shared__ float t[32];
    x[0] = t[0];
}
void run(float *x) { k<<<1, 32>>>(x); }

#if defined(__CUDA_ARCH__)
__device__ int lane(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }
#endif

__global__ void k(float *x) {
    float v = __shfl_down_sync(0xffffffff, x[0], 1);
    wmma::fragment<int, 16, 16, 16, half> a;
    asm("mov.u32 %0, %%laneid;" : "=r"(v));
}

struct Params {
    virtual ~Params() {}
    virtual void set_bias(int b) {
        TORCH_CHECK(false, "set_bias is not implemented for this type");
    }
};

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#include <mma.h>
using namespace nvcuda;
__device__ void tile(const half *a) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a, 16);
}

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#ifdef __CUDACC__
__device__ float sq(float x) { return x * x; }
#endif

__global__ void k(float *x) {
    __shared__ float t[32];
    x[0] = t[0];
}
void run(float *x) { k<<<1, 32>>>(x); }

#if defined(__CUDA_ARCH__)
__device__ int lane(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }
#endif

__global__ void k(float *x) {
    float v = __shfl_down_sync(0xffffffff, x[0], 1);
    wmma::fragment<int, 16, 16, 16, half> a;
    asm("mov.u32 %0, %%laneid;" : "=r"(v));
}

struct Params {
    virtual ~Params() {}
    virtual void set_bias(int b) {
        TORCH_CHECK(false, "set_bias is not implemented for this type");
    }
};

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

#include <mma.h>
using namespace nvcuda;
__device__ void tile(const half *a) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a, 16);
}

#include <cuda_runtime.h>
__global__ void add(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
void add_cuda(float *x, int n) { add<<<(n + 255) / 256, 256>>>(x, n); }

