// constant_sizes: arrays sized by local constants (a coefficient table and a shared tile sized
// from bytes / sizeof(T) in a template), written with their numbers.
// expect: translated
#include <cuda_runtime.h>
#include <stdint.h>

#define TILE_BYTES 1024
#define THREADS 64

// a rational function p(x) / q(x) from one table of coefficients, numerator first
__global__ void rational(float *out, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int num_terms = 4;
    const int den_terms = 3;
    const float coef[num_terms + den_terms] = {1.0f, -0.5f, 0.25f, 0.125f, 1.0f, 0.5f, 0.0625f};
    float p = 0.0f, q = 0.0f;
    for (int j = num_terms - 1; j >= 0; j--)
        p = coef[j] + x[i] * p;
    for (int j = num_terms + den_terms - 1; j >= num_terms; j--)
        q = coef[j] + x[i] * q;
    out[i] = p / q;
}

// each block reverses its tile of TILE_BYTES bytes, and counts the odd values of it
template <typename T>
__global__ void reverse_tiles(T *data, uint32_t *odd)
{
    const uint32_t words = TILE_BYTES / sizeof(T);
    __shared__ T tile[words];
    __shared__ uint32_t count[(words / THREADS)];
    for (uint32_t j = threadIdx.x; j < words; j += THREADS)
        tile[j] = data[blockIdx.x * words + j];
    if (threadIdx.x < words / THREADS) count[threadIdx.x] = 0;
    __syncthreads();
    for (uint32_t j = threadIdx.x; j < words; j += THREADS)
        data[blockIdx.x * words + j] = tile[words - 1 - j];
    if (threadIdx.x < words / THREADS)
        for (uint32_t j = threadIdx.x * THREADS; j < (threadIdx.x + 1) * THREADS; j++)
            count[threadIdx.x] += tile[j] & 1;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t s = 0;
        for (uint32_t j = 0; j < words / THREADS; j++)
            s += count[j];
        odd[blockIdx.x] = s;
    }
}

int main()
{
    float *out, *x;
    uint32_t *data, *odd;
    rational<<<4, 256>>>(out, x, 1000);
    reverse_tiles<uint32_t><<<8, THREADS>>>(data, odd);
    return 0;
}
