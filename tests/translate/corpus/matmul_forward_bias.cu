/*
Matmul forward with an optional bias, in the style of llm.c's matmul_forward kernel1 and the
bias kernel that follows a cuBLAS call: the bias pointer may be NULL and is tested before use.
The host passes a NULL bias as gp_arg_null() in the translation.
*/
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void matmul_forward_kernel1(float *out, const float *inp, const float *weight,
                                       const float *bias, int BT, int C, int OC)
{
    // out is (B,T,OC). OC is short for "output channels", e.g. OC = 4 * C
    // inp is (B,T,C), weight is (OC, C), bias is (OC)
    // in the naive kernel, every thread handles one element of out
    int bt = blockIdx.x * blockDim.x + threadIdx.x;
    int oc = blockIdx.y * blockDim.y + threadIdx.y;
    if (bt < BT && oc < OC) {
        float val = (bias != NULL) ? bias[oc] : 0.0f;
        const float *wrow = weight + oc * C;
        const float *inp_bt = inp + bt * C;
        for (int i = 0; i < C; i++) {
            val += inp_bt[i] * wrow[i];
        }
        out[bt * OC + oc] = val;
    }
}

// adds bias to the output of a matmul, used after cuBLAS
__global__ void add_bias(float *out, const float *bias, int B, int T, int OC)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (int i = idx; i < B * T * OC; i += stride) {
        int col = i % OC;
        out[i] += bias[col];
    }
}

int main()
{
    int B = 8, T = 1024, C = 768, OC = 768 * 4;
    float *out, *inp, *weight, *bias;
    cudaMalloc(&out, B * T * OC * sizeof(float));
    cudaMalloc(&inp, B * T * C * sizeof(float));
    cudaMalloc(&weight, OC * C * sizeof(float));
    cudaMalloc(&bias, OC * sizeof(float));
    dim3 gridDim((B * T + 7) / 8, (OC + 7) / 8);
    dim3 blockDim(8, 8);
    matmul_forward_kernel1<<<gridDim, blockDim>>>(out, inp, weight, NULL, B * T, C, OC);
    add_bias<<<(B * T * OC + 255) / 256, 256>>>(out, bias, B, T, OC);
    return 0;
}
