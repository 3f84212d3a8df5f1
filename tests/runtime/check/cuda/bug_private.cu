// A private accumulator that only some threads set before it is read.
// run: pick --global 64 --group 64 out=zeros:64 in=ones:64
__global__ void pick(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v;
    if (i % 2 == 0) v = in[i];
    out[i] = v; // expect: initcheck
}
