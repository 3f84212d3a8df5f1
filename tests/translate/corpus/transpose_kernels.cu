// Matrix transpose in the style of the CUDA samples' transpose.cu: a copy kernel for reference,
// the naive transpose, and the coalesced one through a shared tile padded against bank
// conflicts, each thread moving TILE_DIM / BLOCK_ROWS elements.
// expect: translated
#include <stdio.h>
#include <assert.h>
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

#define checkCuda(result)                                                            \
    do {                                                                             \
        if ((result) != cudaSuccess) {                                               \
            fprintf(stderr, "CUDA Runtime Error: %s\n", cudaGetErrorString(result)); \
            assert((result) == cudaSuccess);                                         \
        }                                                                            \
    } while (0)

__global__ void copy(float *odata, const float *idata)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = idata[(y + j) * width + x];
}

__global__ void transposeNaive(float *odata, const float *idata)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[x * width + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transposeNoBankConflicts(float *odata, const float *idata)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x; // transpose block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
    const int nx = 1024, ny = 1024, mem_size = nx * ny * sizeof(float);
    dim3 dimGrid(nx / TILE_DIM, ny / TILE_DIM, 1);
    dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);
    float *h_idata = (float *)malloc(mem_size), *d_idata, *d_tdata;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) h_idata[j * nx + i] = j * nx + i;
    checkCuda(cudaMalloc(&d_idata, mem_size));
    checkCuda(cudaMalloc(&d_tdata, mem_size));
    checkCuda(cudaMemcpy(d_idata, h_idata, mem_size, cudaMemcpyHostToDevice));
    cudaEvent_t startEvent, stopEvent;
    checkCuda(cudaEventCreate(&startEvent));
    checkCuda(cudaEventCreate(&stopEvent));
    checkCuda(cudaEventRecord(startEvent, 0));
    transposeNoBankConflicts<<<dimGrid, dimBlock>>>(d_tdata, d_idata);
    checkCuda(cudaEventRecord(stopEvent, 0));
    checkCuda(cudaEventSynchronize(stopEvent));
    float ms;
    checkCuda(cudaEventElapsedTime(&ms, startEvent, stopEvent));
    printf("%20.2f\n", 2 * mem_size * 1e-6 / ms);
    copy<<<dimGrid, dimBlock>>>(d_tdata, d_idata);
    transposeNaive<<<dimGrid, dimBlock>>>(d_tdata, d_idata);
    checkCuda(cudaFree(d_tdata));
    checkCuda(cudaFree(d_idata));
    free(h_idata);
    return 0;
}
