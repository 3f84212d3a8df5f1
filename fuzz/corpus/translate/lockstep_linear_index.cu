#define BX 16
#define BY 16
__global__ void sum2d(const float *in, float *out, int n)
{
    __shared__ float s[2 * BX * BY];
    int tid = threadIdx.y * blockDim.x + threadIdx.x;
    int i = blockIdx.x * (BX * BY) + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    s[tid + BX * BY] = 0.0f;
    __syncthreads();
    for (int k = 1; k < BX * BY; k *= 2) {
        if (tid % (2 * k) == 0) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
int main() { sum2d<<<4, dim3(BX, BY)>>>(0, 0, 0); }
