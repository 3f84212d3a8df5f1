#!/usr/bin/env bash
# test_metal_apple_declarations.sh — the Mac sources (src/runtime/metal, src/bench/*.m, doctor's
# Metal probe) against Apple's own declarations, on Linux: the PyPI packages of
# scripts/deps/apple-declarations.txt (PyObjC's scans of the SDK headers, metal-cpp) are fetched
# into a cache (GPUPORT_APPLE_CACHE, else ~/.cache/gpuport/apple-declarations), then
#   1. the stand-in SDK of tests/runtime/metal/sdk must equal what Apple's declarations generate;
#   2. every message, function, enumerator and @available guard of the sources must pass
#      tests/runtime/metal/apple/check.py (selectors, argument and result types, enum values,
#      availability);
#   3. copies of the sources with deliberate mistakes must each be refused at their line.
# Skipped only when PyPI cannot be reached, and not even then in CI ($CI set): there it fails.
# What this proves and what it cannot: docs/platforms.md.
set -uo pipefail
src=${GPUPORT_SOURCE_DIR:?}
here=$src/tests/runtime/metal/apple
py=${PYTHON:-python3}
if [ "$(uname -s)" = Darwin ]; then
    echo "SKIP: on macOS the build itself compiles these sources against the real SDK"
    exit 77
fi
# Python and clang only: the sanitizer build would run the very same check again.
if grep -qs '^GPUPORT_SANITIZE:BOOL=ON' "${GPUPORT_BUILD_DIR:-}/CMakeCache.txt"; then
    echo "SKIP: compiles nothing the sanitizers watch; it runs in the plain build"
    exit 77
fi
command -v clang >/dev/null || { echo "FAIL: clang is not installed (scripts/install-deps.sh)"; exit 1; }

out=$("$py" "$here/sdk.py" fetch) || { rc=$?; echo "$out"; exit $rc; }
echo "     Apple's declarations: $out"

fail=0
echo "== 1. the stand-in SDK is what Apple's declarations generate"
if "$py" "$here/generate.py" --check; then
    echo "ok   tests/runtime/metal/sdk/*/*.generated.h"
else
    fail=1
fi
echo "== 2. the Mac sources against Apple's declarations"
if "$py" "$here/check.py" --summary; then
    echo "ok   every message, function, enumerator and guard"
else
    fail=1
fi
echo "== 3. deliberate mistakes are refused at their line"
"$py" "$here/mutations.py" || fail=1
exit $fail
