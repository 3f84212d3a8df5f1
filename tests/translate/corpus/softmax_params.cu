// A fused-classifier style softmax: a device function returns its two parameters as a struct
// built with a typed braced list (`return SoftmaxParams{...}`), kernels keep them with `auto`,
// re-assign them with `p = SoftmaxParams{...}`, and take scalars as `float{x}`; one thread per row.
// A reduction's operands are braced lists passed as arguments: each gets a variable first.
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

// the online softmax's reduction with its operands built in place: `combine(sm, {x, 1.0f})`
struct SumMax {
    float maxval;
    float sum;
};

__device__ SumMax combine(SumMax a, SumMax b)
{
    SumMax r;
    r.maxval = fmaxf(a.maxval, b.maxval);
    r.sum = a.sum * expf(a.maxval - r.maxval) + b.sum * expf(b.maxval - r.maxval);
    return r;
}

__global__ void row_sum_max(const float *logits, float *out, int B, int V)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= B) return;
    SumMax sm = combine({-INFINITY, 0.0f}, {logits[(size_t)b * V], 1.0f});
    for (int i = 1; i < V; i++) sm = combine(sm, {logits[(size_t)b * V + i], 1.0f});
    out[2 * b] = sm.maxval;
    out[2 * b + 1] = sm.sum;
}

int main()
{
    int B = 100, V = 37;
    softmax_rows<<<(B + 63) / 64, 64>>>(nullptr, nullptr, nullptr, nullptr, B, V);
    row_sum_max<<<(B + 63) / 64, 64>>>(nullptr, nullptr, B, V);
    return 0;
}
