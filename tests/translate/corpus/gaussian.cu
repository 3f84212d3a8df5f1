/*-----------------------------------------------------------
 ** Gaussian elimination in the style of Rodinia's gaussian.cu: Fan1 computes the multipliers of
 ** a column, Fan2 updates the rows below the pivot over a 2-D grid.
 **-----------------------------------------------------------
 */
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include "cuda.h"

#define MAXBLOCKSIZE 512
#define BLOCK_SIZE_XY 4

__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
    *(m_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) =
        *(a_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) / *(a_cuda + Size * t + t);
}

__global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
    if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t) return;

    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;

    a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
    if (yidx == 0) {
        b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
    }
}

void ForwardSub(float *m_cuda, float *a_cuda, float *b_cuda, int Size)
{
    int block_size = MAXBLOCKSIZE;
    int grid_size = (Size / block_size) + (!(Size % block_size) ? 0 : 1);
    dim3 dimBlock(block_size);
    dim3 dimGrid(grid_size);
    int blockSize2d = BLOCK_SIZE_XY;
    int gridSize2d = (Size / blockSize2d) + (!(Size % blockSize2d ? 0 : 1));
    dim3 dimBlockXY(blockSize2d, blockSize2d);
    dim3 dimGridXY(gridSize2d, gridSize2d);
    for (int t = 0; t < (Size - 1); t++) {
        Fan1<<<dimGrid, dimBlock>>>(m_cuda, a_cuda, Size, t);
        cudaDeviceSynchronize();
        Fan2<<<dimGridXY, dimBlockXY>>>(m_cuda, a_cuda, b_cuda, Size, Size - t, t);
        cudaDeviceSynchronize();
    }
}
