// A dot product that loads four floats at a time through reinterpret_cast<float4 *> (the
// vectorised loads of llm.c and the CUDA best-practices guide), a grid-stride loop, a block
// reduction in shared memory and one float atomicAdd per block.
// expect: translated
#include <stdio.h>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void dot4(const float *__restrict__ a, const float *__restrict__ b, float *result, int n4)
{
    __shared__ float cache[THREADS];
    const float4 *a4 = reinterpret_cast<const float4 *>(a);
    const float4 *b4 = reinterpret_cast<const float4 *>(b);
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float4 x = a4[i], y = b4[i];
        sum += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
    }
    cache[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, cache[0]);
}

int main()
{
    const int n = 1 << 22;
    float *a, *b, *r;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&r, sizeof(float));
    cudaMemset(r, 0, sizeof(float));
    dot4<<<128, THREADS>>>(a, b, r, n / 4);
    float h;
    cudaMemcpy(&h, r, sizeof h, cudaMemcpyDeviceToHost);
    printf("%f\n", h);
    return 0;
}
