#!/usr/bin/env bash
# test_metal_syntax.sh — the Linux-side check of the Metal prelude: every conformance kernel,
# (and every built-in kernel), behind include/gpuport/kernel.h, must pass `clang++ -std=c++14 -fsyntax-only` against the
# stand-in <metal_stdlib> of tests/runtime/metal/standin, for Metal 3 (native float atomics) and
# Metal 2.4 (the compare-exchange fallback). Kernels under bad/ must fail, at the line marked
# "expect:", which proves the check can fail. What it proves and what it cannot: docs/platforms.md.
set -euo pipefail
src=${GPUPORT_SOURCE_DIR:?}
cxx=${GPUPORT_METAL_CHECK_CXX:-clang++}
if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "SKIP: $cxx is not installed; the Metal prelude syntax check needs clang++"
    exit 77
fi
here=$src/tests/runtime/metal
prelude=$src/include/gpuport/kernel.h
[ -f "$prelude" ] || { echo "FAIL: $prelude is missing"; exit 1; }
shopt -s nullglob
kernels=("$src"/tests/runtime/kernels/*.gpk "$src"/src/runtime/kernels/*.gpk)
if [ ${#kernels[@]} -eq 0 ]; then
    echo "FAIL: no kernels in tests/runtime/kernels or src/runtime/kernels"
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The macros a kernel needs from its build options (tests/runtime/cuda/kernel_defines.txt).
defines_of() {
    awk -v f="$(basename "$1")" '$1 == f { $1 = ""; print }' "$src/tests/runtime/cuda/kernel_defines.txt"
}

# A kernel that stores vector values into device buffers carries the line
# "metal-standin: vector-stores". The stand-in's vectors are classes and C++14 cannot assign a
# class object that lies in another address space (MSL's built-in vectors can), so for such a
# kernel exactly that error is accepted: every error is "no viable overloaded '='" and each comes
# with the note that the 'this' object is in address space 1. Any other error still fails.
only_vector_stores() {
    grep -q "metal-standin: vector-stores" "$1" || return 1
    awk '/ error: /   { errors++; if ($0 !~ /no viable overloaded .=./) other++ }
         /note: candidate function not viable: .this. object is in address space .1./ { notes++ }
         END { exit !(errors > 0 && other == 0 && notes >= errors) }' "$2"
}

# check FILE VERSION: 0 when it compiles; the compiler's messages in $work/log.
check() {
    local file=$1 version=$2 ii=$work/unit.ii
    # shellcheck disable=SC2046
    "$cxx" -E -std=c++14 -x c++ -nostdinc -nostdinc++ -isystem "$here/standin" \
        -DGP_STANDIN_KEEP_THREADGROUP -D__METAL_VERSION__="$version" $(defines_of "$file") \
        -include "$prelude" "$file" >"$ii" 2>"$work/log" || return 1
    # [[threadgroup(0)]] is an attribute in MSL; the stand-in's empty `threadgroup` would eat it.
    sed 's/\[\[threadgroup(/[[gp_standin_threadgroup(/g' "$ii" >"$ii.renamed"
    "$cxx" -fsyntax-only -std=c++14 -x c++ -nostdinc -nostdinc++ -Dthreadgroup= \
        -Wno-unknown-attributes "$ii.renamed" >"$work/log" 2>&1
}

fail=0
for k in "${kernels[@]}"; do
    # MSL has no double: the runtime refuses a GP_REQUIRES_FP64 program on Metal before compiling
    if grep -q "^GP_REQUIRES_FP64" "$k"; then
        echo "--   metal $(basename "$k"): GP_REQUIRES_FP64, which the runtime refuses on Metal"
        continue
    fi
    if grep -q "^GP_REQUIRES_ATOMIC64" "$k"; then
        echo "--   metal $(basename "$k"): GP_REQUIRES_ATOMIC64, which the runtime refuses on Metal"
        continue
    fi
    for v in 300 240; do
        if check "$k" "$v"; then
            echo "ok   metal $v $(basename "$k")"
        elif only_vector_stores "$k" "$work/log"; then
            echo "ok   metal $v $(basename "$k") (stores of vectors into device buffers not modelled)"
        else
            echo "FAIL metal $v $(basename "$k")"
            cat "$work/log"
            fail=1
        fi
    done
done

for k in "$here"/bad/*.gpk; do
    line=$(grep -n "expect:" "$k" | head -1 | cut -d: -f1)
    name=$(basename "$k")
    if check "$k" 300; then
        echo "FAIL bad/$name compiled, but it must be refused"
        fail=1
    elif grep -Eq "$name:$line:[0-9]+: (error|note)" "$work/log"; then
        echo "ok   bad/$name refused at line $line"
    else
        echo "FAIL bad/$name refused, but not at line $line:"
        cat "$work/log"
        fail=1
    fi
done
exit $fail
