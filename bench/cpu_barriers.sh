#!/usr/bin/env bash
# Builds bench/cpu_barriers.c against the static libgpuport of a build folder and runs it: kernels
# with barriers on the CPU backend (work-group loops and fibers) side by side with the OpenCL
# device (PoCL on a machine without a GPU), same source and inputs, outputs compared.
# Usage: bench/cpu_barriers.sh [BUILD_DIR [REPS]]   (BUILD_DIR defaults to build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -f "$build/libgpuport.a" ] || { echo "cpu_barriers.sh: $build/libgpuport.a not found; build first (scripts/build.sh)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -std=gnu11 -O2 -I"$root/include" "$root/bench/cpu_barriers.c" "$build/libgpuport.a" \
    $(pkg-config --libs libcjson) -lcrypto -lpthread -ldl -lm -o "$out/cpu_barriers"
"$out/cpu_barriers" "${2:-7}"
