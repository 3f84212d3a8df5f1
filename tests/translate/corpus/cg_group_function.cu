// A device function that takes a cooperative_groups::thread_group, as the CUDA samples write a
// reduction for whatever group calls it: called with the thread block, it is made for a
// thread_block (its rank, size and sync are the block's).
// expect: translated
#include <cstdio>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ int groupSum(cg::thread_group g, int *workspace, int val)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        workspace[lane] = val;
        g.sync();
        if (lane < i) val += workspace[lane + i];
        g.sync();
    }
    return val;
}

__global__ void blockSums(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ int workspace[256];
    int v = in[blockIdx.x * blockDim.x + block.thread_rank()];
    int sum = groupSum(block, workspace, v);
    if (block.thread_rank() == 0) out[blockIdx.x] = sum;
}

int main()
{
    int *in, *out;
    cudaMalloc((void **)&in, 4 * 256 * sizeof(int));
    cudaMalloc((void **)&out, 4 * sizeof(int));
    blockSums<<<4, 256>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
