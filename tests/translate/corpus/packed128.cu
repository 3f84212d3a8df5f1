// 128-bit packed vectors in the style of llm.c's Packed128: a class template over the element
// type (bf16 and float) with a static constexpr element count, static member functions that
// make values, a subscript operator returning a reference (and its const twin), and memcpy
// between the payload and an int4 of bits; loads and stores through reinterpret_cast'ed int4
// pointers, with the cache-hint forms.
// expect: translated
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

typedef __nv_bfloat16 floatX;

template <class ElementType> struct alignas(16) Packed128 {
    Packed128() = default;
    __device__ explicit Packed128(int4 bits)
    {
        static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
        memcpy(&payload, &bits, sizeof(bits));
    }
    __device__ static Packed128 constant(ElementType value)
    {
        Packed128 result;
        for (int k = 0; k < size; ++k)
            result.payload[k] = value;
        return result;
    }
    __device__ static Packed128 zeros() { return constant(0); }
    __device__ static Packed128 ones() { return constant(1); }
    __device__ ElementType &operator[](int index) { return payload[index]; }
    __device__ const ElementType &operator[](int index) const { return payload[index]; }
    __device__ int4 get_bits() const
    {
        int4 bits;
        memcpy(&bits, &payload, sizeof(bits));
        return bits;
    }
    static constexpr const int size = sizeof(int4) / sizeof(ElementType);
    ElementType payload[size];
};

typedef Packed128<float> f128;
typedef Packed128<floatX> x128;

template <class ElementType>
__device__ Packed128<ElementType> load128(const ElementType *address)
{
    return Packed128<ElementType>{*reinterpret_cast<const int4 *>(address)};
}
template <class ElementType>
__device__ Packed128<ElementType> load128cs(const ElementType *address)
{
    return Packed128<ElementType>{__ldcs(reinterpret_cast<const int4 *>(address))};
}
template <class ElementType>
__device__ void store128(ElementType *target, Packed128<ElementType> value)
{
    *reinterpret_cast<int4 *>(target) = value.get_bits();
}
template <class ElementType>
__device__ void store128cs(ElementType *target, Packed128<ElementType> value)
{
    __stcs(reinterpret_cast<int4 *>(target), value.get_bits());
}

// out = inp1 + inp2 in bf16, eight elements per thread
__global__ void residual_forward_kernel2(floatX *out, const floatX *inp1, const floatX *inp2,
                                         int N)
{
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (idx < N) {
        x128 packed_out;
        x128 packed_inp1 = load128cs(inp1 + idx);
        x128 packed_inp2 = load128cs(inp2 + idx);
        for (int k = 0; k < packed_inp1.size; ++k)
            packed_out[k] = (floatX)((float)packed_inp1[k] + (float)packed_inp2[k]);
        store128(out + idx, packed_out);
    }
}

// a read-only view through the const subscript, and values made by the static members
__device__ float packed_sum(const x128 &v)
{
    float s = 0.0f;
    for (int k = 0; k < x128::size; ++k)
        s += (float)v[k];
    return s;
}

__global__ void row_sums(float *sums, floatX *ones_out, const floatX *inp, int N)
{
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (idx < N) {
        x128 v = load128(inp + idx);
        sums[idx / x128::size] = packed_sum(v);
        store128cs(ones_out + idx, x128::ones());
    }
}

// float elements, four per thread: zeros() accumulated into
__global__ void scale_add(float *out, const float *inp, float s, int N)
{
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * f128::size;
    if (idx < N) {
        f128 acc = f128::zeros();
        f128 in = load128(inp + idx);
        for (int k = 0; k < f128::size; ++k)
            acc[k] += in[k] * s;
        store128(out + idx, acc);
    }
}

int main()
{
    floatX *o, *a, *b;
    float *f, *g;
    int N = 1 << 12;
    cudaMalloc(&o, N * sizeof(floatX));
    cudaMalloc(&a, N * sizeof(floatX));
    cudaMalloc(&b, N * sizeof(floatX));
    cudaMalloc(&f, N * sizeof(float));
    cudaMalloc(&g, N * sizeof(float));
    residual_forward_kernel2<<<N / 8 / 128, 128>>>(o, a, b, N);
    row_sums<<<N / 8 / 128, 128>>>(f, o, a, N);
    scale_add<<<N / 4 / 128, 128>>>(g, f, 0.5f, N);
    return 0;
}
