#!/usr/bin/env bash
# test_cuda_bench.sh — bench/cuda_bench.c keeps building against the library and runs: briefly
# (--quick) on a machine with an NVIDIA GPU, where it must succeed; elsewhere it must say that no
# CUDA device is there and exit 77, which skips this test (nothing is measured without a GPU).
set -euo pipefail
src=${GPUPORT_SOURCE_DIR:?}
build=${GPUPORT_BUILD_DIR:?}
[ -f "$build/libgpuport.so" ] || [ -f "$build/libgpuport.dylib" ] || {
    echo "FAIL: no shared libgpuport in $build"
    exit 1
}
flags=()
# A sanitizer build's library needs its runtime in the program too.
grep -q '^GPUPORT_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && flags+=(-fsanitize=address,undefined)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror "${flags[@]}" -I "$src/include" \
    "$src/bench/cuda_bench.c" -o "$work/cuda_bench" -L "$build" -lgpuport \
    -Wl,-rpath,"$build" -ldl
set +e
GPUPORT_CACHE_DIR=$work/cache "$work/cuda_bench" --quick >"$work/out" 2>&1
rc=$?
set -e
cat "$work/out"
if [ $rc -eq 77 ]; then
    grep -q "^SKIP: no usable CUDA device" "$work/out" || { echo "FAIL: exit 77 without the reason"; exit 1; }
    exit 77
fi
[ $rc -eq 0 ] || { echo "FAIL: cuda_bench exited $rc"; exit 1; }
grep -q "^launch+sync" "$work/out" && grep -q "^d2d copy kernel" "$work/out" &&
    grep -q "^pinned copies" "$work/out" || { echo "FAIL: a measurement is missing"; exit 1; }
