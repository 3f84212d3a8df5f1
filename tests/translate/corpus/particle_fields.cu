// A particle system in the style of SPH and N-body codes: each particle is a struct whose
// position and velocity are float3 fields (CUDA lays them out in 12 bytes each, and the host
// fills the array with that layout), with a uchar3 colour between a float and an int. Fields are
// read as values, whole float3 fields assigned, a component written in place, and a local
// particle brace-initialised from another's fields.
// expect: translated
#include <cuda_runtime.h>

struct Particle {
    float3 pos;
    float3 vel;
    float mass;
    uchar3 color;
    int id;
};

__device__ float speed_of(const Particle *p)
{
    return sqrtf(p->vel.x * p->vel.x + p->vel.y * p->vel.y + p->vel.z * p->vel.z);
}

// one explicit Euler step under gravity g; the colour says how fast the particle goes
__global__ void integrate(Particle *ps, float3 g, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle p = ps[i];
    float3 v = p.vel;
    v.x += g.x * dt;
    v.y += g.y * dt;
    v.z += g.z * dt;
    p.vel = v;
    p.pos = make_float3(p.pos.x + v.x * dt, p.pos.y + v.y * dt, p.pos.z + v.z * dt);
    float s = fminf(speed_of(&p) / 4.0f, 1.0f);
    p.color = make_uchar3((unsigned char)(s * 255.0f), 0, (unsigned char)(p.id % 256));
    ps[i] = p;
    if (ps[i].pos.z < 0.0f) ps[i].pos.z = 0.0f;
}

// each particle's mass-weighted position, through a brace-initialised local copy
__global__ void weighted(const Particle *ps, float3 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle q = {ps[i].pos, make_float3(0.0f, 0.0f, 0.0f), ps[i].mass, ps[i].color, ps[i].id};
    float3 w = q.pos;
    out[i] = make_float3(w.x * q.mass, w.y * q.mass, w.z * q.mass + (float)q.color.z);
}

int main()
{
    const int n = 1000;
    Particle *ps;
    float3 *out;
    cudaMalloc(&ps, n * sizeof(Particle));
    cudaMalloc(&out, n * sizeof(float3));
    integrate<<<(n + 127) / 128, 128>>>(ps, make_float3(0.0f, 0.0f, -9.8f), 0.01f, n);
    weighted<<<(n + 127) / 128, 128>>>(ps, out, n);
    cudaDeviceSynchronize();
    return 0;
}
