// A parent kernel launching child grids (dynamic parallelism, the CUDA samples'
// cdpSimpleQuicksort style): refused by name.
// expect: refused dynamic parallelism 19
// nvcc flags: -rdc=true
#include <cstdio>

__global__ void child(int *data, int offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[offset + i] *= 2;
}

__global__ void parent(int *data, const int *offsets, const int *sizes, int segments)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s < segments) {
        int n = sizes[s];
        int blocks = (n + 127) / 128;
        child<<<blocks, 128>>>(data, offsets[s], n);
    }
}
