#!/usr/bin/env bash
# test_fiber_switch.sh — the CPU backend's fiber switch on every path this machine can run:
# tests/runtime/cpu/fiber_check.c with src/runtime/cpu/fiber.c built for the host (the assembly
# switch), again with the ucontext fallback forced, and for AArch64 (the switch Apple Silicon and
# Linux arm64 use) when aarch64-linux-gnu-gcc and qemu-aarch64 are installed, run under qemu-user.
# A missing cross toolchain is reported, not a failure; the host builds always run.
set -u
src=${GPUPORT_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
files=("$src/tests/runtime/cpu/fiber_check.c" "$src/src/runtime/cpu/fiber.c" "$src/src/util/thread_posix.c")
flags=(-std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$src/src" -I"$src/include" -pthread)
fail=0

run() { # NAME COMMAND...: runs a built check, which prints the switch it used
    local name=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then
        echo "ok   $name: $(head -1 "$tmp/out")"
    else
        echo "FAIL $name"
        cat "$tmp/out"
        fail=1
    fi
}

"$cc" "${flags[@]}" "${files[@]}" -lm -o "$tmp/host" || { echo "FAIL: host build"; exit 1; }
run "host" "$tmp/host"
"$cc" "${flags[@]}" -DGP_FIBER_FORCE_UCONTEXT "${files[@]}" -lm -o "$tmp/host-uc" ||
    { echo "FAIL: host build (ucontext)"; exit 1; }
run "host, ucontext forced" "$tmp/host-uc"

if [ "$(uname -m)" = aarch64 ] || [ "$(uname -m)" = arm64 ]; then
    echo "     this host is AArch64: the host build above ran its switch natively"
elif command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
    aarch64-linux-gnu-gcc "${flags[@]}" "${files[@]}" -lm -o "$tmp/arm64" ||
        { echo "FAIL: AArch64 build"; exit 1; }
    run "aarch64 under qemu-user" qemu-aarch64 -L /usr/aarch64-linux-gnu "$tmp/arm64"
else
    echo "     not checked: the AArch64 switch (needs aarch64-linux-gnu-gcc and qemu-aarch64:" \
        "Debian gcc-aarch64-linux-gnu qemu-user)"
fi
exit $fail
