#!/usr/bin/env bash
# Builds bench/stream_triad.c (-O3 -march=native -fopenmp) against a build folder's static
# libraries (the tools' bench code and libgpuport) and runs it: the CPU backend's dialect triad of
# `gpuport bench` beside a STREAM-style OpenMP triad, same arrays, same run.
# Usage: bench/stream_triad.sh [BUILD_DIR [ROUNDS]]   (BUILD_DIR defaults to build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -f "$build/libgpuport_tools.a" ] || { echo "stream_triad.sh: $build/libgpuport_tools.a not found; build first (scripts/build.sh)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -std=gnu11 -O3 -march=native -fopenmp -D_GNU_SOURCE -I"$root/include" -I"$root/src" \
    "$root/bench/stream_triad.c" "$build/libgpuport_tools.a" "$build/libgpuport.a" \
    $(pkg-config --libs libcjson) -lcrypto -lpthread -ldl -lm -o "$out/stream_triad"
"$out/stream_triad" "${2:-3}"
