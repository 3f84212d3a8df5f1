// 64-bin histogram in the style of the CUDA samples' histogram64: per-block sub-histograms in
// shared memory built with shared-memory atomics over a grid-stride loop of bytes, then a merge
// kernel that sums the partial histograms, each block reducing one bin over the partials.
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <helper_cuda.h>

#define HISTOGRAM64_BIN_COUNT 64
#define MERGE_THREADBLOCK_SIZE 256

__global__ void histogram64Kernel(unsigned int *d_PartialHistograms, const unsigned char *d_Data,
                                  unsigned int dataCount)
{
    __shared__ unsigned int s_Hist[HISTOGRAM64_BIN_COUNT];
    for (unsigned int pos = threadIdx.x; pos < HISTOGRAM64_BIN_COUNT; pos += blockDim.x)
        s_Hist[pos] = 0;
    __syncthreads();
    for (unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount;
         pos += blockDim.x * gridDim.x) {
        unsigned int data = d_Data[pos];
        atomicAdd(s_Hist + (data >> 2), 1);
    }
    __syncthreads();
    for (unsigned int bin = threadIdx.x; bin < HISTOGRAM64_BIN_COUNT; bin += blockDim.x)
        d_PartialHistograms[blockIdx.x * HISTOGRAM64_BIN_COUNT + bin] = s_Hist[bin];
}

__global__ void mergeHistogram64Kernel(unsigned int *d_Histogram, const unsigned int *d_PartialHistograms,
                                       unsigned int histogramCount)
{
    __shared__ unsigned int data[MERGE_THREADBLOCK_SIZE];
    unsigned int sum = 0;
    for (unsigned int i = threadIdx.x; i < histogramCount; i += MERGE_THREADBLOCK_SIZE)
        sum += d_PartialHistograms[blockIdx.x + i * HISTOGRAM64_BIN_COUNT];
    data[threadIdx.x] = sum;
    for (unsigned int stride = MERGE_THREADBLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) data[threadIdx.x] += data[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) d_Histogram[blockIdx.x] = data[0];
}

extern "C" void histogram64(unsigned int *d_Histogram, unsigned int *d_PartialHistograms,
                            unsigned char *d_Data, unsigned int byteCount, int partialCount)
{
    histogram64Kernel<<<partialCount, 128>>>(d_PartialHistograms, d_Data, byteCount);
    getLastCudaError("histogram64Kernel() execution failed\n");
    mergeHistogram64Kernel<<<HISTOGRAM64_BIN_COUNT, MERGE_THREADBLOCK_SIZE>>>(
        d_Histogram, d_PartialHistograms, partialCount);
    getLastCudaError("mergeHistogram64Kernel() execution failed\n");
}
