#!/usr/bin/env bash
# Translation speed on a 5,000-line .cu file: 200 copies of a 25-line kernel set (a helper called
# with two address spaces, shared memory, atomics, math), translated in one run of
# `gpuport translate --no-verify` (the translation alone); then, timed apart, one run that also
# builds the output for every target it names (CPU C compiler, OpenCL, the Metal stand-in where
# there is one), from an empty program cache, once. Usage: bench/translate_speed.sh [BUILD_DIR]
# (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$build/bench-data
mkdir -p "$work"
f=$work/translate-5000.cu
: > "$f"
for i in $(seq 1 200); do
cat >> "$f" <<CU
/* kernel set $i */

__device__ float scale$i(const float *p, int i, float s)
{
    return p[i] * s;
}

__global__ void kernel$i(float *out, const float *in, int n, float a)
{
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? scale$i(in, i, a) : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(out, tile[0] + scale$i(tile, 0, 1.0f));
        out[blockIdx.x + 1] = expf(tile[0]) + rsqrtf(fmaxf(tile[1], 1.0f));
    }
    float acc = 0.0f;
    for (int k = 0; k < 4; k++) acc += sqrtf(fabsf(in[k]));
    out[0] = acc;
}
CU
done
echo "$(wc -l < "$f") lines in $f"
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
hyperfine --warmup 3 --runs 20 --export-markdown "$work/translate-speed.md" \
    "$build/gpuport translate --no-verify --force $f -o $work/translate-5000.gpk"
cat "$work/translate-speed.md"
echo "translation with the build check, empty program cache (the summary times each target):"
rm -rf "$work/translate-cache"
TIMEFORMAT='wall %R s, CPU %U s user + %S s system (this process and the compilers it ran)'
time (GPUPORT_CACHE_DIR=$work/translate-cache "$build/gpuport" translate --force "$f" \
    -o "$work/translate-5000.gpk" 2>&1 | grep -v '^  kernel')
