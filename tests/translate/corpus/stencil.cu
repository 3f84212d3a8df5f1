// stencil: __constant__ coefficients, local pointers into global and constant memory, math
// functions, a value parameter the body changes, max on ints.
// expect: translated
__constant__ float weights[3] = {0.25f, 0.5f, 0.25f};

__global__ void stencil(float *out, const float *in, int n, float gain)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *w = weights;
    const float *row = in + max(i - 1, 0);
    int last = n - 1;
    n = min(i + 1, last);
    float acc = w[0] * row[0] + w[1] * in[i] + w[2] * in[n];
    gain = fmaxf(gain, 0.0f);
    out[i] = fmaf(acc, gain, __expf(-fabsf(acc))) * rsqrtf(1.0f + acc * acc);
}
