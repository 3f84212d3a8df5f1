// Point-cloud kernels in the style of graphics and robotics codes: points and colours are kept
// in arrays of float3 and uchar3, which CUDA stores in 12 and 3 bytes (the host fills them with
// the same layout), an axis comes by value as a float3, a helper takes a pointer into the
// array, single components are written in place, and a local float3 is brace-initialised.
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

__device__ float3 cross3(float3 a, float3 b)
{
    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

__device__ float height_of(const float3 *p)
{
    return p->z;
}

// each point moved by the cross product of the axis with it, then lifted by `lift`
__global__ void swirl(const float3 *in, float3 *out, float3 axis, float lift, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float3 p = in[i];
    float3 c = cross3(axis, p);
    float3 q = {p.x + c.x, p.y + c.y, p.z + c.z};
    out[i] = q;
    out[i].z = q.z + lift;
}

// a colour per point from its height, and a count of bright points per channel
__global__ void colorize(const float3 *pts, uchar3 *rgb, int n, float top)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float h = height_of(pts + i) / top;
    h = fminf(fmaxf(h, 0.0f), 1.0f);
    unsigned char v = (unsigned char)(h * 255.0f);
    rgb[i] = make_uchar3(v, 255 - v, 64);
    if (i % 2 == 0) rgb[i].z = 128;
}

int main()
{
    const int n = 1000;
    float3 *in, *out;
    uchar3 *rgb;
    cudaMalloc(&in, n * sizeof(float3));
    cudaMalloc(&out, n * sizeof(float3));
    cudaMalloc(&rgb, n * sizeof(uchar3));
    swirl<<<(n + 127) / 128, 128>>>(in, out, make_float3(0.0f, 0.0f, 1.0f), 0.5f, n);
    colorize<<<(n + 127) / 128, 128>>>(out, rgb, n, 4.0f);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
