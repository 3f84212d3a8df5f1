// Arithmetic on CUDA's vector types through operator overloads, as a helper_math.h-style header
// defines them: a damped particle step on float3 (held in float4 buffers), a colour blend on
// uchar4 pixels and an int2 offset, with compound assignments and a scalar of another type.
// expect: translated
#include <stdio.h>

inline __host__ __device__ float3 operator+(float3 a, float3 b)
{
    return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
inline __host__ __device__ float3 operator-(float3 a, float3 b)
{
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}
inline __host__ __device__ float3 operator-(float3 a)
{
    return make_float3(-a.x, -a.y, -a.z);
}
inline __host__ __device__ float3 operator*(float3 a, float s)
{
    return make_float3(a.x * s, a.y * s, a.z * s);
}
inline __host__ __device__ float3 operator*(float s, float3 a)
{
    return make_float3(a.x * s, a.y * s, a.z * s);
}
inline __host__ __device__ void operator+=(float3 &a, float3 b)
{
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
}
inline __host__ __device__ float3 &operator*=(float3 &a, float s)
{
    a.x *= s;
    a.y *= s;
    a.z *= s;
    return a;
}
inline __host__ __device__ float dot(float3 a, float3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline __host__ __device__ int2 operator+(int2 a, int2 b)
{
    return make_int2(a.x + b.x, a.y + b.y);
}
inline __device__ uchar4 operator^(uchar4 a, uchar4 b)
{
    return make_uchar4(a.x ^ b.x, a.y ^ b.y, a.z ^ b.z, a.w ^ b.w);
}
inline __device__ uchar4 operator*(uchar4 a, float s)
{
    return make_uchar4((unsigned char)(a.x * s), (unsigned char)(a.y * s),
                       (unsigned char)(a.z * s), a.w);
}

__global__ void integrate(float4 *pos, float4 *vel, const float4 *force, float dt, float damping,
                          int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float3 p = make_float3(pos[i].x, pos[i].y, pos[i].z);
    float3 v = make_float3(vel[i].x, vel[i].y, vel[i].z);
    float3 f = make_float3(force[i].x, force[i].y, force[i].z);
    v += f * dt;
    v *= damping;
    float3 spring = -(p - make_float3(0.0f, 1.0f, 0.0f));
    v += 0.5f * spring * dt;
    p += v * 2 * dt;
    pos[i] = make_float4(p.x, p.y, p.z, dot(v, v));
    vel[i] = make_float4(v.x, v.y, v.z, 0.0f);
}

__global__ void blend(const uchar4 *src, uchar4 *dst, const int2 *where, int2 shift, uchar4 key,
                      int2 *moved, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    dst[i] = (src[i] ^ key) * 0.75f;
    moved[i] = where[i] + shift;
}

int main()
{
    const int n = 1000;
    float4 *pos, *vel, *force;
    cudaMalloc(&pos, n * sizeof(float4));
    cudaMalloc(&vel, n * sizeof(float4));
    cudaMalloc(&force, n * sizeof(float4));
    integrate<<<(n + 127) / 128, 128>>>(pos, vel, force, 0.01f, 0.99f, n);
    uchar4 *src, *dst;
    int2 *where, *moved;
    cudaMalloc(&src, n * sizeof(uchar4));
    cudaMalloc(&dst, n * sizeof(uchar4));
    cudaMalloc(&where, n * sizeof(int2));
    cudaMalloc(&moved, n * sizeof(int2));
    blend<<<(n + 127) / 128, 128>>>(src, dst, where, make_int2(3, -2), make_uchar4(1, 2, 4, 8),
                                    moved, n);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
