// A shared-memory tree reduction with __syncthreads() after the loop instead of in it.
// run: reduce --global 128 --group 64 out=zeros:2 in=ones:128
__global__ void reduce(float *out, const float *in)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride]; // expect: racecheck
    }
    __syncthreads();
    if (t == 0) out[blockIdx.x] = s[0];
}
