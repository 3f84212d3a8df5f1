// A grid rounded up to whole blocks and no guard: the last block reads and writes past n.
// run: scale --global 128 --group 64 y=zeros:100 x=ones:100 a=2.0
__global__ void scale(float *y, const float *x, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i]; // expect: memcheck
}
