// The online softmax of flash-attention style kernels: a device function that updates the
// running maximum and sum through C++ references, called with locals; one thread per row.
// expect: translated
#include <cfloat>
#include <cuda_runtime.h>

__device__ __forceinline__ void online_update(float &m, float &d, float x)
{
    float m_new = fmaxf(m, x);
    d = d * expf(m - m_new) + expf(x - m_new);
    m = m_new;
}

__device__ float row_max(const float *row, int n)
{
    float m = -FLT_MAX;
    for (int i = 0; i < n; i++) m = fmaxf(m, row[i]);
    return m;
}

__global__ void softmax_online(float *out, const float *inp, int N, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= N) return;
    const float *row = inp + (size_t)r * C;
    float m = -INFINITY, d = 0.0f;
    for (int i = 0; i < C; i++) online_update(m, d, row[i]);
    float check = row_max(row, C);
    for (int i = 0; i < C; i++) out[(size_t)r * C + i] = expf(row[i] - m) / d + (check - m);
}

int main()
{
    float *o, *in;
    cudaMalloc(&o, 1024 * 256 * sizeof(float));
    cudaMalloc(&in, 1024 * 256 * sizeof(float));
    softmax_online<<<8, 128>>>(o, in, 1024, 256);
    return 0;
}
