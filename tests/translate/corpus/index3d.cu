// index3d: every built-in in three dimensions.
// expect: translated
__global__ void index3d(int *out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz)
        out[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z + (int)(gridDim.x * gridDim.y * gridDim.z);
}
