#!/usr/bin/env bash
# test_vector_paths.sh — the audit's vector code on every unit this machine can run:
# tests/audit/vector_check.c built with the library for the host (SSE2/AVX2 on x86-64, NEON on
# arm64, as the build targets them); on Linux also with the Python and C/C++ scanners compiled
# again without the SSE2 code (the one-byte-at-a-time fallback other CPUs get, on x86-64) and
# for AArch64 (the NEON code Apple Silicon and Linux arm64 run) when aarch64-linux-gnu-gcc and
# qemu-aarch64 are installed, under qemu-user. Each build checks its screens against plain loops
# and its shortcuts against the full scan; then all builds scan the rule fixtures and must print
# the same findings. A missing cross toolchain is reported, not a failure.
set -u
src=${GPUPORT_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
a=$src/src/audit
files=("$src/tests/audit/vector_check.c" "$a/scan_python.c" "$a/scan_c.c" "$a/scan_deps.c"
    "$a/lex_python.c" "$a/lex_c.c" "$a/prefilter.c" "$a/rules.c" "$a/source.c" "$a/filetype.c"
    "$a/mps_table.c"
    "$src/src/util/strbuf.c" "$src/src/util/thread_posix.c" "$src/src/util/fs_posix.c" "$src/src/util/sys_posix.c")
# rules.c also writes the rule table as JSON (cJSON), which the check never calls: unreferenced
# sections are dropped at link time, so a cross build needs no cJSON for its target
flags=(-std=c11 -O2 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
    -I"$src/src" -I"$src/include" -pthread -ffunction-sections -fdata-sections -Wl,--gc-sections)
fixtures=()
while IFS= read -r f; do fixtures+=("$f"); done < <(find "$src/tests/audit/fixtures" -type f \
    \( -name '*.py' -o -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cu' \
    -o -name '*.cuh' \) | sort)
[ ${#fixtures[@]} -gt 50 ] || { echo "FAIL: only ${#fixtures[@]} fixture sources found"; exit 1; }
fail=0

run() { # NAME LABEL COMMAND...: the findings go to $tmp/NAME.out; the summary line is shown
    local name=$1 label=$2
    shift 2
    if "$@" "${fixtures[@]}" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        echo "ok   $label: $(tail -1 "$tmp/$name.err")"
    else
        echo "FAIL $label: $(tail -1 "$tmp/$name.err")"
        head -20 "$tmp/$name.out"
        fail=1
    fi
}

same() { # NAME LABEL: the build's findings in the fixtures are the host build's
    if ! cmp -s "$tmp/host.out" "$tmp/$1.out"; then
        echo "FAIL: the $2 finds otherwise than the host build in the fixtures:"
        diff "$tmp/host.out" "$tmp/$1.out" | head -20
        fail=1
    fi
}

host=${GPUPORT_BUILD_DIR:?}/tests/audit_vector_check
[ -x "$host" ] || { echo "FAIL: $host not built"; exit 1; }
run host "host ($(uname -m))" "$host"
[ -s "$tmp/host.out" ] || { echo "FAIL: the host build found nothing in the fixtures"; fail=1; }
if [ "$(uname -s)" != Linux ]; then # the builds below drop unused sections with GNU ld
    echo "     not checked here: the scalar and cross builds (Linux only)"
    exit $fail
fi
if [ "$(uname -m)" = x86_64 ]; then # the one-byte-at-a-time code other CPUs get
    "$cc" "${flags[@]}" -U__SSE2__ "${files[@]}" -o "$tmp/scalar" || { echo "FAIL: scalar build"; exit 1; }
    run scalar "host without SSE2 code" "$tmp/scalar"
    same scalar "build without SSE2 code"
fi

if [ "$(uname -m)" = aarch64 ] || [ "$(uname -m)" = arm64 ]; then
    echo "     this host is AArch64: the host build above ran the NEON code natively"
elif command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
    aarch64-linux-gnu-gcc "${flags[@]}" "${files[@]}" -static -o "$tmp/arm64" ||
        { echo "FAIL: AArch64 build"; exit 1; }
    run arm64 "aarch64 (NEON) under qemu-user" qemu-aarch64 "$tmp/arm64"
    same arm64 "AArch64 build"
else
    echo "     not checked: the NEON code (needs aarch64-linux-gnu-gcc and qemu-aarch64:" \
        "Debian gcc-aarch64-linux-gnu qemu-user)"
fi
exit $fail
