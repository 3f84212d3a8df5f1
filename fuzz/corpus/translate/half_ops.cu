#include <cuda_fp16.h>
__global__ void k(__half *o, const __half *w, int *f) {
  int i = threadIdx.x; __half a = o[i] * w[i] + -w[0]; o[i] /= a; o[i++] += a; o[0] -= 1.0f;
  f[0] = a != w[1] && a <= w[2];
}
