// The CUDA samples' simpleAtomicIntrinsics test kernel: every 32-bit atomic on global memory,
// atomicInc and atomicDec with a wrap limit among them, each thread taking part once.
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include <helper_cuda.h>
#include <helper_functions.h>

__global__ void testKernel(int *g_odata)
{
    // access thread id
    const unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;

    // Test various atomic instructions

    // Arithmetic atomic instructions

    // Atomic addition
    atomicAdd(&g_odata[0], 10);

    // Atomic subtraction (final should be 0)
    atomicSub(&g_odata[1], 10);

    // Atomic exchange
    atomicExch(&g_odata[2], tid);

    // Atomic maximum
    atomicMax(&g_odata[3], tid);

    // Atomic minimum
    atomicMin(&g_odata[4], tid);

    // Atomic increment (modulo 17+1)
    atomicInc((unsigned int *)&g_odata[5], 17);

    // Atomic decrement
    atomicDec((unsigned int *)&g_odata[6], 137);

    // Atomic compare-and-swap
    atomicCAS(&g_odata[7], tid - 1, tid);

    // Bitwise atomic instructions

    // Atomic AND
    atomicAnd(&g_odata[8], 2 * tid + 7);

    // Atomic OR
    atomicOr(&g_odata[9], 1 << tid);

    // Atomic XOR
    atomicXor(&g_odata[10], tid);
}

void runTest(int argc, char **argv)
{
    unsigned int numThreads = 256;
    unsigned int numBlocks = 64;
    unsigned int numData = 11;
    unsigned int memSize = sizeof(int) * numData;
    int *hOData = (int *)malloc(memSize);
    for (unsigned int i = 0; i < numData; i++) hOData[i] = 0;
    // To make the AND and XOR tests generate something other than 0...
    hOData[8] = hOData[10] = 0xff;
    int *dOData;
    checkCudaErrors(cudaMalloc((void **)&dOData, memSize));
    checkCudaErrors(cudaMemcpy(dOData, hOData, memSize, cudaMemcpyHostToDevice));
    testKernel<<<numBlocks, numThreads, 0>>>(dOData);
    getLastCudaError("Kernel execution failed");
    checkCudaErrors(cudaMemcpy(hOData, dOData, memSize, cudaMemcpyDeviceToHost));
    free(hOData);
    checkCudaErrors(cudaFree(dOData));
}

int main(int argc, char **argv)
{
    runTest(argc, argv);
    return 0;
}
