// A tile loaded into shared memory and read by other threads with no __syncthreads() between.
// run: shift --global 64 --group 32 out=zeros:64 in=ones:64
__global__ void shift(float *out, const float *in)
{
    __shared__ float tile[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tile[t] = in[i]; // expect: racecheck
    out[i] = tile[(t + 1) % 32]; // expect: racecheck initcheck
}
