// Warp-wide reductions written with CUB's WarpReduce, as benchmark codes use it: per-warp sums
// and maxima over full warps, and sums over logical warps of 16 threads. Each is a butterfly of
// SIMD-group shuffles, so the kernels need SIMD groups of 32 lanes.
// translate flags: --simd-width 32
// expect: translated
#include <cstdio>
#include <cub/cub.cuh>
__global__ void warp_sums(const float *x, float *out, float *mx)
{
    using WarpReduce = cub::WarpReduce<float>;
    __shared__ typename WarpReduce::TempStorage temp[4];
    int w = threadIdx.x / 32;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    float s = WarpReduce(temp[w]).Sum(v);
    float m = WarpReduce(temp[w]).Reduce(v, cuda::maximum<>{});
    if (threadIdx.x % 32 == 0) { out[blockIdx.x * 4 + w] = s; mx[blockIdx.x * 4 + w] = m; }
}
__global__ void half_warps(const int *x, int *out)
{
    typedef cub::WarpReduce<int, 16> WR16;
    __shared__ WR16::TempStorage ts[8];
    int v = x[blockIdx.x * blockDim.x + threadIdx.x];
    int s = WR16(ts[threadIdx.x / 16]).Sum(v);
    if (threadIdx.x % 16 == 0) out[blockIdx.x * 8 + threadIdx.x / 16] = s;
}

int main()
{
    float *x, *out, *mx;
    int *xi, *oi;
    cudaMalloc((void **)&x, 256 * sizeof(float));
    cudaMalloc((void **)&out, 8 * sizeof(float));
    cudaMalloc((void **)&mx, 8 * sizeof(float));
    cudaMalloc((void **)&xi, 256 * sizeof(int));
    cudaMalloc((void **)&oi, 16 * sizeof(int));
    warp_sums<<<2, 128>>>(x, out, mx);
    half_warps<<<2, 128>>>(xi, oi);
    cudaDeviceSynchronize();
    return 0;
}
