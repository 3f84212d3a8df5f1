// A kernel translate refuses (the cycle counter): gpuport run says why and runs nothing.
// run: timed --global 1 --group 1 y=zeros:1
__global__ void timed(long long *y)
{
    y[0] = clock64(); // expect: refused
}
