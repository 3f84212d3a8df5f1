__global__ void k(unsigned long long *c, double *d, long long *m, int n) {
  __shared__ unsigned long long s;
  int i = threadIdx.x;
  if (i < n) { atomicAdd(c, 1ull); atomicAdd(d + (i & 1), 0.25); atomicMin(m, (long long)i); }
  atomicCAS(&c[1], 0ull, 2ull); atomicXor(&s, 1ull); atomicExch(d, 1.0);
}
