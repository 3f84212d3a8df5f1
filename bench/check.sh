#!/usr/bin/env bash
# Builds bench/check.c against the static libgpuport of a build folder and runs it: each kernel
# (stencil, tiled matmul, reduction) on the CPU backend unchecked, on the CPU backend with every
# check, and on Oclgrind (Debian oclgrind) with its race and uninitialized-value checks, through
# gpuport's OpenCL backend.
# Usage: bench/check.sh [BUILD_DIR [stencil|matmul|reduce|all] [--no-oclgrind]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -f "$build/libgpuport.a" ] || { echo "check.sh: $build/libgpuport.a not found; build first (scripts/build.sh)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -std=gnu11 -O2 -I"$root/include" "$root/bench/check.c" "$build/libgpuport.a" \
    $(pkg-config --libs libcjson) -lcrypto -lpthread -ldl -lm -o "$out/check"
# a cache folder of its own: the figures never include a compiler run, and nothing else is kept
export GPUPORT_CACHE_DIR=$out/cache
"$out/check" "${2:-all}" ${3:+"$3"}
