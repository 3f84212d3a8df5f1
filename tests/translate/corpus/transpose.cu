// transpose: a 2-D tile in shared memory, 2-D built-ins, a kept constant macro, a function macro.
// expect: translated
#define TILE 16
#define AT(m, r, c, w) (m)[(r) * (w) + (c)]

__global__ void transpose(float *out, const float *in, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = AT(in, y, x, w);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < h && y < w) AT(out, y, x, h) = tile[threadIdx.x][threadIdx.y];
}
