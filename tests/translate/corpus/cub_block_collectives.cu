// Block-wide reductions and scans written with CUB's block collectives, as benchmark codes use
// them: a templated dot product whose launch names no template arguments (they are deduced from
// the device pointers a host template declares), a per-block maximum and a minimum over the
// valid part of the last block (with a functor of the file), a block exclusive scan with its
// aggregate and an inclusive scan. The block radix sort is refused by name.
// expect kernel dot_product_float: translated
// expect kernel dot_product_int: translated
// expect kernel block_range: translated
// expect kernel block_offsets: translated
// expect kernel sort_keys: refused cub 73
#include <cstdio>
#include <cstdlib>
#include <cub/cub.cuh>

#define BLOCK_SIZE 128

template <typename T>
__global__ void dot_product(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ d,
                            int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T sum = 0;
    for (int k = i; k < n; k += gridDim.x * blockDim.x)
        sum += a[k] * b[k];
    using BlockReduce = cub::BlockReduce<T, BLOCK_SIZE>;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    T aggregate = BlockReduce(temp_storage).Sum(sum);
    if (threadIdx.x == 0) d[blockIdx.x] = aggregate;
}

struct MinOp
{
    template <typename T>
    __device__ __forceinline__ T operator()(const T &a, const T &b) const
    {
        return (b < a) ? b : a;
    }
};

__global__ void block_range(const float *x, float *lo, float *hi, int n)
{
    typedef cub::BlockReduce<float, BLOCK_SIZE, cub::BLOCK_REDUCE_WARP_REDUCTIONS> BlockReduceT;
    __shared__ typename BlockReduceT::TempStorage max_storage;
    __shared__ typename BlockReduceT::TempStorage min_storage;
    int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    float v = i < n ? x[i] : -1.0f;
    int valid = n - blockIdx.x * BLOCK_SIZE;
    float m = BlockReduceT(max_storage).Reduce(v, cuda::maximum<>{});
    float s = BlockReduceT(min_storage).Reduce(v, MinOp{}, valid);
    if (threadIdx.x == 0) {
        hi[blockIdx.x] = m;
        lo[blockIdx.x] = s;
    }
}

__global__ void block_offsets(const int *counts, int *starts, int *ends, int *totals)
{
    using BlockScan = cub::BlockScan<int, BLOCK_SIZE>;
    __shared__ typename BlockScan::TempStorage scan_storage;
    int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    int c = counts[i];
    int start, end, total;
    BlockScan(scan_storage).ExclusiveSum(c, start, total);
    __syncthreads();
    BlockScan(scan_storage).InclusiveSum(c, end);
    starts[i] = start;
    ends[i] = end;
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

__global__ void sort_keys(int *keys)
{
    using BlockRadixSort = cub::BlockRadixSort<int, BLOCK_SIZE, 1>;
    __shared__ typename BlockRadixSort::TempStorage temp;
    int key[1] = {keys[blockIdx.x * BLOCK_SIZE + threadIdx.x]};
    BlockRadixSort(temp).Sort(key);
    keys[blockIdx.x * BLOCK_SIZE + threadIdx.x] = key[0];
}

template <typename T>
void dot(int n)
{
    T *d_a, *d_b, *d_out;
    cudaMalloc((void **)&d_a, n * sizeof(T));
    cudaMalloc((void **)&d_b, n * sizeof(T));
    cudaMalloc((void **)&d_out, 8 * sizeof(T));
    dot_product<<<8, BLOCK_SIZE>>>(d_a, d_b, d_out, n);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_out);
}

int main()
{
    dot<float>(4000);
    dot<int>(4000);
    float *x, *lo, *hi;
    int n = 1000;
    cudaMalloc((void **)&x, n * sizeof(float));
    cudaMalloc((void **)&lo, 8 * sizeof(float));
    cudaMalloc((void **)&hi, 8 * sizeof(float));
    block_range<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(x, lo, hi, n);
    int *counts, *starts, *ends, *totals;
    cudaMalloc((void **)&counts, 4 * BLOCK_SIZE * sizeof(int));
    cudaMalloc((void **)&starts, 4 * BLOCK_SIZE * sizeof(int));
    cudaMalloc((void **)&ends, 4 * BLOCK_SIZE * sizeof(int));
    cudaMalloc((void **)&totals, 4 * sizeof(int));
    block_offsets<<<4, BLOCK_SIZE>>>(counts, starts, ends, totals);
    sort_keys<<<4, BLOCK_SIZE>>>(counts);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
