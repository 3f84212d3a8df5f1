#!/usr/bin/env bash
# Translation speed on a 5,000-line .cu file: 200 copies of a 25-line kernel set (a helper called
# with two address spaces, shared memory, atomics, math), translated in one run of
# `gpuport translate --no-verify` (the translation alone); then, timed apart, one run that also
# builds the output for every target it names (CPU C compiler, OpenCL, the Metal stand-in where
# there is one), from an empty program cache, once. A second file includes a 5,000-line header of
# host templates (as a single-header library is), timed the same way. Usage: bench/translate_speed.sh [BUILD_DIR]
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

# A 5,000-line header of host code in the style of a single-header image library: 277 function
# templates in a namespace, each calling the two before it, and a kernel template launched from a
# host template. The translator reads the project headers a file includes, looking for the
# launches of its kernel templates through the host templates that make them.
h=$work/host-templates.h
g=$work/translate-host-5000.cu
{
    echo "namespace img {"
    for i in $(seq 1 277); do
        a=$(( i > 1 ? i - 1 : 1 )); b=$(( i > 2 ? i - 2 : 1 ))
        cat <<CU
template <typename T, typename U> T *op$i(T *data, int w, int h, const U value, int times)
{
    /* step $i: arithmetic on every pixel, then the two steps before it */
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            T v = data[y * w + x];
            v = (T)(v * value + (T)$i);
            if (v < (T)0) v = (T)0;
            data[y * w + x] = v;
        }
    }
    if (times > 0) {
        op$a(data, w, h, value, times - 1);
        op$b(data, w, h, value, times - 2);
    }
    return data;
}

CU
    done
    echo "} // namespace img"
} > "$h"
cat > "$g" <<'CU'
#include "host-templates.h"

template <typename T> __global__ void scale(T *p, T s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= s;
}

template <typename T> void run(T *d, T s, int n)
{
    scale<<<(n + 255) / 256, 256>>>(d, s, n);
}

int main()
{
    float *d = 0;
    img::op277(d, 64, 64, 2.0f, 3);
    run(d, 2.0f, 1024);
    return 0;
}
CU
echo "$(cat "$h" "$g" | wc -l) lines in $g and the header it includes"
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
hyperfine --warmup 3 --runs 20 --export-markdown "$work/translate-speed.md" \
    "$build/gpuport translate --no-verify --force $f -o $work/translate-5000.gpk" \
    "$build/gpuport translate --no-verify --force $g -o $work/translate-host-5000.gpk"
cat "$work/translate-speed.md"
echo "translation with the build check, empty program cache (the summary times each target):"
rm -rf "$work/translate-cache"
TIMEFORMAT='wall %R s, CPU %U s user + %S s system (this process and the compilers it ran)'
time (GPUPORT_CACHE_DIR=$work/translate-cache "$build/gpuport" translate --force "$f" \
    -o "$work/translate-5000.gpk" 2>&1 | grep -v '^  kernel')
