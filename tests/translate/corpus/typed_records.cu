// Particle statistics written the way simulation codes name their types: a `using` alias for the
// precision, OpenCL-style `uint`, a typedef'd enum chosen by the host and passed by value, an
// enum class with an 8-bit underlying type, a 16-byte aligned record of three floats (CUDA pads
// it to 16 bytes, and the host's array has that stride), and an 8-byte aligned pair reduced in
// a helper, with a typedef local to the kernel.
// expect: translated
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

using real = float;

typedef enum { NORM_L1 = 0, NORM_L2 = 1, NORM_MAX = 2 } norm_t;

enum class Phase : unsigned char { Gas = 1, Liquid = 4, Solid };

struct __align__(16) Particle {
    real x, y, z;
};

struct __align__(8) MinMax {
    real lo;
    real hi;
};

__device__ inline MinMax widen(MinMax m, real v)
{
    m.lo = fminf(m.lo, v);
    m.hi = fmaxf(m.hi, v);
    return m;
}

__device__ real norm_of(Particle p, norm_t mode)
{
    switch (mode) {
    case NORM_L1:
        return fabsf(p.x) + fabsf(p.y) + fabsf(p.z);
    case NORM_L2:
        return sqrtf(p.x * p.x + p.y * p.y + p.z * p.z);
    default:
        return fmaxf(fabsf(p.x), fmaxf(fabsf(p.y), fabsf(p.z)));
    }
}

__global__ void particle_stats(const Particle *__restrict__ parts, const Phase *phase,
                               real *norms, MinMax *range, uint n, norm_t mode)
{
    typedef unsigned int index_t;
    index_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle p = parts[i];
    real v = norm_of(p, mode);
    if (phase[i] == Phase::Solid)
        v *= 2.0f;
    else if (phase[i] == Phase::Liquid)
        v += (real)Phase::Gas;
    norms[i] = v;
    MinMax m = {p.x, p.x};
    m = widen(m, p.y);
    m = widen(m, p.z);
    range[i] = m;
}

int main()
{
    const uint n = 1000;
    std::vector<Particle> h(n);
    std::vector<Phase> ph(n);
    for (uint i = 0; i < n; i++) {
        h[i] = Particle{i * 0.5f - 200.0f, 3.0f - i * 0.25f, (i % 7) * 1.5f};
        ph[i] = i % 3 == 0 ? Phase::Gas : i % 3 == 1 ? Phase::Liquid : Phase::Solid;
    }
    Particle *d_parts;
    Phase *d_phase;
    real *d_norms;
    MinMax *d_range;
    cudaMalloc(&d_parts, n * sizeof(Particle));
    cudaMalloc(&d_phase, n * sizeof(Phase));
    cudaMalloc(&d_norms, n * sizeof(real));
    cudaMalloc(&d_range, n * sizeof(MinMax));
    cudaMemcpy(d_parts, h.data(), n * sizeof(Particle), cudaMemcpyHostToDevice);
    cudaMemcpy(d_phase, ph.data(), n * sizeof(Phase), cudaMemcpyHostToDevice);
    particle_stats<<<(n + 127) / 128, 128>>>(d_parts, d_phase, d_norms, d_range, n, NORM_L2);
    std::vector<real> norms(n);
    cudaMemcpy(norms.data(), d_norms, n * sizeof(real), cudaMemcpyDeviceToHost);
    printf("%f\n", norms[0]);
    cudaFree(d_parts);
    cudaFree(d_phase);
    cudaFree(d_norms);
    cudaFree(d_range);
    return 0;
}
