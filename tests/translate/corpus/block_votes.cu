// Block-wide votes: __syncthreads_count, __syncthreads_and and __syncthreads_or (barriers that
// also reduce a predicate over the block), and a helper keeping a flag in a shared scalar.
// expect: translated
#include <cuda_runtime.h>

__device__ int block_any_negative(const int *v, int i, int n)
{
    __shared__ int flag;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    if (i < n && v[i] < 0) flag = 1;
    __syncthreads();
    int r = flag;
    __syncthreads();
    return r;
}

__global__ void block_votes(int *out, const int *v, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? v[i] : 0;
    int above = __syncthreads_count(x > threshold);
    int all_even = __syncthreads_and((x & 1) == 0);
    int any_big = __syncthreads_or(x > 1000);
    int neg = block_any_negative(v, i, n);
    if (threadIdx.x == 0) {
        out[4 * blockIdx.x + 0] = above;
        out[4 * blockIdx.x + 1] = all_even;
        out[4 * blockIdx.x + 2] = any_big;
        out[4 * blockIdx.x + 3] = neg;
    }
}

int main()
{
    int *out, *v;
    int n = 1000;
    cudaMalloc(&out, 4 * 8 * sizeof(int));
    cudaMalloc(&v, n * sizeof(int));
    block_votes<<<8, 128>>>(out, v, n, 50);
    return 0;
}
