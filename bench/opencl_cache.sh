#!/usr/bin/env bash
# Times, with hyperfine, a process that builds a 3-kernel program on OpenCL device 0 through
# gpuport's kernel cache: cold (empty cache folder) against warm (the OpenCL binary stored by an
# earlier process), building only and building + running each kernel once. PoCL's own kernel
# cache is switched off (POCL_KERNEL_CACHE=0) so that "cold" really compiles.
# Usage: bench/opencl_cache.sh [BUILD_DIR]   (BUILD_DIR defaults to build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -f "$build/libgpuport.a" ] || { echo "opencl_cache.sh: $build/libgpuport.a not found; build first (scripts/build.sh)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "opencl_cache.sh: hyperfine is not installed" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$root/include" \
    "$root/bench/opencl_cache.c" "$build/libgpuport.a" \
    $(pkg-config --libs libcjson) -lcrypto -lpthread -ldl -lm -o "$out/opencl_cache"
export POCL_KERNEL_CACHE=0
cache=$out/cache
for mode in build launch; do
    arg=; [ "$mode" = launch ] && arg=launch
    "$out/opencl_cache" "$cache" $arg # fill the cache for the warm runs
    # one --prepare per command: the cold one empties the cache, the warm one does nothing
    hyperfine -N --warmup 1 --runs "${GP_BENCH_RUNS:-10}" \
        --prepare "rm -rf $cache" --prepare true \
        --command-name "cold ($mode)" "$out/opencl_cache $cache $arg" \
        --command-name "warm ($mode)" "$out/opencl_cache $cache $arg"
done
