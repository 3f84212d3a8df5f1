#!/usr/bin/env bash
# test_metal_backend_syntax.sh — on Linux, the Objective-C of the Mac sources (the Metal backend
# src/runtime/metal/*.m, the MPS benchmark src/bench/*.m, doctor's Metal probe src/doctor/*.m)
# must pass `clang -fsyntax-only` for macOS on arm64 and x86_64, without ARC, with the project's
# warnings as errors and -Wunguarded-availability for the oldest macOS supported, against the
# stand-in SDK of tests/runtime/metal/sdk, generated from Apple's declarations (so it runs
# offline; test_metal_apple_declarations.sh checks it is still what Apple's declarations give).
# Again for the newest macOS (deprecations are errors unless the source says why) and for an SDK
# older than macOS 15's math-mode API. A file with a deliberate mistake must be refused. On macOS
# the real build compiles these files against the real SDK instead. See docs/platforms.md.
set -euo pipefail
src=${GPUPORT_SOURCE_DIR:?}
if [ "$(uname -s)" = Darwin ]; then
    echo "SKIP: on macOS the build itself compiles the Mac sources against the real SDK"
    exit 77
fi
cc=${GPUPORT_METAL_CHECK_CC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "SKIP: $cc is not installed; the Metal backend syntax check needs clang"
    exit 77
fi
# The oldest macOS the Mac sources support (MIN_MACOS of tests/runtime/metal/apple/check.py).
min=$(sed -n 's/^MIN_MACOS = "\([0-9.]*\)".*/\1/p' "$src/tests/runtime/metal/apple/check.py")
# The newest: the SDK the stand-in was generated from.
newest=$(sed -n 's/.*of the macOS \([0-9.]*\) SDK headers.*/\1/p' \
    "$src/tests/runtime/metal/sdk/Metal/Metal.generated.h")
# The target is macOS (for @available and Darwin's Objective-C); the C library headers are the
# host's (Darwin's are in none of the packages the stand-in comes from), so the multiarch folder
# of each architecture is added and glibc's __nonnull macro kept from Darwin's keyword.
libc_x86=/usr/include/$("$cc" -print-multiarch 2>/dev/null || true)
libc_arm=/usr/aarch64-linux-gnu/include
flags=(-x objective-c -fsyntax-only -fblocks '-D__nonnull(p)=' -Wno-macro-redefined
    -I "$src/tests/runtime/metal/sdk" -I "$src/include" -I "$src/src"
    -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -D_DARWIN_C_SOURCE
    -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
    -Wunguarded-availability -Werror)
shopt -s nullglob
files=("$src"/src/runtime/metal/*.m "$src"/src/bench/*.m "$src"/src/doctor/*.m)
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no Objective-C files in src/"; exit 1; }
fail=0
compile() { # NAME ARGS...: one configuration of every file
    local name=$1 f out
    shift
    for f in "${files[@]}"; do
        if out=$("$cc" "${flags[@]}" "$@" "$f" 2>&1); then
            echo "ok   ${f#"$src"/} ($name)"
        else
            echo "FAIL ${f#"$src"/} ($name)"
            echo "$out"
            fail=1
        fi
    done
}
compile "arm64, macOS $min" -target "arm64-apple-macos$min" -isystem "$libc_arm" -D__MAC_15_0=150000
compile "x86_64, macOS $min" -target "x86_64-apple-macos$min" -isystem "$libc_x86" -D__MAC_15_0=150000
compile "arm64, macOS $newest" -target "arm64-apple-macos$newest" -isystem "$libc_arm" -D__MAC_15_0=150000
compile "arm64, SDK before macOS 15" -target "arm64-apple-macos$min" -isystem "$libc_arm" -U__MAC_15_0
bad=$src/tests/runtime/metal/bad/wrong_selector.m
if out=$("$cc" "${flags[@]}" -target "arm64-apple-macos$min" -isystem "$libc_arm" "$bad" 2>&1); then
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
