/*
Kernels for the AdamW optimizer, in the style of llm.c's dev/cuda/adamw.cu: a lerp helper built
on fma, powf of a float by the integer step count, bias correction.
*/
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

// utility functions
__device__ inline float lerp(float start, float end, float weight)
{
    return fma(weight, end, fma(-weight, start, start));
}

// naive fused kernel
__global__ void adamw_kernel1(float *params_memory, const float *grads_memory, float *m_memory,
                              float *v_memory, long num_parameters, float learning_rate,
                              float beta1, float beta2, float beta1_correction,
                              float beta2_correction, float eps, float weight_decay)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_parameters) return; // guard
    // update the first moment (momentum)
    m_memory[i] = beta1 * m_memory[i] + (1.0f - beta1) * grads_memory[i];
    // update the second moment (RMSprop)
    v_memory[i] = beta2 * v_memory[i] + (1.0f - beta2) * grads_memory[i] * grads_memory[i];
    float m_hat = m_memory[i] / beta1_correction;
    float v_hat = v_memory[i] / beta2_correction;
    params_memory[i] -= learning_rate * (m_hat / (sqrtf(v_hat) + eps) + weight_decay * params_memory[i]);
}

// Slightly more optimized AdamW kernel by:
// 1) Eliminating redundant computations
// 2) Using lerp instead of separate multiplications
__global__ void adamw_kernel2(float *params_memory, const float *grads_memory, float *m_memory,
                              float *v_memory, long num_parameters, float learning_rate,
                              float beta1, float beta2, int t, float eps, float weight_decay)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_parameters) return; // guard
    float grad = grads_memory[i];
    float m = m_memory[i];
    float v = v_memory[i];
    // update the first moment (momentum)
    m = lerp(grad, m, beta1);
    m_memory[i] = m;
    // update the second moment (RMSprop)
    v = lerp(grad * grad, v, beta2);
    v_memory[i] = v;
    m /= 1.0f - powf(beta1, t);
    v /= 1.0f - powf(beta2, t);
    params_memory[i] -= learning_rate * (m / (sqrtf(v) + eps) + weight_decay * params_memory[i]);
}

int main()
{
    const long num_parameters = 1048576;
    const int t = 10;
    const float learning_rate = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.0f;
    float *params, *grads, *m, *v;
    cudaMalloc(&params, num_parameters * sizeof(float));
    cudaMalloc(&grads, num_parameters * sizeof(float));
    cudaMalloc(&m, num_parameters * sizeof(float));
    cudaMalloc(&v, num_parameters * sizeof(float));
    unsigned int block_size = 512;
    unsigned int num_blocks = (num_parameters + block_size - 1) / block_size;
    adamw_kernel2<<<num_blocks, block_size>>>(params, grads, m, v, num_parameters, learning_rate,
                                              beta1, beta2, t, eps, weight_decay);
    cudaDeviceSynchronize();
    return 0;
}
