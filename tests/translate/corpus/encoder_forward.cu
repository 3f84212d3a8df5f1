/*
Kernels for the positional encoder forward pass in GPT-2, in the style of llm.c's
dev/cuda/encoder_forward.cu: token and position embeddings added, one thread per (b,t,c).
*/
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

template <class T>
__host__ __device__ T ceil_div(T dividend, T divisor)
{
    return (dividend + divisor - 1) / divisor;
}

// naive implementation into kernel, parallelize over B,T, loop over C
__global__ void encoder_forward_kernel1(float *out, const int *inp, const float *wte,
                                        const float *wpe, int B, int T, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int N = B * T;
    if (idx < N) {
        int b = idx / T;
        int t = idx % T;
        float *out_bt = out + b * T * C + t * C;
        int ix = inp[b * T + t];
        const float *wte_ix = wte + ix * C;
        const float *wpe_t = wpe + t * C;
        for (int i = 0; i < C; i++) {
            out_bt[i] = wte_ix[i] + wpe_t[i];
        }
    }
}

// optimized implementation: parallelize over all of B,T,C
__global__ void encoder_forward_kernel2(float *out, const int *inp, const float *wte,
                                        const float *wpe, int B, int T, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int N = B * T * C;
    if (idx < N) {
        int bt = idx / C;
        int b = bt / T;
        int t = bt % T;
        int c = idx % C;
        int ix = inp[b * T + t];
        float *out_btc = out + b * T * C + t * C + c;
        const float *wte_ix = wte + ix * C + c;
        const float *wpe_tc = wpe + t * C + c;
        *out_btc = *wte_ix + *wpe_tc;
    }
}

int main(int argc, char **argv)
{
    int B = 8, T = 1024, C = 768, V = 50257;
    float *d_out, *d_wte, *d_wpe;
    int *d_inp;
    cudaMalloc(&d_out, B * T * C * sizeof(float));
    cudaMalloc(&d_inp, B * T * sizeof(int));
    cudaMalloc(&d_wte, V * C * sizeof(float));
    cudaMalloc(&d_wpe, T * C * sizeof(float));
    const int N = B * T * C, block_size = 256;
    const int grid_size = ceil_div(N, block_size);
    encoder_forward_kernel2<<<grid_size, block_size>>>(d_out, d_inp, d_wte, d_wpe, B, T, C);
    encoder_forward_kernel1<<<ceil_div(B * T, block_size), block_size>>>(d_out, d_inp, d_wte, d_wpe, B, T, C);
    cudaDeviceSynchronize();
    return 0;
}
