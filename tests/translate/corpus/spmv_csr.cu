// translate flags: --simd-width 32
// expect kernel spmv_csr_scalar_kernel: translated
// expect kernel spmv_csr_vector_kernel: refused warp lockstep 55
// expect kernel spmv_csr_warp_shfl: translated
// Sparse matrix-vector product, CSR format: one row per thread (scalar) and one row per warp
// (vector) with a shared-memory reduction in the style of the classic SpMV kernels.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_SAFE_CALL(call)                                                          \
    {                                                                                 \
        cudaError err = call;                                                         \
        if (cudaSuccess != err) {                                                     \
            fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__,   \
                    __LINE__, cudaGetErrorString(err));                               \
            exit(EXIT_FAILURE);                                                       \
        }                                                                             \
    }

static const int BLOCK_SIZE = 128;
static const int WARP_SIZE = 32;

__global__ void spmv_csr_scalar_kernel(const int num_rows, const int *ptr, const int *indices,
                                       const float *data, const float *x, float *y)
{
    int row = blockDim.x * blockIdx.x + threadIdx.x;
    if (row < num_rows) {
        float dot = 0;
        int row_start = ptr[row];
        int row_end = ptr[row + 1];
        for (int jj = row_start; jj < row_end; jj++)
            dot += data[jj] * x[indices[jj]];
        y[row] += dot;
    }
}

__global__ void spmv_csr_vector_kernel(const int num_rows, const int *ptr, const int *indices,
                                       const float *data, const float *x, float *y)
{
    __shared__ float vals[BLOCK_SIZE];
    int thread_id = blockDim.x * blockIdx.x + threadIdx.x; // global thread index
    int warp_id = thread_id / WARP_SIZE;                   // global warp index
    int lane = thread_id & (WARP_SIZE - 1);                // thread index within the warp
    // one warp per row
    int row = warp_id;
    if (row < num_rows) {
        int row_start = ptr[row];
        int row_end = ptr[row + 1];
        // compute running sum per thread
        vals[threadIdx.x] = 0;
        for (int jj = row_start + lane; jj < row_end; jj += WARP_SIZE)
            vals[threadIdx.x] += data[jj] * x[indices[jj]];
        // parallel reduction in shared memory
        if (lane < 16) vals[threadIdx.x] += vals[threadIdx.x + 16];
        if (lane < 8) vals[threadIdx.x] += vals[threadIdx.x + 8];
        if (lane < 4) vals[threadIdx.x] += vals[threadIdx.x + 4];
        if (lane < 2) vals[threadIdx.x] += vals[threadIdx.x + 2];
        if (lane < 1) vals[threadIdx.x] += vals[threadIdx.x + 1];
        // first thread writes the result
        if (lane == 0) y[row] += vals[threadIdx.x];
    }
}

__global__ void spmv_csr_warp_shfl(const int num_rows, const int *__restrict__ ptr,
                                   const int *__restrict__ indices,
                                   const float *__restrict__ data, const float *__restrict__ x,
                                   float *__restrict__ y)
{
    int thread_id = blockDim.x * blockIdx.x + threadIdx.x;
    int row = thread_id / WARP_SIZE;
    int lane = thread_id % WARP_SIZE;
    if (row >= num_rows) return;
    float sum = 0.0f;
    for (int jj = ptr[row] + lane; jj < ptr[row + 1]; jj += WARP_SIZE)
        sum += data[jj] * __ldg(&x[indices[jj]]);
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0) y[row] = sum;
}

int main()
{
    int n = 1 << 16, nnz_per_row = 9;
    int *d_ptr, *d_idx;
    float *d_val, *d_x, *d_y;
    CUDA_SAFE_CALL(cudaMalloc(&d_ptr, (n + 1) * sizeof(int)));
    CUDA_SAFE_CALL(cudaMalloc(&d_idx, n * nnz_per_row * sizeof(int)));
    CUDA_SAFE_CALL(cudaMalloc(&d_val, n * nnz_per_row * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&d_x, n * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&d_y, n * sizeof(float)));
    spmv_csr_scalar_kernel<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(n, d_ptr, d_idx, d_val, d_x, d_y);
    spmv_csr_vector_kernel<<<(n * WARP_SIZE + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(n, d_ptr, d_idx, d_val, d_x, d_y);
    spmv_csr_warp_shfl<<<(n * WARP_SIZE + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(n, d_ptr, d_idx, d_val, d_x, d_y);
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
    return 0;
}
