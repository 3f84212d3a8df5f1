#!/usr/bin/env bash
# Builds bench/opencl_launch.c against the static libgpuport of a build folder and runs it:
# launch + synchronize of an empty kernel through gpuport vs OpenCL directly, same process.
# Usage: bench/opencl_launch.sh [BUILD_DIR [ROUNDS [LAUNCHES]]]   (BUILD_DIR defaults to build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -f "$build/libgpuport.a" ] || { echo "opencl_launch.sh: $build/libgpuport.a not found; build first (scripts/build.sh)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$root/include" -I"$root/src" \
    "$root/bench/opencl_launch.c" "$build/libgpuport.a" \
    $(pkg-config --libs libcjson) -lcrypto -lpthread -ldl -lm -o "$out/opencl_launch"
"$out/opencl_launch" "${2:-30}" "${3:-2000}"
