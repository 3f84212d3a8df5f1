#!/usr/bin/env bash
# Builds bench/runtime_cpu.c (with -O3 -fopenmp for its OpenMP baseline) against the static
# libgpuport of a build folder and runs it: CPU saxpy vs OpenMP, empty-kernel launch latency,
# cold vs cached program build in a new process.
# Usage: bench/runtime_cpu.sh [BUILD_DIR [saxpy|launch|build|all]]   (BUILD_DIR defaults to build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -f "$build/libgpuport.a" ] || { echo "runtime_cpu.sh: $build/libgpuport.a not found; build first (scripts/build.sh)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -std=gnu11 -O3 -fopenmp -I"$root/include" "$root/bench/runtime_cpu.c" "$build/libgpuport.a" \
    $(pkg-config --libs libcjson) -lcrypto -lpthread -ldl -lm -o "$out/runtime_cpu"
"$out/runtime_cpu" "${2:-all}"
