// A finite-difference step on a 3-D grid passed as CUDA codes from C often pass it: as a
// multi-dimensional array parameter `double phi[][NY][NZ]`, indexed in every dimension, with
// neighbours at -1 and +1; and a per-thread 2-D table filled by one helper and summed by
// another, each taking it as `float t[][NCOEF]`.
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

#define NX 16
#define NY 8
#define NZ 8
#define NCOEF 4

__device__ void fill_table(float t[][NCOEF], int rows, float base)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < NCOEF; c++)
            t[r][c] = base * (r + 1) - c;
}

__device__ float table_sum(const float t[][NCOEF], int rows)
{
    float s = 0.0f;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < NCOEF; c++)
            s += t[r][c] * (c + 1);
    return s;
}

__global__ void laplace_step(const double phi[][NY][NZ], double out[][NY][NZ], float weight[][NY])
{
    int x = blockIdx.x, y = threadIdx.y, z = threadIdx.x;
    double c = phi[x][y][z];
    double s = -6.0 * c;
    s += x > 0 ? phi[x - 1][y][z] : c;
    s += x < NX - 1 ? phi[x + 1][y][z] : c;
    s += y > 0 ? phi[x][y - 1][z] : c;
    s += y < NY - 1 ? phi[x][y + 1][z] : c;
    s += z > 0 ? phi[x][y][z - 1] : c;
    s += z < NZ - 1 ? phi[x][y][z + 1] : c;
    out[x][y][z] = c + 0.1 * s;
    if (z == 0) {
        float table[3][NCOEF];
        fill_table(table, 3, (float)(x + y));
        weight[x][y] = table_sum(table, 3);
    }
}

int main()
{
    static double h_phi[NX][NY][NZ];
    for (int x = 0; x < NX; x++)
        for (int y = 0; y < NY; y++)
            for (int z = 0; z < NZ; z++)
                h_phi[x][y][z] = x * 0.5 + y * 0.25 - z;
    double(*d_phi)[NY][NZ], (*d_out)[NY][NZ];
    float(*d_w)[NY];
    cudaMalloc(&d_phi, sizeof h_phi);
    cudaMalloc(&d_out, sizeof h_phi);
    cudaMalloc(&d_w, NX * NY * sizeof(float));
    cudaMemcpy(d_phi, h_phi, sizeof h_phi, cudaMemcpyHostToDevice);
    laplace_step<<<NX, dim3(NZ, NY)>>>(d_phi, d_out, d_w);
    cudaMemcpy(h_phi, d_out, sizeof h_phi, cudaMemcpyDeviceToHost);
    printf("%f\n", h_phi[1][1][1]);
    cudaFree(d_phi);
    cudaFree(d_out);
    cudaFree(d_w);
    return 0;
}
