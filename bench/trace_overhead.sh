#!/usr/bin/env bash
# Builds bench/trace_overhead.c against the static libgpuport of a build folder and runs it on
# each device given: 10,000 small launches (256 and 65536 work-items) with the timeline off and on,
# same process. CONTROL_NS=N adds an untraced loop with N ns of host work after each launch.
# Usage: [CONTROL_NS=N] bench/trace_overhead.sh [BUILD_DIR [ROUNDS [LAUNCHES [DEVICE...]]]]
#        (defaults: build, 31, 10000, cpu and opencl when there is one)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -f "$build/libgpuport.a" ] || { echo "trace_overhead.sh: $build/libgpuport.a not found; build first (scripts/build.sh)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$root/include" \
    "$root/bench/trace_overhead.c" "$build/libgpuport.a" \
    $(pkg-config --libs libcjson) -lcrypto -lpthread -ldl -lm -o "$out/trace_overhead"
rounds=${2:-31} launches=${3:-10000}
shift $(( $# < 3 ? $# : 3 )) || true
devices=("$@")
if [ ${#devices[@]} -eq 0 ]; then
    devices=(cpu)
    "$build/gpuport" devices 2>/dev/null | grep -q "opencl:0" && devices+=(opencl)
fi
for d in "${devices[@]}"; do
    for items in 256 65536; do
        "$out/trace_overhead" "$d" "$rounds" "$launches" "$items" "${CONTROL_NS:-0}"
    done
done
