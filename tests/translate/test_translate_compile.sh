#!/usr/bin/env bash
# Every accepted corpus kernel compiles as CUDA before and after translation: the original .cu with
# nvcc to PTX (proving the corpus is real CUDA), the translation through the dialect's CUDA prelude
# with nvcc to PTX (same kernels, same entry points), through the OpenCL C 1.2 prelude with clang's
# OpenCL front end (not for translations with SIMD-group operations, which OpenCL does not have),
# and through the CPU prelude with the C compiler. A corpus file's "// translate flags:" line gives
# the options it is translated with. Running the translations is test_translate_run.c. Parts whose
# compiler is missing are skipped, and say so.
set -u
src=$GPUPORT_SOURCE_DIR
corpus=$src/tests/translate/corpus
kernel_h=$src/include/gpuport/kernel.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; } || true)
clang=$(command -v clang || true)
fail=0 ran=0
[ -n "$nvcc" ] || echo "SKIP: nvcc not found, the CUDA compile checks do not run"
[ -n "$clang" ] || echo "SKIP: clang not found, the OpenCL C syntax checks do not run"
for cu in "$corpus"/*.cu; do
    name=$(basename "$cu" .cu)
    [ "$name" = refused ] && continue
    flags=$(sed -n 's|^// translate flags: *||p' "$cu")
    # shellcheck disable=SC2086
    if ! "$GPUPORT" translate $flags "$cu" -o "$tmp/$name.gpk" 2>"$tmp/$name.err"; then
        echo "FAIL $name: not translated"; cat "$tmp/$name.err"; fail=1; continue
    fi
    { echo "#include \"$kernel_h\""; echo "#line 1 \"$name.gpk\""; cat "$tmp/$name.gpk"; } > "$tmp/$name.prelude"
    cc -std=c11 -fsyntax-only -Wall -Werror -Wno-unused-function -x c "$tmp/$name.prelude" 2>"$tmp/err" ||
        { echo "FAIL $name: the CPU prelude"; cat "$tmp/err"; fail=1; }
    ran=$((ran + 1))
    if grep -q '^GP_REQUIRES_SIMD_WIDTH' "$tmp/$name.gpk"; then
        echo "     $name: SIMD-group operations, no OpenCL C check (OpenCL has none)"
    elif [ -n "$clang" ]; then
        "$clang" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only "$tmp/$name.prelude" 2>"$tmp/err" ||
            { echo "FAIL $name: the OpenCL C prelude"; cat "$tmp/err"; fail=1; }
    fi
    if [ -n "$nvcc" ]; then
        "$nvcc" -arch=sm_75 -ptx "$cu" -o "$tmp/$name.orig.ptx" 2>"$tmp/err" ||
            { echo "FAIL $name: the original is not valid CUDA"; cat "$tmp/err"; fail=1; continue; }
        cp "$tmp/$name.prelude" "$tmp/$name.cu"
        "$nvcc" -arch=sm_75 -ptx "$tmp/$name.cu" -o "$tmp/$name.tr.ptx" 2>"$tmp/err" ||
            { echo "FAIL $name: the translation does not compile as CUDA"; cat "$tmp/err"; fail=1; continue; }
        # the same kernels (entry points) before and after
        a=$(grep -o '\.entry [A-Za-z0-9_]*' "$tmp/$name.orig.ptx" | sed 's/.entry //; s/^_Z[0-9]*//' | sort | tr '\n' ' ')
        b=$(grep -o '\.entry [A-Za-z0-9_]*' "$tmp/$name.tr.ptx" | sed 's/.entry //' | sort | tr '\n' ' ')
        for k in $b; do
            case " $a" in *" $k"*) ;; *) echo "FAIL $name: kernel $k is not in the original ($a)"; fail=1 ;; esac
        done
        [ -n "$b" ] || { echo "FAIL $name: no kernel in the translation's PTX"; fail=1; }
    fi
    echo "ok   $name"
done
[ "$ran" -gt 0 ] || { echo "FAIL: no corpus file was checked"; exit 1; }
exit $fail
