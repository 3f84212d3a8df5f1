// Shuffles within segments of the warp, as reductions over short rows write them: the width is
// a template constant below 32, and the offset a run-time value that can reach past a segment
// (down and up keep their own value there, xor reads earlier segments but not later ones, an
// indexed shuffle wraps within its segment).
// expect: translated
// translate flags: --simd-width 32
#include <cuda_runtime.h>

template <int WIDTH>
__global__ void segment_shuffles(const int *in, int *out, int d)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    int down = __shfl_down_sync(0xffffffff, v, d, WIDTH);
    int up = __shfl_up_sync(0xffffffff, v, d, WIDTH);
    int x = __shfl_xor_sync(0xffffffff, v, d, WIDTH);
    int idx = __shfl_sync(0xffffffff, v, d + threadIdx.x, WIDTH);
    out[4 * t + 0] = down;
    out[4 * t + 1] = up;
    out[4 * t + 2] = x;
    out[4 * t + 3] = idx;
}

// a row of 16 values per segment, summed by a butterfly of the segment's width (the mask a
// macro with a short name, as some code spells it)
#define mask 0xFFFFFFFF
__global__ void segment_sums(const float *in, float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[t];
    for (int o = 8; o > 0; o >>= 1)
        v += __shfl_xor_sync(mask, v, o, 16);
    if ((threadIdx.x & 15) == 0) out[t / 16] = v;
}

int main()
{
    int *in, *out;
    float *f, *s;
    cudaMalloc(&in, 256 * sizeof(int));
    cudaMalloc(&out, 4 * 256 * sizeof(int));
    cudaMalloc(&f, 256 * sizeof(float));
    cudaMalloc(&s, 16 * sizeof(float));
    segment_shuffles<8><<<2, 128>>>(in, out, 3);
    segment_shuffles<16><<<2, 128>>>(in, out, 3);
    segment_sums<<<2, 128>>>(f, s);
    return 0;
}
