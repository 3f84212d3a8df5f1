// refused: one of each construct the translation refuses, with the lines the test expects.
// expect kernel warp: refused warp shuffle 11
// expect kernel ptx: refused inline PTX 16
// expect kernel wide: refused 64-bit atomic 22
// expect kernel textures: refused cudaTextureObject_t 26
// expect kernel cycles: refused clock 34
#include <cooperative_groups.h>

__global__ void warp(float *o)
{
    o[0] = __shfl_down_sync(0xffffffffu, o[0], 1);
}

__global__ void ptx(int *o)
{
    asm("mov.u32 %0, 7;" : "=r"(o[0]));
}

__global__ void wide(unsigned long long *o)
{
    __shared__ unsigned long long count;
    atomicAdd(&count, 1ull);
    o[0] = count;
}

__global__ void textures(float *o, cudaTextureObject_t t)
{
    o[0] = 1.0f;
}

__global__ void cycles(long long *o)
{
    long long start = clock64();
    o[0] = clock64() - start;
}
