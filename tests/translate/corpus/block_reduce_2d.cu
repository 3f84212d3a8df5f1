// block_reduce_2d: per-tile sums of an image in 16 x 16 blocks, reduced over the block's linear
// thread index (threadIdx.y * blockDim.x + threadIdx.x); and a statistics pass in the manner of
// the speckle-reducing filters: every i-th thread counted from one adds the partial sum i / 2
// below it, while the last, partly filled block adds its elements one by one (the barriers sit in
// the `then` of an if-else all of a block takes: PoCL 3 builds that only without optimisation).
// expect: translated
#include <cuda_runtime.h>

#define TILE 16
#define THREADS 256

__global__ void tile_sum(const float *img, float *sums, int width)
{
    __shared__ float partial[TILE * TILE];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    partial[tid] = img[y * width + x];
    __syncthreads();
    for (int stride = (TILE * TILE) / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            partial[tid] += partial[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        sums[blockIdx.y * gridDim.x + blockIdx.x] = partial[0];
    }
}

__global__ void partial_sums(const float *in, float *out, int n)
{
    __shared__ float psum[THREADS];
    int bx = blockIdx.x;
    int tx = threadIdx.x;
    int ei = bx * THREADS + tx;
    psum[tx] = ei < n ? in[ei] : 0.0f;
    __syncthreads();
    if (bx != gridDim.x - 1) {
        // sum of every 2, 4, ..., THREADS elements
        for (int i = 2; i <= THREADS; i = 2 * i) {
            if ((tx + 1) % i == 0) {
                psum[tx] = psum[tx] + psum[tx - i / 2];
            }
            __syncthreads();
        }
        if (tx == THREADS - 1) {
            out[bx] = psum[tx];
        }
    } else {
        // the last block: what is left, in order
        if (tx == 0) {
            float acc = 0.0f;
            for (int j = 0; j < n - bx * THREADS; j++) {
                acc += psum[j];
            }
            out[bx] = acc;
        }
    }
}

int main()
{
    const int width = 64, height = 48, n = 1000;
    float *img, *sums, *in, *out;
    cudaMalloc(&img, width * height * sizeof(float));
    cudaMalloc(&sums, (width / TILE) * (height / TILE) * sizeof(float));
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, ((n + THREADS - 1) / THREADS) * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid(width / TILE, height / TILE);
    tile_sum<<<grid, block>>>(img, sums, width);
    partial_sums<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
