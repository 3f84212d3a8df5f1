#!/usr/bin/env bash
# kernels.sh — sourced by the archcheck tests: compiles tests/archcheck/kernel.cu once per
# -gencode set into $GPUPORT_BUILD_DIR/archcheck-kernels (kept between runs, rebuilt when the
# source changes; a lock keeps tests that run at the same time from building twice). Sets $out
# and $fail (1 when a build failed). nvcc is slow: two builds at a time, no more.
nvcc=${nvcc:-${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}}
src=$GPUPORT_SOURCE_DIR/tests/archcheck/kernel.cu
out=$GPUPORT_BUILD_DIR/archcheck-kernels
mkdir -p "$out"
fail=0
exec 9>"$out/.lock"
flock 9 2>/dev/null || true
# build NAME OUTPUT-NAME NVCC-ARGS...: compiles unless a build newer than the source exists.
build() {
    local name=$1 file=$2; shift 2
    if [ ! "$out/$file" -nt "$src" ]; then
        (cd "$out" && "$nvcc" "$@" "$src" -o "$file") >"$out/$name.log" 2>&1 ||
            { echo "FAIL build $name: nvcc $*"; cat "$out/$name.log"; fail=1; }
    fi
}
build multi multi -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=compute_90 &
build ptxonly ptxonly -gencode arch=compute_80,code=compute_80 &
wait
build a90 a90 -gencode arch=compute_90a,code=sm_90a &
build f100 f100 -gencode arch=compute_100f,code=[sm_100f,compute_100f] &
wait
build rdc rdc.o -rdc=true -c -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=compute_89 &
build debug debug -G -gencode arch=compute_86,code=sm_86 &
wait
for m in none speed balance size; do
    build "cm_$m" "cm_$m" --compress-mode=$m -gencode arch=compute_86,code=[sm_86,compute_86] &
    [ $m = speed ] && wait
done
wait
build cubin a90.cubin -cubin -gencode arch=compute_90a,code=sm_90a &
build fatbin k.fatbin -fatbin -gencode arch=compute_75,code=sm_75 -gencode arch=compute_120,code=compute_120 &
wait
build ptx k.ptx -ptx -arch=compute_87 &
build obj k.o -c -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=compute_90 &
wait
# A static library of two objects (one relocatable, one whole-program), as `ar` makes it.
if [ ! "$out/libk.a" -nt "$src" ] && [ -f "$out/rdc.o" ] && [ -f "$out/k.o" ]; then
    (cd "$out" && rm -f libk.a && ar rcs libk.a rdc.o k.o) || { echo "FAIL ar libk.a"; fail=1; }
fi

flock -u 9 2>/dev/null || true
exec 9>&-
