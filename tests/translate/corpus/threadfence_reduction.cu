// The last block is found with __threadfence() and an atomicInc ticket: a device-wide memory
// fence, which the dialect does not have, so the kernels are refused.
// expect: refused memory fence 88
// Single-pass sum: every block reduces its part, the last block to finish (found with a
// ticket from atomicInc after __threadfence) adds the partial sums (threadFenceReduction style).
#include <stdio.h>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#ifndef MIN
#define MIN(x, y) ((x < y) ? x : y)
#endif

// Global variable used by sum to count how many blocks have finished
__device__ unsigned int retirementCount = 0;

cudaError_t setRetirementCount(int retCnt)
{
    return cudaMemcpyToSymbol(retirementCount, &retCnt, sizeof(unsigned int), 0,
                              cudaMemcpyHostToDevice);
}

bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }

template <unsigned int blockSize>
__device__ void reduceBlock(volatile float *sdata, float mySum, const unsigned int tid,
                            cg::thread_block cta)
{
    sdata[tid] = mySum;
    cg::sync(cta);

    // do reduction in shared mem
    if (blockSize >= 512) {
        if (tid < 256) sdata[tid] = mySum = mySum + sdata[tid + 256];
        cg::sync(cta);
    }
    if (blockSize >= 256) {
        if (tid < 128) sdata[tid] = mySum = mySum + sdata[tid + 128];
        cg::sync(cta);
    }
    if (blockSize >= 128) {
        if (tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64];
        cg::sync(cta);
    }
    if (tid < 32) {
        if (blockSize >= 64) sdata[tid] = mySum = mySum + sdata[tid + 32];
        cg::sync(cta);
        if (blockSize >= 32) sdata[tid] = mySum = mySum + sdata[tid + 16];
        if (blockSize >= 16) sdata[tid] = mySum = mySum + sdata[tid + 8];
        if (blockSize >= 8) sdata[tid] = mySum = mySum + sdata[tid + 4];
        if (blockSize >= 4) sdata[tid] = mySum = mySum + sdata[tid + 2];
        if (blockSize >= 2) sdata[tid] = mySum = mySum + sdata[tid + 1];
    }
}

template <unsigned int blockSize, bool nIsPow2>
__device__ void reduceBlocks(const float *g_idata, float *g_odata, unsigned int n,
                             cg::thread_block cta)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    float mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (nIsPow2 || i + blockSize < n) mySum += g_idata[i + blockSize];
        i += gridSize;
    }
    reduceBlock<blockSize>(sdata, mySum, tid, cta);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <unsigned int blockSize, bool nIsPow2>
__global__ void reduceSinglePass(const float *g_idata, float *g_odata, unsigned int n)
{
    cg::thread_block cta = cg::this_thread_block();
    reduceBlocks<blockSize, nIsPow2>(g_idata, g_odata, n, cta);

    if (gridDim.x > 1) {
        const unsigned int tid = threadIdx.x;
        __shared__ bool amLast;
        extern float __shared__ smem[];

        // wait until all outstanding memory instructions in this thread are finished
        __threadfence();

        // Thread 0 takes a ticket
        if (tid == 0) {
            unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
            // If the ticket ID is equal to the number of blocks, we are the last block!
            amLast = (ticket == gridDim.x - 1);
        }
        cg::sync(cta);

        // The last block sums the results of all other blocks
        if (amLast) {
            int i = tid;
            float mySum = 0;
            while (i < gridDim.x) {
                mySum += g_odata[i];
                i += blockSize;
            }
            reduceBlock<blockSize>(smem, mySum, tid, cta);
            if (tid == 0) {
                g_odata[0] = smem[0];
                // reset retirement count so that next run succeeds
                retirementCount = 0;
            }
        }
    }
}

extern "C" void reduceSinglePass(int size, int threads, int blocks, float *d_idata, float *d_odata)
{
    dim3 dimBlock(threads, 1, 1);
    dim3 dimGrid(blocks, 1, 1);
    int smemSize = threads * sizeof(float);
    if (isPow2(size)) {
        switch (threads) {
        case 256: reduceSinglePass<256, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
        case 128: reduceSinglePass<128, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
        }
    } else {
        switch (threads) {
        case 256: reduceSinglePass<256, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
        case 128: reduceSinglePass<128, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
        }
    }
}
