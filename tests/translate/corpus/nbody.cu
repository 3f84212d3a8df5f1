// All-pairs n-body in the style of GPU Gems 3 chapter 31 (and the CUDA samples' nbody): float4
// positions with the mass in w, the acceleration in a float3 value built with make_float3 (held
// in a gp_float4 in the translation: it never lives in memory the host sees).
// expect: translated
#include <cuda_runtime.h>
#define SOFTENING 1e-9f

__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai)
{
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING;
    float distSixth = distSqr * distSqr * distSqr;
    float invDistCube = 1.0f / sqrtf(distSixth);
    float s = bj.w * invDistCube;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

__global__ void calculate_forces(const float4 *devX, float4 *devA, int n)
{
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gtid >= n) return;
    float4 myPosition = devX[gtid];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; j++) acc = bodyBodyInteraction(myPosition, devX[j], acc);
    devA[gtid] = make_float4(acc.x, acc.y, acc.z, 0.0f);
}
