// A stencil whose neighbour index runs one past the end for the last element.
// run: diff --global 64 --group 64 out=zeros:64 in=ones:64 n=64
__global__ void diff(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i + 1] - in[i]; // expect: memcheck
}
