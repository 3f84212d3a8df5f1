// Structs with constructors and member functions in device code, as C++ CUDA code writes them:
// a constructor with a member initialiser list written out of the fields' order, a default
// constructor that zeroes, const and non-const member functions, `this`, calls of one member
// from another, a host-only operator device code never uses, and the direct and list
// initialisation of plain variables, and braced lists returned and assigned.
// expect: translated
#include <cuda_runtime.h>

struct Cell {
    __host__ __device__ Cell(int col, int row) : row(row), col(col) {}
    int col;
    int row;
    __device__ int index(int width) const { return row * width + col; }
};

struct Stats {
    float sum;
    float lo;
    int count;
    __device__ Stats() : sum(0.0f), lo(1e30f), count(0) {}
    __device__ void push(float v)
    {
        sum += v;
        if (v < lo) lo = v;
        count++;
    }
    __device__ void absorb(const Stats &o)
    {
        for (int i = 0; i < o.count; i++) this->push(o.lo);
    }
    __device__ float mean() const { return count ? sum / count : 0.0f; }
    bool operator==(const Stats &o) const { return sum == o.sum && count == o.count; }
};

__device__ Cell neighbour(Cell c, int width) { return Cell((c.col + 1) % width, c.row); }

struct Span {
    int lo;
    int hi;
};

__device__ Span span_of(int col, int width) { return {col, (col + 2) % width}; }

__global__ void window_stats(const float *in, float *mean, float *low, int width, int height)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width * height) return;
    int w{width};         // list-initialised
    const float half(0.5f); // direct-initialised
    Cell c(i % w, i / w);
    Stats s{};
    Cell n = c;
    for (int k = 0; k < 3; k++) {
        s.push(in[n.index(width)]);
        n = neighbour(n, width);
    }
    Stats extra;
    Cell first = {0, c.row};
    extra.push(in[first.index(w)] * half);
    s.absorb(extra);
    mean[c.index(width)] = s.mean();
    Span sp;
    sp = {0, 0};
    if (c.col >= 0) sp = span_of(c.col, w);
    low[i] = s.lo + s.count + sp.hi;
}

int main()
{
    const int width = 37, height = 11;
    float *in, *mean, *low;
    cudaMalloc(&in, width * height * sizeof(float));
    cudaMalloc(&mean, width * height * sizeof(float));
    cudaMalloc(&low, width * height * sizeof(float));
    window_stats<<<(width * height + 63) / 64, 64>>>(in, mean, low, width, height);
    cudaDeviceSynchronize();
    cudaFree(in), cudaFree(mean), cudaFree(low);
    return 0;
}
