// kernels.cu — a row-wise softmax as CUDA projects write it: one block per row, the maximum and the
// sum reduced in shared memory, fast exponentials. The dual-track guide (docs/workflow.md)
// translates it into the portable dialect and runs it on every device.
#define BLOCK 128

__device__ float block_reduce_max(float *red, float v)
{
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    float r = red[0];
    __syncthreads();
    return r;
}

__device__ float block_reduce_sum(float *red, float v)
{
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float r = red[0];
    __syncthreads();
    return r;
}

__global__ void softmax_rows(float *__restrict__ out, const float *__restrict__ in, int cols)
{
    __shared__ float red[BLOCK];
    const float *row = in + blockIdx.x * cols;
    float *orow = out + blockIdx.x * cols;
    float m = -3.402823466e+38f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
    m = block_reduce_max(red, m);
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += __expf(row[c] - m);
    sum = block_reduce_sum(red, sum);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) orow[c] = __expf(row[c] - m) / sum;
}
