// Correct: the same reduction with a barrier per step, and an atomic total.
// run: reduce --global 128 --group 64 out=zeros:1 in=ones:128
__global__ void reduce(float *out, const float *in)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}
