#!/usr/bin/env bash
# test_metal_backend_syntax.sh — on Linux, the Objective-C of the Metal backend (src/runtime/
# metal/*.m) must pass `clang -fsyntax-only` for a macOS target, without ARC, with the project's
# warnings as errors, against the stand-in Foundation/Metal declarations of tests/runtime/metal/
# sdk; a file with a deliberate mistake must be refused. On macOS the real build compiles the
# backend against the real SDK instead. What this proves and what it cannot: docs/platforms.md.
set -euo pipefail
src=${GPUPORT_SOURCE_DIR:?}
if [ "$(uname -s)" = Darwin ]; then
    echo "SKIP: on macOS the build itself compiles the Metal backend against the real SDK"
    exit 77
fi
cc=${GPUPORT_METAL_CHECK_CC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "SKIP: $cc is not installed; the Metal backend syntax check needs clang"
    exit 77
fi
# The target is macOS (for @available and Darwin's Objective-C); the C library headers are the
# host's, so its multiarch folder is added and glibc's __nonnull macro kept from Darwin's keyword.
arch_inc=/usr/include/$("$cc" -print-multiarch 2>/dev/null || true)
flags=(-target x86_64-apple-macos12 -x objective-c -fsyntax-only -fblocks
    -isystem "$arch_inc" '-D__nonnull(p)=' -Wno-macro-redefined
    -I "$src/tests/runtime/metal/sdk" -I "$src/include" -I "$src/src"
    -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -D_DARWIN_C_SOURCE
    -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter -Werror)
shopt -s nullglob
files=("$src"/src/runtime/metal/*.m)
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no Objective-C files in src/runtime/metal"; exit 1; }
fail=0
# Twice: with the macOS 15 SDK's math-mode API and without it (older SDKs).
for sdk in "-D__MAC_15_0=150000" "-U__MAC_15_0"; do
    for f in "${files[@]}"; do
        if out=$("$cc" "${flags[@]}" "$sdk" "$f" 2>&1); then
            echo "ok   $(basename "$f") ($sdk)"
        else
            echo "FAIL $(basename "$f") ($sdk)"
            echo "$out"
            fail=1
        fi
    done
done
bad=$src/tests/runtime/metal/bad/wrong_selector.m
if out=$("$cc" "${flags[@]}" "$bad" 2>&1); then
    echo "FAIL bad/wrong_selector.m was accepted: the check cannot fail"
    fail=1
elif grep -q "contentz" <<<"$out"; then
    echo "ok   bad/wrong_selector.m refused"
else
    echo "FAIL bad/wrong_selector.m refused for another reason:"
    echo "$out"
    fail=1
fi
exit $fail
