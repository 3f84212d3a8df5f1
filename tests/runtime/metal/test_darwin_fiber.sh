#!/usr/bin/env bash
# test_darwin_fiber.sh — the CPU backend's fiber switch as macOS builds it, checked on Linux (with
# the other checks of the Mac half, in this folder): src/runtime/cpu/fiber.c is compiled by clang
# for arm64-apple-macos and x86_64-apple-macos, without Apple's SDK (the host's C library headers
# stand in; only the switch's assembly and the object's symbols are examined), and the Mach-O
# objects must keep Darwin's two rules: every C symbol is prefixed with `_` (the assembly names
# its functions through GP_ASM_SYM), and on arm64 the platform register x18, which Darwin
# reserves, is never used. Copies with a deliberate x18 write and an unprefixed symbol must fail.
set -uo pipefail
src=${GPUPORT_SOURCE_DIR:?}
if [ "$(uname -s)" = Darwin ]; then
    echo "SKIP: on macOS the CPU backend's own tests build and run this switch natively"
    exit 77
fi
for t in clang llvm-objdump llvm-nm; do
    command -v $t >/dev/null || { echo "FAIL: $t is not installed (scripts/install-deps.sh)"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c11 -O2 -c -Wall -Wextra -Werror '-D__nonnull(p)=' -Wno-macro-redefined -D_GNU_SOURCE
    -I "$src/src" -I "$src/include")
libc_arm=/usr/aarch64-linux-gnu/include
libc_x86=/usr/include/$(clang -print-multiarch 2>/dev/null || true)
[ -d "$libc_arm" ] || { echo "FAIL: $libc_arm is missing (Debian libc6-dev-arm64-cross)"; exit 1; }

# darwin_ok OBJECT ARCH: prints what breaks Darwin's rules; status 1 when anything does.
darwin_ok() {
    local obj=$1 arch=$2 bad=0
    # the switch's own functions are defined, with the prefix
    for sym in _gp_fiber_switch _gp_fiber_boot; do
        if ! llvm-nm --defined-only "$obj" | awk '{print $NF}' | grep -qx "$sym"; then
            echo "     $sym is not defined in the $arch object"
            bad=1
        fi
    done
    # every global symbol, defined or referenced, carries the prefix
    local plain
    plain=$(llvm-nm -g "$obj" | awk '{print $NF}' | grep -v '^_' || true)
    if [ -n "$plain" ]; then
        echo "     symbols without Darwin's _ prefix in the $arch object: $(echo $plain)"
        bad=1
    fi
    if [ "$arch" = arm64 ]; then
        local x18
        x18=$(llvm-objdump -d --no-show-raw-insn "$obj" |
            awk -F'\t' 'NF >= 3 && $3 ~ /(^|[^0-9A-Za-z_])[xw]18([^0-9A-Za-z_]|$)/ { print $1 $2 " " $3 }')
        if [ -n "$x18" ]; then
            echo "     x18 (reserved on Darwin) is used:"
            echo "$x18" | sed 's/^/       /'
            bad=1
        fi
    fi
    return $bad
}

fail=0
build() { # NAME TARGET LIBC SOURCE OBJECT
    clang -target "$2" -isystem "$3" "${flags[@]}" "$4" -o "$5" 2>"$work/log" || {
        echo "FAIL $1: fiber.c does not compile for $2"
        cat "$work/log"
        return 1
    }
}
for arch in arm64 x86_64; do
    libc=$libc_arm
    [ $arch = x86_64 ] && libc=$libc_x86
    obj=$work/fiber-$arch.o
    build "$arch" "$arch-apple-macos11" "$libc" "$src/src/runtime/cpu/fiber.c" "$obj" || { fail=1; continue; }
    if out=$(darwin_ok "$obj" $arch); then
        echo "ok   $arch-apple-macos: _-prefixed symbols$([ $arch = arm64 ] && echo ", x18 unused")"
    else
        echo "FAIL $arch-apple-macos: fiber.c breaks Darwin's rules"
        echo "$out"
        fail=1
    fi
done

# The check must be able to fail: a copy of fiber.c whose assembly writes x18, and one that
# defines a function without the prefix (as GP_ASM_SYM without Darwin's "_" would).
mutant() { # NAME ASSEMBLY
    cp "$src/src/runtime/cpu/fiber.c" "$work/$1.c"
    printf '%s\n' "$2" >>"$work/$1.c"
    build "$1" arm64-apple-macos11 "$libc_arm" "$work/$1.c" "$work/$1.o" || { fail=1; return; }
    if out=$(darwin_ok "$work/$1.o" arm64); then
        echo "FAIL a copy of fiber.c with $1 passed: the check cannot fail"
        fail=1
    else
        echo "ok   a copy of fiber.c with $1 is refused:$(echo "$out" | head -2 | tr -s ' ')"
    fi
}
mutant "an x18 write" '__asm__(".text\n.globl _gp_fiber_x18\n.p2align 2\n_gp_fiber_x18:\n  mov x18, x0\n  ret\n");'
mutant "an unprefixed symbol" 'void gp_fiber_plain(void);
__asm__(".text\n.globl gp_fiber_plain\n.p2align 2\ngp_fiber_plain:\n  ret\n");
void (*gp_fiber_plain_ref)(void);
void (*gp_fiber_plain_ref)(void) = gp_fiber_plain;'
exit $fail
