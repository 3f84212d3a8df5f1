// reduce: a device function with its own __shared__ scratch (hoisted into the kernel), the dynamic
// shared block, a helper called with global and shared pointers (cloned), float atomicAdd.
// expect: translated
__device__ float scaled(const float *p, int i, float s)
{
    return p[i] * s;
}

__device__ void block_sum(float *data)
{
    __shared__ float scratch[256];
    unsigned int t = threadIdx.x;
    scratch[t] = data[t];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) scratch[t] += scratch[t + s];
        __syncthreads();
    }
    if (t == 0) data[0] = scratch[0];
}

__global__ void reduce(float *total, float *partial, const float *in, int n)
{
    extern __shared__ float smem[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    smem[threadIdx.x] = i < n ? scaled(in, i, 2.0f) : 0.0f;
    __syncthreads();
    block_sum(smem);
    __syncthreads();
    float *mine = partial + blockIdx.x;
    if (threadIdx.x == 0) {
        *mine = scaled(smem, 0, 1.0f);
        atomicAdd(total, smem[0]);
    }
}
