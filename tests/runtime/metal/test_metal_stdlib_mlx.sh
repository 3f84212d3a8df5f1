#!/usr/bin/env bash
# test_metal_stdlib_mlx.sh — the stand-in <metal_stdlib> (tests/runtime/metal/standin), which the
# Metal prelude's syntax check compiles against, held to real MSL: the kernel headers of the
# mlx-metal wheel (fetched into the cache of tests/runtime/metal/apple/sdk.py). MLX's atomics must
# compile through it, and what MLX's headers show Apple's library has or lacks (shuffles, votes,
# barriers, atomics, as_type) must be accepted or refused by it likewise
# (tests/runtime/metal/apple/msl.py). Skipped only when PyPI cannot be reached, and not in CI.
set -uo pipefail
src=${GPUPORT_SOURCE_DIR:?}
py=${PYTHON:-python3}
# Python and clang only: the sanitizer build would run the very same check again.
if grep -qs '^GPUPORT_SANITIZE:BOOL=ON' "${GPUPORT_BUILD_DIR:-}/CMakeCache.txt"; then
    echo "SKIP: compiles nothing the sanitizers watch; it runs in the plain build"
    exit 77
fi
command -v clang++ >/dev/null || { echo "FAIL: clang++ is not installed (scripts/install-deps.sh)"; exit 1; }
exec "$py" "$src/tests/runtime/metal/apple/msl.py"
