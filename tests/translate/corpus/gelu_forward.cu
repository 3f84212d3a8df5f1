/*
Kernels for the GeLU forward pass, in the style of llm.c's dev/cuda/gelu_forward.cu: the tanh
approximation, with its scaling factor a macro of M_PI.
*/
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

// elementwise ops are nice and ez
__global__ void gelu_forward_kernel1(float *out, const float *inp, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float xi = inp[i];
        float cube = 0.044715f * xi * xi * xi;
        out[i] = 0.5f * xi * (1.0f + tanhf(GELU_SCALING_FACTOR * (xi + cube)));
    }
}

// the backward pass of the same
__global__ void gelu_backward_kernel(float *dinp, const float *inp, const float *dout, const int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float x = inp[i];
        float cube = 0.044715f * x * x * x;
        float tanh_arg = GELU_SCALING_FACTOR * (x + cube);
        float tanh_out = tanhf(tanh_arg);
        float coshf_out = coshf(tanh_arg);
        float sech_out = 1.0f / (coshf_out * coshf_out);
        float local_grad = 0.5f * (1.0f + tanh_out) + x * 0.5f * sech_out * GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
        dinp[i] = local_grad * dout[i];
    }
}

int main(int argc, const char **argv)
{
    int B = 8, T = 1024, C = 768;
    float *d_out, *d_inp;
    cudaMalloc(&d_out, B * T * C * sizeof(float));
    cudaMalloc(&d_inp, B * T * C * sizeof(float));
    const int N = B * T * C;
    const int block_size = 128;
    const int grid_size = (N + block_size - 1) / block_size;
    gelu_forward_kernel1<<<grid_size, block_size>>>(d_out, d_inp, N);
    gelu_backward_kernel<<<grid_size, block_size>>>(d_inp, d_inp, d_out, N);
    cudaDeviceSynchronize();
    return 0;
}
