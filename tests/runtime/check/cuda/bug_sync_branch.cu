// __syncthreads() inside a branch only some threads of the block take.
// run: upper --global 64 --group 64 y=zeros:64
__global__ void upper(float *y)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 32) {
        __syncthreads(); // expect: synccheck
        y[t] = s[63 - t];
    }
}
