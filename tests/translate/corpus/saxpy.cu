// saxpy: the global index, value parameters, __restrict__.
// expect: translated
#include <cuda_runtime.h>

__global__ void saxpy(float *__restrict__ y, const float *__restrict__ x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
