template <typename T, typename S> __global__ void axpy(int n, T *o, S a) { o[threadIdx.x] = (T)(a * n); }
template <int B, typename P> __global__ void k(P *o) { o[0] = B; }
template <typename T> void eval(int n) { T *d; axpy<<<1, 32>>>(n, d, 0x10u); axpy<<<1, 32>>>(n, d, -1.5); }
int main() { eval<float>(4); double *p; k<64><<<1, 64>>>(p); }
