// Neighbour exchange through shared memory with no __syncwarp: each lane writes its value and
// reads its partner's, which only lockstep execution makes safe. Refused with or without
// --simd-width 32 (the partner is lane ^ 1, not a shuffle of the tail's form).
// translate flags: --simd-width 32
// expect: refused warp lockstep 18
#include <cuda_runtime.h>

__global__ void pair_sum(const float *in, float *out, int n)
{
    __shared__ float buf[256];
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    // every lane of the warp writes before any reads: true only in lockstep
    buf[warp * 32 + lane] = v;
    if (i < n)
        out[i] = v + buf[warp * 32 + (lane ^ 1)];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 1024 * sizeof(float));
    cudaMalloc(&out, 1024 * sizeof(float));
    pair_sum<<<4, 256>>>(in, out, 1024);
    return 0;
}
