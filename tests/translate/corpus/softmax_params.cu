// A fused-classifier style softmax: a device function returns its two parameters as a struct
// built with a typed braced list (`return SoftmaxParams{...}`), kernels keep them with `auto`,
// re-assign them with `p = SoftmaxParams{...}`, and take scalars as `float{x}`; one thread per row.
// expect: translated
#include <cuda_runtime.h>

struct SoftmaxParams {
    float Scale;
    float Offset;
};

__device__ SoftmaxParams prepare_softmax(const float *inp, int V)
{
    float maxval = -INFINITY;
    for (int i = 0; i < V; i++) maxval = fmaxf(maxval, inp[i]);
    float sumval = 0.0f;
    for (int i = 0; i < V; i++) sumval += expf(inp[i] - maxval);
    return SoftmaxParams{1.f / sumval, maxval};
}

__global__ void softmax_rows(float *probs, const float *logits, const int *targets, float *losses,
                             int B, int V)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= B) return;
    const float *row = logits + (size_t)b * V;
    auto sp = prepare_softmax(row, V);
    SoftmaxParams unit{1.0f, 0.0f};
    if (V == 1) sp = SoftmaxParams{unit.Scale, row[0]};
    int ix = targets[b];
    float prob = expf(row[ix] - sp.Offset) * sp.Scale;
    losses[b] = -logf(prob) + float{0};
    for (int i = 0; i < V; i++) probs[(size_t)b * V + i] = expf(row[i] - sp.Offset) * sp.Scale;
}

int main()
{
    int B = 100, V = 37;
    softmax_rows<<<(B + 63) / 64, 64>>>(nullptr, nullptr, nullptr, nullptr, B, V);
    return 0;
}
