// A one-launch reduction with a grid-wide barrier (cooperative launch): refused by name, since
// groups of a launch cannot wait for each other on Metal, OpenCL or the CPU backend.
// expect: refused grid-wide synchronisation 20
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduce_grid(const float *in, float *partial, float *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[256];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
    s[threadIdx.x] = v;
    block.sync();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        block.sync();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
    cg::grid_group grid = cg::this_grid();
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float t = 0.0f;
        for (int b = 0; b < gridDim.x; b++) t += partial[b];
        *out = t;
    }
}
