/*
Kernels for the cross-entropy loss and the fused softmax-crossentropy backward, in the style of
llm.c: integer targets index the probabilities, logf of them.
*/
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void crossentropy_forward_kernel1(float *losses, const float *probs, const int *targets,
                                             int B, int T, int V)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * T) {
        int b = i / T;
        int t = i % T;
        const float *probs_bt = probs + b * T * V + t * V;
        int ix = targets[b * T + t];
        losses[b * T + t] = -logf(probs_bt[ix]);
    }
}

__global__ void crossentropy_softmax_backward_kernel1(float *dlogits, const float *dlosses,
                                                      const float *probs, const int *targets,
                                                      int B, int T, int V)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * T * V) {
        int b = i / (T * V);
        int t = (i / V) % T;
        int v = i % V;
        float *dlogits_bt = dlogits + b * T * V + t * V;
        const float *probs_bt = probs + b * T * V + t * V;
        float dloss = dlosses[b * T + t];
        int ix = targets[b * T + t];
        float p = probs_bt[v];
        float indicator = v == ix ? 1.0f : 0.0f;
        dlogits_bt[v] += (p - indicator) * dloss;
    }
}

int main()
{
    int B = 8, T = 1024, V = 50257;
    float *losses, *probs;
    int *targets;
    cudaMalloc(&losses, B * T * sizeof(float));
    cudaMalloc(&probs, (size_t)B * T * V * sizeof(float));
    cudaMalloc(&targets, B * T * sizeof(int));
    crossentropy_forward_kernel1<<<(B * T + 127) / 128, 128>>>(losses, probs, targets, B, T, V);
    return 0;
}
