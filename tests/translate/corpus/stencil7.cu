/***************************************************************************
 * A 7-point 3-D stencil in the style of Parboil's stencil (the naive version): one thread per
 * (i, j) column walking k, the grid dimensions as parameters, an index macro.
 ***************************************************************************/
// expect: translated
#include <stdio.h>
#include <stdlib.h>

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

__global__ void naive_kernel(float c0, float c1, float *A0, float *Anext, int nx, int ny, int nz)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    int k = blockIdx.z * blockDim.z + threadIdx.z + 1;
    if (i < nx - 1 && j < ny - 1 && k < nz - 1) {
        Anext[Index3D(nx, ny, i, j, k)] =
            (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
             A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
             A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) * c1 -
            A0[Index3D(nx, ny, i, j, k)] * c0;
    }
}

int main(int argc, char **argv)
{
    int nx = 128, ny = 128, nz = 32;
    float *d_A0, *d_Anext;
    size_t size = nx * ny * nz * sizeof(float);
    cudaMalloc((void **)&d_A0, size);
    cudaMalloc((void **)&d_Anext, size);
    dim3 block(8, 8, 4);
    dim3 grid((nx - 2 + 7) / 8, (ny - 2 + 7) / 8, (nz - 2 + 3) / 4);
    float c0 = 1.0f / 6.0f, c1 = 1.0f / 6.0f / 6.0f;
    for (int t = 0; t < 100; t++) {
        naive_kernel<<<grid, block>>>(c0, c1, d_A0, d_Anext, nx, ny, nz);
        float *d_temp = d_A0;
        d_A0 = d_Anext;
        d_Anext = d_temp;
    }
    return 0;
}
