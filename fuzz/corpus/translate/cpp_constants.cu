#include <cstdint>
#include <limits>
template <typename T> __device__ T pick(T a, T b) { return a > b ? a : b; }
template <> __device__ float pick<float>(float a, float b) { return fmaxf(a, b); }
template <typename T, int N> __global__ void k(T *o, intptr_t off)
{
    T m = std::numeric_limits<T>::lowest();
    if (std::is_same_v<T, float>) m = pick(m, o[off]);
    if (std::is_same<T, std::int32_t>::value) o[1] = std::numeric_limits<int>::max() / N;
    o[0] = m;
}
int main() { float *f; int *i; k<float, 4><<<1, 1>>>(f, 0); k<int, 2><<<1, 1>>>(i, 0); }
