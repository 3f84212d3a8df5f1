#define FULL 0xffffffff
__device__ float s(float v) { for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(FULL, v, o); return v; }
__global__ void k(float *y, unsigned *b) {
  int i = threadIdx.x;
  y[i] = s(y[i]) + __shfl_xor_sync(~0u, y[i], 1, 32);
  b[i] = __ballot_sync(-1, y[i] > 0) + __any_sync(FULL, i) + __all_sync(0xffff, i);
}
