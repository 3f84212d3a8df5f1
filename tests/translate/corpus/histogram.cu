// histogram: int atomics on global and shared memory, a grid-stride loop, min/max.
// expect: translated
#define BINS 64

__global__ void histogram(unsigned int *bins, const int *values, int n, int *extremes)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int v = values[i];
        atomicAdd(&local[v & (BINS - 1)], 1u);
        atomicMin(&extremes[0], v);
        atomicMax(&extremes[1], v);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}
