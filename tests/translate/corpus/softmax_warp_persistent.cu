// Warp-per-row softmax in the style of PyTorch's persistent softmax and its many copies: the
// row length is a template parameter (its log2), the sizes derived from it are constexpr locals
// (used as array sizes and as template arguments), a shuffle wrapper with a default mask and a
// width (a warp narrower than 32 for short rows), reductions through functor templates passed
// as template template parameters, and a copy specialised by its element count.
// expect: translated
// translate flags: --simd-width 32
#include <cfloat>
#include <cuda_runtime.h>

#define MAX_WARP 32

template <typename T>
__device__ __forceinline__ T WARP_SHFL_XOR(T value, int laneMask, int width = warpSize,
                                           unsigned int mask = 0xffffffff)
{
    return __shfl_xor_sync(mask, value, laneMask, width);
}

template <typename T> struct Add {
    __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};

template <typename T> struct Max {
    __device__ __forceinline__ T operator()(T a, T b) const { return a < b ? b : a; }
};

template <typename acc_t, int WARP_BATCH, int WARP_SIZE, template <typename> class ReduceOp>
__device__ __forceinline__ void warp_reduce(acc_t *sum)
{
    ReduceOp<acc_t> r;
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
#pragma unroll
        for (int i = 0; i < WARP_BATCH; ++i) {
            acc_t b = WARP_SHFL_XOR(sum[i], offset, WARP_SIZE);
            sum[i] = r(sum[i], b);
        }
    }
}

template <typename T, int N> __device__ __inline__ void copy_vector(T *dst, const T *src);

template <> __device__ __inline__ void copy_vector<float, 1>(float *dst, const float *src)
{
    *dst = *src;
}

template <> __device__ __inline__ void copy_vector<float, 4>(float *dst, const float *src)
{
    dst[0] = src[0];
    dst[1] = src[1];
    dst[2] = src[2];
    dst[3] = src[3];
}

// blockDim = (WARP_SIZE, 128 / WARP_SIZE): each row of the block is a warp (or part of one)
template <int log2_elements>
__global__ void softmax_warp_forward(float *dst, const float *src, float scale, int batch_size,
                                     int stride, int element_count)
{
    constexpr int next_power_of_two = 1 << log2_elements;
    constexpr int WARP_SIZE = (next_power_of_two < MAX_WARP) ? next_power_of_two : MAX_WARP;
    constexpr int WARP_ITERATIONS = next_power_of_two / WARP_SIZE;
    constexpr int WARP_BATCH = (next_power_of_two <= 128) ? 2 : 1;
    constexpr int ELEMENTS_PER_LDG = (WARP_ITERATIONS < 4) ? 1 : 4;

    int first_batch = (blockDim.y * blockIdx.x + threadIdx.y) * WARP_BATCH;
    int local_batches = batch_size - first_batch;
    if (local_batches > WARP_BATCH) local_batches = WARP_BATCH;
    int local_idx = threadIdx.x;
    src += first_batch * stride + ELEMENTS_PER_LDG * local_idx;
    dst += first_batch * stride + ELEMENTS_PER_LDG * local_idx;

    float elements[WARP_BATCH][WARP_ITERATIONS];
    float tmp[ELEMENTS_PER_LDG];
    for (int i = 0; i < WARP_BATCH; ++i) {
        int batch_element_count = (i >= local_batches) ? 0 : element_count;
        for (int it = 0; it < WARP_ITERATIONS; it += ELEMENTS_PER_LDG) {
            int element_index = ELEMENTS_PER_LDG * local_idx + it * WARP_SIZE;
            if (element_index < batch_element_count) {
                copy_vector<float, ELEMENTS_PER_LDG>(tmp, src + i * stride + it * WARP_SIZE);
                for (int e = 0; e < ELEMENTS_PER_LDG; ++e)
                    elements[i][it + e] = tmp[e] * scale;
            } else {
                for (int e = 0; e < ELEMENTS_PER_LDG; ++e)
                    elements[i][it + e] = -INFINITY;
            }
        }
    }

    float max_value[WARP_BATCH];
    for (int i = 0; i < WARP_BATCH; ++i) {
        max_value[i] = elements[i][0];
        for (int it = 1; it < WARP_ITERATIONS; ++it)
            max_value[i] = (max_value[i] > elements[i][it]) ? max_value[i] : elements[i][it];
    }
    warp_reduce<float, WARP_BATCH, WARP_SIZE, Max>(max_value);

    float sum[WARP_BATCH] = {0.0f};
    for (int i = 0; i < WARP_BATCH; ++i) {
        sum[i] = 0.0f;
        for (int it = 0; it < WARP_ITERATIONS; ++it) {
            elements[i][it] = expf(elements[i][it] - max_value[i]);
            sum[i] += elements[i][it];
        }
    }
    warp_reduce<float, WARP_BATCH, WARP_SIZE, Add>(sum);

    for (int i = 0; i < WARP_BATCH; ++i) {
        if (i >= local_batches) break;
        for (int it = 0; it < WARP_ITERATIONS; it += ELEMENTS_PER_LDG) {
            int element_index = ELEMENTS_PER_LDG * local_idx + it * WARP_SIZE;
            if (element_index < element_count) {
                for (int e = 0; e < ELEMENTS_PER_LDG; ++e)
                    tmp[e] = elements[i][it + e] / sum[i];
                copy_vector<float, ELEMENTS_PER_LDG>(dst + i * stride + it * WARP_SIZE, tmp);
            }
        }
    }
}

void dispatch_softmax(float *dst, const float *src, float scale, int softmax_elements,
                      int stride, int batch_count)
{
    int log2_elements = 0;
    while ((1 << log2_elements) < softmax_elements) ++log2_elements;
    const int next_power_of_two = 1 << log2_elements;
    int warp_size = (next_power_of_two < MAX_WARP) ? next_power_of_two : MAX_WARP;
    int batches_per_warp = (next_power_of_two <= 128) ? 2 : 1;
    constexpr int threads_per_block = 128;
    int warps_per_block = threads_per_block / warp_size;
    int batches_per_block = warps_per_block * batches_per_warp;
    int blocks = (batch_count + batches_per_block - 1) / batches_per_block;
    dim3 threads(warp_size, warps_per_block, 1);
    switch (log2_elements) {
    case 2:
        softmax_warp_forward<2><<<blocks, threads>>>(dst, src, scale, batch_count, stride,
                                                     softmax_elements);
        break;
    case 5:
        softmax_warp_forward<5><<<blocks, threads>>>(dst, src, scale, batch_count, stride,
                                                     softmax_elements);
        break;
    case 7:
        softmax_warp_forward<7><<<blocks, threads>>>(dst, src, scale, batch_count, stride,
                                                     softmax_elements);
        break;
    default:
        break;
    }
}
