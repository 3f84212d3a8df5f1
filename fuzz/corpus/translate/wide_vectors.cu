typedef struct { int s0, s1, s2, s3, s4, s5, s6, s7; } int8;
struct half3 { float x, y, z; };
using bool2 = struct { bool a, b; };
typedef struct { float m[16]; } float4x4;
__device__ int8 mk(int s) { int8 r = {s, s, s, s, s, s, s, s}; return r; }
__global__ void k(int8 *o, float4x4 m, half3 h) { o[threadIdx.x] = mk((int)m.m[0] + (int)h.y); }
