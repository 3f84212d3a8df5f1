/***********************************************************************************
  Tiled matrix multiply in the style of the CUDA samples' matrixMul (driver API version): the
  tiles are two-dimensional __shared__ arrays declared in a templated device function that the
  kernels call, one instance per block size.
 ************************************************************************************/
// expect: translated
#include <stdio.h>
#include <cuda_runtime.h>

template <int block_size>
__device__ void matrixMul(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[block_size][block_size];
    __shared__ float Bs[block_size][block_size + 1];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    float Csub = 0.0f;
    for (int a = wA * block_size * by, b = block_size * bx; a < wA * block_size * by + wA;
         a += block_size, b += block_size * wB) {
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < block_size; ++k)
            Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[wB * block_size * by + block_size * bx + wB * ty + tx] = Csub;
}

__global__ void matrixMul_bs8(float *C, const float *A, const float *B, int wA, int wB)
{
    matrixMul<8>(C, A, B, wA, wB);
}

__global__ void matrixMul_bs16(float *C, const float *A, const float *B, int wA, int wB)
{
    matrixMul<16>(C, A, B, wA, wB);
}

int main()
{
    const int n = 64;
    float *dA, *dB, *dC;
    cudaMalloc(&dA, n * n * sizeof(float));
    cudaMalloc(&dB, n * n * sizeof(float));
    cudaMalloc(&dC, n * n * sizeof(float));
    dim3 threads(16, 16), grid(n / 16, n / 16);
    matrixMul_bs16<<<grid, threads>>>(dC, dA, dB, n, n);
    matrixMul_bs8<<<dim3(n / 8, n / 8), dim3(8, 8)>>>(dC, dA, dB, n, n);
    cudaDeviceSynchronize();
    return 0;
}
