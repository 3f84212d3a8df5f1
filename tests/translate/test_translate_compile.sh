#!/usr/bin/env bash
# Every corpus file is real CUDA, and every translation compiles for each target: the original
# .cu with nvcc to PTX (the refused files too: a refusal must be of valid code), the translation
# through the dialect's CUDA prelude with nvcc to PTX (the same kernels: every translated kernel is
# an entry point of the original, template instances included), through the OpenCL C 1.2 prelude
# with clang's OpenCL front end (not for SIMD-group operations, which OpenCL does not have) and
# through the CPU prelude with the C compiler. A file's "// translate flags:" line gives its
# options ("// legacy CUDA: why" marks CUDA the toolkit no longer compiles: only its translation
# is compiled); files with refused kernels are translated with --partial (the refused ones are left
# out as comments). The CUDA samples' host helpers are stand-ins in samples_include/. Running the
# translations is test_translate_run.c and test_translate_corpus_run.c.
set -u
src=$GPUPORT_SOURCE_DIR
corpus=$src/tests/translate/corpus
kernel_h=$src/include/gpuport/kernel.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
clang=$(command -v clang || true)
[ -n "$nvcc" ] || echo "SKIP: nvcc not found, the CUDA compile checks do not run"
[ -n "$clang" ] || echo "SKIP: clang not found, the OpenCL C syntax checks do not run"
# the entry points of a PTX file, demangled to their names (reduce0<float>(...) is reduce0)
entries() {
    grep -o '\.entry [A-Za-z0-9_]*' "$1" | sed 's/.entry //' | c++filt |
        sed 's/[(<].*//; s/^void //' | sort -u
}
# one corpus file: prints its lines, exits 1 on a failure; "checked" marks a compiled translation
check() {
    cu=$1 name=$(basename "$1" .cu) fail=0
    flags=$(sed -n 's|^// translate flags: *||p' "$cu")
    grep -q '^// expect kernel ' "$cu" && flags="$flags --partial"
    nvcc_flags=$(sed -n 's|^// nvcc flags: *||p' "$cu")
    # CUDA this toolkit no longer compiles (texture references, gone in CUDA 12): the translation
    # is still compiled, without the comparison of entry points
    legacy=$(sed -n 's|^// legacy CUDA: *||p' "$cu")
    [ -n "$legacy" ] && echo "     $name: the original is not compiled ($legacy)"
    if [ -n "$nvcc" ] && [ -z "$legacy" ]; then
        # shellcheck disable=SC2086
        "$nvcc" -arch=sm_75 -ptx $nvcc_flags -I "$src/tests/translate/samples_include" "$cu" \
            -o "$tmp/$name.orig.ptx" 2>"$tmp/$name.cerr" ||
            { echo "FAIL $name: the original is not valid CUDA"; cat "$tmp/$name.cerr"; return 1; }
    fi
    if grep -q '^// expect: refused' "$cu"; then
        echo "ok   $name (refused; the original is valid CUDA)"
        return 0
    fi
    # shellcheck disable=SC2086
    "$GPUPORT" translate $flags --no-verify "$cu" -o "$tmp/$name.gpk" 2>"$tmp/$name.err"
    rc=$?
    if [ ! -s "$tmp/$name.gpk" ] || { [ "$rc" != 0 ] && ! grep -q -- --partial <<<"$flags"; }; then
        echo "FAIL $name: not translated (exit $rc)"; cat "$tmp/$name.err"; return 1
    fi
    { echo "#include \"$kernel_h\""; echo "#line 1 \"$name.gpk\""; cat "$tmp/$name.gpk"; } > "$tmp/$name.prelude"
    if ! grep -q '^GP_KERNEL(' "$tmp/$name.gpk"; then
        echo "ok   $name (every kernel refused; the original is valid CUDA)"
        return 0
    fi
    # (#pragma unroll is CUDA's and OpenCL's; C compilers ignore it)
    cc -std=c11 -fsyntax-only -Wall -Werror -Wno-unused-function -Wno-unused-variable \
        -Wno-unused-but-set-variable -Wno-unknown-pragmas -x c "$tmp/$name.prelude" 2>"$tmp/$name.cerr" ||
        { echo "FAIL $name: the CPU prelude"; cat "$tmp/$name.cerr"; fail=1; }
    touch "$tmp/$name.checked"
    if grep -q '^GP_REQUIRES_SIMD_WIDTH' "$tmp/$name.gpk"; then
        echo "     $name: SIMD-group operations, no OpenCL C check (OpenCL has none)"
    elif [ -n "$clang" ]; then
        "$clang" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only "$tmp/$name.prelude" 2>"$tmp/$name.cerr" ||
            { echo "FAIL $name: the OpenCL C prelude"; cat "$tmp/$name.cerr"; fail=1; }
    fi
    if [ -n "$nvcc" ]; then
        cp "$tmp/$name.prelude" "$tmp/$name.cu"
        "$nvcc" -arch=sm_75 -ptx "$tmp/$name.cu" -o "$tmp/$name.tr.ptx" 2>"$tmp/$name.cerr" ||
            { echo "FAIL $name: the translation does not compile as CUDA"; cat "$tmp/$name.cerr"; return 1; }
        [ -n "$legacy" ] && { [ "$fail" = 0 ] && echo "ok   $name"; return $fail; }
        a=" $(entries "$tmp/$name.orig.ptx" | tr '\n' ' ')"
        b=$(grep -o '\.entry [A-Za-z0-9_]*' "$tmp/$name.tr.ptx" | sed 's/.entry //' | sort)
        for k in $b; do
            found=0
            for o in $a; do
                # k is o, or an instance of template o (o_float_256)
                case "$k" in "$o" | "${o}_"*) found=1 ;; esac
            done
            [ "$found" = 1 ] || { echo "FAIL $name: kernel $k is not in the original ($a)"; fail=1; }
        done
        [ -n "$b" ] || { echo "FAIL $name: no kernel in the translation's PTX"; fail=1; }
    fi
    [ "$fail" = 0 ] && echo "ok   $name"
    return $fail
}
# the files run in parallel, one per processor; each one's lines are printed together
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
for cu in "$corpus"/*.cu; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    name=$(basename "$cu" .cu)
    (check "$cu" >"$tmp/$name.log" 2>&1 || touch "$tmp/$name.failed") &
done
wait
for cu in "$corpus"/*.cu; do cat "$tmp/$(basename "$cu" .cu).log"; done
ls "$tmp"/*.checked >/dev/null 2>&1 || { echo "FAIL: no corpus file was checked"; exit 1; }
! ls "$tmp"/*.failed >/dev/null 2>&1
