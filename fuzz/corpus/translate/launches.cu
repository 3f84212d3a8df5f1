#define BLOCK 256
__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template <typename T, int BS> __global__ void scale(T *y, T a) { y[blockIdx.x * BS + threadIdx.x] *= a; }
__global__ void tr(float *o, const float *in, int w) {
  extern __shared__ float t[];
  t[threadIdx.y * 16 + threadIdx.x] = in[(blockIdx.y * 16 + threadIdx.y) * w + blockIdx.x * 16 + threadIdx.x];
  __syncthreads();
  o[(blockIdx.y * 16 + threadIdx.y) * w + blockIdx.x * 16 + threadIdx.x] = t[threadIdx.x * 16 + threadIdx.y];
}
int main() {
  const int n = 1 << 20;
  float *d_x, *d_y;
  cudaMalloc(&d_x, n * sizeof(float));
  size_t bytes = n * sizeof(float);
  cudaMalloc((void **)&d_y, bytes);
  saxpy<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_y, d_x, 2.0f, n);
  scale<float, 128><<<n / 128, 128>>>(d_y, 3.0f);
  dim3 grid(64, 64), threads(16, 16);
  tr<<<grid, threads, 16 * 16 * sizeof(float)>>>(d_y, d_x, 1024);
}
