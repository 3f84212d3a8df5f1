// Shared memory declared at file scope, as older samples do: a static array that a helper and
// the kernel both name, and the dynamic block (`extern __shared__`) that a helper fills. Each
// kernel that needs one declares it and passes it to the helpers that name it.
// expect: translated
#define THREADS 128

__shared__ float partial[THREADS];
extern __shared__ float staged[];

__device__ float block_sum(float v)
{
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    float r = partial[0];
    __syncthreads();
    return r;
}

__device__ void stage_row(const float *row, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x) staged[i] = row[i];
    __syncthreads();
}

__global__ void row_sums(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = block_sum(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0) out[blockIdx.x] = s + partial[1] * 0.0f;
}

__global__ void reverse_rows(const float *in, float *out, int cols)
{
    stage_row(in + blockIdx.x * cols, cols);
    for (int i = threadIdx.x; i < cols; i += blockDim.x)
        out[blockIdx.x * cols + i] = staged[cols - 1 - i];
}

int main()
{
    int n = 1000, rows = 6, cols = 300;
    row_sums<<<(n + THREADS - 1) / THREADS, THREADS>>>(nullptr, nullptr, n);
    reverse_rows<<<rows, 64, cols * sizeof(float)>>>(nullptr, nullptr, cols);
    return 0;
}
