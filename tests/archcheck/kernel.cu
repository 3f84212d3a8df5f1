// A tiny kernel that the archcheck tests compile with nvcc for known -gencode sets.
__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
int main() { return 0; }
