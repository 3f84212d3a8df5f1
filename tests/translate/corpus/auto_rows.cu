// Row-wise scaling written with `auto` the way recent CUDA code writes it: pointers to a row
// (their constness kept), a 64-bit index, and literals whose C++ type is not int.
// expect: translated
#include <cstdint>
#include <cuda_runtime.h>

__device__ float row_scale(int row) { return 1.0f + 0.5f * row; }

__global__ void scale_rows(const float *in, float *out, unsigned int *bits, long long *wide,
                           int rows, int cols)
{
    auto row = blockIdx.x;
    auto src = in + row * cols;     // const float *
    auto dst = &out[row * cols];    // float *
    auto s = row_scale(row);
    for (auto c = threadIdx.x; c < cols; c += blockDim.x) dst[c] = src[c] * s;
    if (threadIdx.x == 0) {
        auto mask = 0xffffffff;     // unsigned int: the shift below is a logical one
        auto big = 3000000000;      // long: no overflow below
        auto idx = static_cast<size_t>(row) * cols + cols - 1;
        bits[row] = (mask >> (row % 8)) ^ (unsigned int)idx;
        wide[row] = big / 3 + row - (long long)idx;
    }
}

int main()
{
    const int rows = 64, cols = 100;
    float *in, *out;
    unsigned int *bits;
    long long *wide;
    cudaMalloc(&in, rows * cols * sizeof(float));
    cudaMalloc(&out, rows * cols * sizeof(float));
    cudaMalloc(&bits, rows * sizeof(unsigned int));
    cudaMalloc(&wide, rows * sizeof(long long));
    scale_rows<<<rows, 32>>>(in, out, bits, wide, rows, cols);
    cudaDeviceSynchronize();
    cudaFree(in), cudaFree(out), cudaFree(bits), cudaFree(wide);
    return 0;
}
