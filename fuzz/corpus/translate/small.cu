__global__ void k(float *o, int n) {
  extern __shared__ float s[];
  float *p = n ? o : o + 1;
  s[threadIdx.x] = p[0];
  __syncthreads();
  atomicAdd(o, s[0]);
}
