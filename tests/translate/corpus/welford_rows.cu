// Row statistics with class templates, in the style of PyTorch-derived benchmarks: a Welford
// accumulator templated on its value type (constructor, member functions), a fixed-size shape
// passed by value (`TensorDims<index_t>`), an alias of an instance and a nested argument list
// closed by '>>'. Each instance becomes a plain struct named after its arguments.
// expect: translated
#include <cstdint>

#define MAX_DIMS 4

template <typename T, typename C = int>
struct WelfordData {
    T mean;
    T m2;
    C n;
    __device__ WelfordData() : mean(0), m2(0), n(0) {}
    __device__ WelfordData(T m, T v, C c) : mean(m), m2(v), n(c) {}
    __device__ void push(T x)
    {
        n += 1;
        T d = x - mean;
        mean += d / (T)n;
        m2 += d * (x - mean);
    }
    __device__ T var() const { return n > 1 ? m2 / (T)(n - 1) : (T)0; }
};

template <typename index_t>
struct TensorDims {
    index_t sizes[MAX_DIMS];
};

template <typename T, int N>
struct Window {
    T v[N];
    __device__ T last() const { return v[N - 1]; }
};

template <typename T>
struct Boxed {
    T value;
};

using WelfordF = WelfordData<float>;

template <typename T>
__global__ void row_moments(const T *x, T *mean, T *var, T *tail, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    WelfordData<T> w;
    Window<T, 2> win = Window<T, 2>{};
    for (int c = 0; c < cols; c++) {
        w.push(x[r * cols + c]);
        win.v[c % 2] = x[r * cols + c];
    }
    mean[r] = w.mean;
    var[r] = w.var();
    tail[r] = win.last();
}

template <typename index_t>
__global__ void unravel(int64_t *coords, TensorDims<index_t> dims, int ndim, index_t n)
{
    index_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    index_t rest = i;
    for (int d = ndim - 1; d >= 0; d--) {
        coords[i * ndim + d] = rest % dims.sizes[d];
        rest /= dims.sizes[d];
    }
}

__global__ void merge_pairs(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    WelfordF x(a[i], 0.0f, 1);
    Boxed<Window<int, 1>> box{}; // nested arguments closed by '>>'
    box.value.v[0] = i % 3;
    x.push(b[i]);
    out[i] = x.mean + x.var() + (float)box.value.last();
}

int main()
{
    int rows = 300, cols = 17;
    row_moments<float><<<(rows + 127) / 128, 128>>>(nullptr, nullptr, nullptr, nullptr, rows, cols);
    TensorDims<int> dims;
    unravel<int><<<(60 + 63) / 64, 64>>>(nullptr, dims, 3, 60);
    merge_pairs<<<(1000 + 255) / 256, 256>>>(nullptr, nullptr, nullptr, 1000);
    return 0;
}
