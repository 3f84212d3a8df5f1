#include <cuda_runtime.h>
#define TILE 16
#define IDX(r, c, w) ((r) * (w) + (c))

__constant__ float coeffs[4] = {0.5f, -1.0f, 2.0f, 3.0f};

__device__ float scale(const float *p, int i, float s) { return p[i] * s; }

__device__ void block_sum(float *sdata, unsigned int n)
{
    __shared__ float scratch[64];
    unsigned int t = threadIdx.x;
    scratch[t] = sdata[t];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) scratch[t] += scratch[t + s];
        __syncthreads();
    }
    if (t == 0) sdata[0] = scratch[0];
}

__global__ void saxpy(float *__restrict__ y, const float *__restrict__ x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i] * coeffs[0];
}

__global__ void transpose(float *out, const float *in, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[IDX(y, x, w)];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < h && y < w) out[IDX(y, x, h)] = tile[threadIdx.x][threadIdx.y];
}

__global__ void reduce(float *out, const float *in, int n)
{
    extern __shared__ float smem[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    smem[threadIdx.x] = i < n ? scale(in, i, 2.0f) : 0.0f;
    __syncthreads();
    block_sum(smem, blockDim.x);
    float *o = out + blockIdx.x;
    if (threadIdx.x == 0) *o = smem[0] + scale(smem, 0, 1.0f);
    atomicAdd(out, smem[0]);
}

__global__ void hist(unsigned int *bins, const int *v, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[v[i] & 255], 1u);
    n = max(n, 0);
}

int main() { float *d; cudaMalloc(&d, 4); saxpy<<<1, 1>>>(d, d, 1.0f, 1); return 0; }
