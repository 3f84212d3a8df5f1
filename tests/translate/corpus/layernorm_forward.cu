/*
Kernels for layernorm forward pass, in the style of llm.c's dev/cuda/layernorm_forward.cu.

version 1 is naive port from CPU code to kernel: parallelizes over B,T, loops over C
version 3 uses cooperative groups: one warp per row, cg::reduce for the sums

Compile example:
nvcc -O3 --use_fast_math layernorm_forward.cu -o layernorm_forward
*/
// translate flags: --simd-width 32
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// ----------------------------------------------------------------------------
// CUDA utils

template <class T>
__host__ __device__ T ceil_div(T dividend, T divisor)
{
    return (dividend + divisor - 1) / divisor;
}

void cuda_check(cudaError_t error, const char *file, int line)
{
    if (error != cudaSuccess) {
        printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
        exit(EXIT_FAILURE);
    }
};
#define cudaCheck(err) (cuda_check(err, __FILE__, __LINE__))

// ----------------------------------------------------------------------------
// GPU kernels

__global__ void layernorm_forward_kernel1(float *out, float *mean, float *rstd,
                                          const float *inp, const float *weight,
                                          const float *bias, int N, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    float eps = 1e-5f;
    if (idx < N) {
        // seek to the input position inp[idx,:]
        const float *x = inp + idx * C;
        // calculate the mean
        float m = 0.0f;
        for (int i = 0; i < C; i++) {
            m += x[i];
        }
        m = m / C;
        // calculate the variance (without any bias correction)
        float v = 0.0f;
        for (int i = 0; i < C; i++) {
            float xshift = x[i] - m;
            v += xshift * xshift;
        }
        v = v / C;
        // calculate the rstd
        float s = 1.0f / sqrtf(v + eps);
        // seek to the output position in out[idx,:]
        float *out_idx = out + idx * C;
        for (int i = 0; i < C; i++) {
            float n = (s * (x[i] - m)); // normalized output
            float o = n * weight[i] + bias[i]; // scale and shift it
            out_idx[i] = o; // write
        }
        // cache the mean and rstd for the backward pass later
        mean[idx] = m;
        rstd[idx] = s;
    }
}

__global__ void layernorm_forward_kernel3(float *__restrict__ out, float *__restrict__ mean,
                                          float *__restrict__ rstd,
                                          const float *__restrict__ inp,
                                          const float *__restrict__ weight,
                                          const float *__restrict__ bias, int N, int C)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    // meta_group_size is the number of warps in a block, and meta_group_rank is the warp index
    int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (idx >= N) {
        return;
    }

    // the row of input that this group of threads is responsible for
    const float *x = inp + idx * C;

    // mean
    float sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        sum += x[i];
    }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float m = sum / C;
    if (warp.thread_rank() == 0 && mean != nullptr) {
        __stcs(mean + idx, m);
    }

    // rstd
    sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        float diff = x[i] - m;
        sum += diff * diff;
    }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float s = rsqrtf(sum / C + 1e-5f);
    if (warp.thread_rank() == 0 && rstd != nullptr) {
        __stcs(rstd + idx, s);
    }

    // final normalization and scaling by weight/bias
    float *o = out + idx * C;
    for (int c = warp.thread_rank(); c < C; c += warp.size()) {
        // load and store using the .cs "streaming" hint to the compiler,
        // indicating that this data will not be reused soon, and can be streamed through the caches
        // this allows the threads to get more cache-hits for the (shared) weight and bias parameters
        float n = s * (__ldcs(x + c) - m);
        __stcs(o + c, n * weight[c] + bias[c]);
    }
}

// ----------------------------------------------------------------------------
// kernel launcher

void layernorm_forward3(float *out, float *mean, float *rstd, const float *inp,
                        const float *weight, const float *bias, int B, int T, int C,
                        const int block_size)
{
    assert(block_size % 32 == 0);
    const int N = B * T;
    const int grid_size = ceil_div(N * 32, block_size);
    layernorm_forward_kernel3<<<grid_size, block_size>>>(out, mean, rstd, inp, weight, bias, N, C);
    cudaCheck(cudaGetLastError());
}

int main(int argc, char **argv)
{
    srand(0);
    int B = 8;
    int T = 1024;
    int C = 768;
    int deviceIdx = 0;
    cudaCheck(cudaSetDevice(deviceIdx));
    float *d_out, *d_mean, *d_rstd, *d_inp, *d_weight, *d_bias;
    cudaCheck(cudaMalloc(&d_out, B * T * C * sizeof(float)));
    cudaCheck(cudaMalloc(&d_mean, B * T * sizeof(float)));
    cudaCheck(cudaMalloc(&d_rstd, B * T * sizeof(float)));
    cudaCheck(cudaMalloc(&d_inp, B * T * C * sizeof(float)));
    cudaCheck(cudaMalloc(&d_weight, C * sizeof(float)));
    cudaCheck(cudaMalloc(&d_bias, C * sizeof(float)));
    int block_sizes[] = {32, 64, 128, 256, 512, 1024};
    for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
        layernorm_forward3(d_out, d_mean, d_rstd, d_inp, d_weight, d_bias, B, T, C, block_sizes[j]);
    }
    layernorm_forward_kernel1<<<ceil_div(B * T, 256), 256>>>(d_out, d_mean, d_rstd, d_inp,
                                                             d_weight, d_bias, B * T, C);
    cudaCheck(cudaFree(d_out));
    cudaCheck(cudaFree(d_mean));
    cudaCheck(cudaFree(d_rstd));
    cudaCheck(cudaFree(d_inp));
    cudaCheck(cudaFree(d_weight));
    cudaCheck(cudaFree(d_bias));
    return 0;
}
