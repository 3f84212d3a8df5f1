#include <cstring>
template <typename T> struct Add { __device__ T operator()(T a, T b) const { return a + b; } };
template <class E> struct alignas(sizeof(E) * 4) V {
  __device__ static V filled(E x) { V r; for (int k = 0; k < size; ++k) r.d[k] = x; return r; }
  __device__ E &operator[](int i) { return d[i]; }
  __device__ const E &operator[](int i) const { return d[i]; }
  __device__ int4 bits() const { int4 b; memcpy(&b, &d, sizeof(b)); return b; }
  static constexpr int size = sizeof(int4) / sizeof(E);
  E d[size];
};
template <typename T>
__device__ T shfl(T v, int m, int width = warpSize, unsigned mask = 0xffffffff) {
  return __shfl_xor_sync(mask, v, m, width);
}
template <typename T, int W, template <typename> class Op>
__device__ T reduce(T v) { Op<T> op; for (int o = W / 2; o > 0; o /= 2) v = op(v, shfl(v, o, W)); return v; }
template <int L> __global__ void k(float *o, int4 *w) {
  constexpr int P = 1 << L;
  constexpr int E = (P < 4) ? 1 : 4;
  float t[E];
  V<float> a = V<float>::filled(o[threadIdx.x]);
  for (int i = 0; i < a.size; i++) a[i] += reduce<float, P, Add>(a[i]);
  t[E - 1] = a[0];
  o[threadIdx.x] = t[E - 1];
  w[threadIdx.x] = a.bits();
  if (__syncthreads_or(t[0] > 1.0f)) o[0] = __syncthreads_count(threadIdx.x & 1);
}
void h(float *o, int4 *w) { k<2><<<1, 32>>>(o, w); k<4><<<1, 32>>>(o, w); }
