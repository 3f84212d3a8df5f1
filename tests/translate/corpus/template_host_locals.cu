// Kernel templates instantiated the ways benchmark mains instantiate them: a pooling kernel with
// nine template parameters (a functor class template, a type, kernel sizes, strides and a bool)
// whose arguments are constants local to main (`const int ksize = 3;`, `const bool exclusive`),
// and a host template called with types main names through its own aliases (`using data_t =
// float;`, `typedef int index_t;`) that launches the kernels.
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

template <class T>
class SumPool {
  public:
    __host__ __device__ inline void add(const T &x, T *acc) { *acc += x; }
    __host__ __device__ inline T finish(T acc, int count) { return acc / (T)count; }
};

template <class T>
class MaxPool {
  public:
    __host__ __device__ inline void add(const T &x, T *acc) { *acc = x > *acc ? x : *acc; }
    __host__ __device__ inline T finish(T acc, int) { return acc; }
};

template <typename Pool, typename T, int KH, int KW, int SH, int SW, int PH, int PW,
          bool exclusive>
__global__ void pool2d(const T *__restrict__ in, T *__restrict__ out, int h, int w, int oh,
                       int ow, Pool pool, T init)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= oh * ow) return;
    int oy = i / ow, ox = i % ow;
    int y0 = oy * SH - PH, x0 = ox * SW - PW;
    T acc = init;
    int count = 0;
    for (int y = y0; y < y0 + KH; y++)
        for (int x = x0; x < x0 + KW; x++) {
            if (y < 0 || y >= h || x < 0 || x >= w) continue;
            pool.add(in[y * w + x], &acc);
            count++;
        }
    out[i] = pool.finish(acc, exclusive ? count : KH * KW);
}

template <typename T, typename I>
__global__ void gather(T *out, const T *in, const I *idx, I n)
{
    I i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}

template <typename T, typename I>
void run_gather(T *out, const T *in, const I *idx, I n)
{
    gather<T, I><<<(n + 127) / 128, 128>>>(out, in, idx, n);
}

int main()
{
    const int h = 40, w = 30;
    const int ksize = 3;
    const int stride = 2;
    const int pad = 1;
    const bool exclusive = true;
    const int oh = (h + 2 * pad - ksize) / stride + 1, ow = (w + 2 * pad - ksize) / stride + 1;
    float *in, *out;
    cudaMalloc((void **)&in, h * w * sizeof(float));
    cudaMalloc((void **)&out, oh * ow * sizeof(float));
    SumPool<float> avg;
    MaxPool<float> mx;
    pool2d<SumPool<float>, float, ksize, ksize, stride, stride, pad, pad, exclusive>
        <<<(oh * ow + 127) / 128, 128>>>(in, out, h, w, oh, ow, avg, 0.0f);
    pool2d<MaxPool<float>, float, ksize, ksize, stride, stride, pad, pad, false>
        <<<(oh * ow + 127) / 128, 128>>>(in, out, h, w, oh, ow, mx, -1e30f);
    {
        using data_t = float;
        typedef int index_t;
        data_t *d_out;
        index_t *d_idx;
        cudaMalloc((void **)&d_out, 100 * sizeof(data_t));
        cudaMalloc((void **)&d_idx, 100 * sizeof(index_t));
        run_gather<data_t, index_t>(d_out, in, d_idx, 100);
    }
    {
        using data_t = double; /* another block's alias of the same name */
        data_t *a, *b;
        long *idx;
        run_gather<data_t, long>(a, b, idx, 100L);
    }
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
