/*
Backward pass of the bias of a matmul in the style of llm.c's matmul_backward_bias kernels:
one block per output channel, a strided sum per thread, a warp reduction with cooperative
groups, and the warps' sums combined in shared memory.
*/
// translate flags: --simd-width 32
// expect: translated
#include <stdio.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void matmul_backward_bias_kernel2(float *dbias, const float *dout, int B, int T, int OC)
{
    // dout is (B, T, OC), dbias is (OC)
    // e.g. if block_size = 128, then we have 4 warps per block, each in charge of one output channel
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    // meta_group_size is the number of warps in a block (e.g. 4), meta_group_rank is the warp index (0,1,2,3)
    int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (idx >= OC) { return; }
    int BT = B * T; // number of elements to reduce in total, per channel
    // first, thread coarsening to sum reduce the problem size from B*T to 32
    float sum = 0.0f;
    for (int i = warp.thread_rank(); i < BT; i += warp.size()) {
        sum += dout[i * OC + idx];
    }
    // now do a warp-level reduce to get the sum across the 32 threads in this warp
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    // write the result to output (global memory)
    if (warp.thread_rank() == 0) {
        dbias[idx] += sum;
    }
}

__global__ void matmul_backward_bias_kernel3(float *dbias, const float *dout, int B, int T, int OC)
{
    // one block per output channel; the warps' partial sums meet in shared memory
    extern __shared__ float smem[]; // of size block_size / 32
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const int warp_id = threadIdx.x / 32;
    const int lane_id = threadIdx.x % 32;
    const int o = blockIdx.x; // range [0, OC)
    const int tid = threadIdx.x;
    const int block_size = blockDim.x;
    const float *x = dout + o;
    // thread coarsening
    float sum = 0.0f;
    for (int i = tid; i < B * T; i += block_size) {
        sum += x[i * OC];
    }
    // warp-level reduction
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    // block-level reduction
    if (lane_id == 0) {
        smem[warp_id] = sum;
    }
    __syncthreads();
    if (tid == 0) {
        float total = 0.0f;
        for (int w = 0; w < block_size / 32; w++) total += smem[w];
        dbias[o] += total;
    }
}

int main()
{
    int B = 8, T = 1024, OC = 768;
    float *dbias, *dout;
    cudaMalloc(&dbias, OC * sizeof(float));
    cudaMalloc(&dout, B * T * OC * sizeof(float));
    matmul_backward_bias_kernel2<<<OC / 4, 128>>>(dbias, dout, B, T, OC);
    matmul_backward_bias_kernel3<<<OC, 256, 256 / 32 * sizeof(float)>>>(dbias, dout, B, T, OC);
    return 0;
}
