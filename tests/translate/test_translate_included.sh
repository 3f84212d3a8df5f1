#!/usr/bin/env bash
# A .cu file that another file of its folder #includes (main.cu's `#include "kernels.cu"`) is
# compiled only there: `gpuport translate kernels.cu` reads it after what main.cu declares
# before that line (macros, typedefs, constants, device functions), as nvcc does, and takes none
# of main.cu's kernels or host functions. With no includer, two of them, or an #include inside
# an #if, or when main.cu's part does not parse, the file is read on its own. A quoted header that
# is neither beside the file nor in an -I folder is the one of that name in the project around it.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
field() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))
for k in sys.argv[2:]: v=v[int(k)] if k.isdigit() else v[k]
print(json.dumps(v))' "$@"; }

mkdir -p "$tmp/a" "$tmp/b" "$tmp/c" "$tmp/d"
cat > "$tmp/a/common.h" <<'EOF'
#pragma once
typedef float real;
EOF
cat > "$tmp/a/main.cu" <<'EOF'
#include <cstdio>
#include "common.h"
#define TILE 8
const int SCALE = 3;
__device__ real twice(real x) { return 2.0f * x; }
__global__ void host_side(int *p) { p[0] = not_declared_anywhere; }
void helper() { printf("host\n"); }
#include "kernels.cu"
int main()
{
    real *d;
    cudaMalloc(&d, 64 * sizeof(real));
    scale<<<8, TILE>>>(d);
    return 0;
}
EOF
cat > "$tmp/a/kernels.cu" <<'EOF'
__global__ void scale(real *o)
{
    int i = blockIdx.x * TILE + threadIdx.x;
    o[i] = twice(o[i]) * SCALE;
}
EOF
"$GPUPORT" translate --no-verify --json "$tmp/a/kernels.cu" -o "$tmp/a.gpk" > "$tmp/a.json" 2>"$tmp/a.err" ||
    bad "kernels.cu in main.cu's context: exit $? $(cat "$tmp/a.err")"
[ "$(field "$tmp/a.json" kernels 0 name)" = '"scale"' ] || bad "the kernel is not scale"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(len(r["kernels"]) != 1)' \
    "$tmp/a.json" || bad "main.cu's kernel is counted as kernels.cu's"
grep -q 'compiled where .*main.cu includes it (line 8)' "$tmp/a.json" || bad "no note of the includer"
grep -q 'GP_FUNC float twice(float x)' "$tmp/a.gpk" || bad "main.cu's device function is missing"
grep -q 'TILE' "$tmp/a.gpk" || bad "main.cu's TILE is not kept"
grep -q 'host_side\|helper' "$tmp/a.gpk" && bad "main.cu's kernel or host function is in the output"

# main.cu's text after the #include: its launches instantiate kernels.cu's templates (here
# through a host template of kernels.cu) and give the launch configuration; its own kernels and
# device functions after the #include stay out. The #include sits inside main.cu's include guard
# and an #ifndef of a macro kernels.cu defines: both are taken.
mkdir -p "$tmp/e"
cat > "$tmp/e/main.cu" <<'EOF2'
#ifndef MAIN_CU
#define MAIN_CU
typedef float real;
#ifndef KERNELS_CU
#include "kernels.cu"
#endif
__global__ void after(int *p) { p[0] = undeclared_after; }
int main()
{
    real *d;
    cudaMalloc(&d, 256 * sizeof(real));
    run<real, 4>(d, 256);
    fill<<<dim3(2), dim3(128)>>>(d, 1.5f);
    return 0;
}
#endif
EOF2
cat > "$tmp/e/kernels.cu" <<'EOF2'
#define KERNELS_CU
template <typename T, int K>
__global__ void scale_by(T *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] *= K;
}
__global__ void fill(real *o, real v) { o[blockIdx.x * blockDim.x + threadIdx.x] = v; }
template <typename T, int K>
void run(T *d, int n)
{
    scale_by<T, K><<<(n + 63) / 64, 64>>>(d, n);
}
EOF2
"$GPUPORT" translate --no-verify --json "$tmp/e/kernels.cu" -o "$tmp/e.gpk" > "$tmp/e.json" 2>"$tmp/e.err" ||
    bad "launches after the #include: exit $? $(cat "$tmp/e.err")"
python3 - "$tmp/e.json" <<'PY' || bad "launches after the #include: $(cat "$tmp/e.json")"
import json, sys
r = json.load(open(sys.argv[1]))
names = sorted(k["name"] for k in r["kernels"])
assert names == ["fill", "scale_by_real_4"], names
assert all(k["translated"] for k in r["kernels"]), r["kernels"]
fill = [k for k in r["kernels"] if k["name"] == "fill"][0]
assert "128" in json.dumps(fill.get("launch")), fill.get("launch")
PY
grep -q 'compiled where .*main.cu includes it (line 5).*launches after it' "$tmp/e.json" ||
    bad "no note of the includer's launches"
grep -q 'after\b\|undeclared_after' "$tmp/e.gpk" && bad "main.cu's kernel after the #include is in the output"

# the #include inside an #if: which branch is built is not known, the file is read alone
sed 's|^#include "kernels.cu"|#ifdef USE_GPU\n#include "kernels.cu"\n#endif|' "$tmp/a/main.cu" > "$tmp/b/main.cu"
cp "$tmp/a/common.h" "$tmp/a/kernels.cu" "$tmp/b/"
"$GPUPORT" translate --no-verify --json "$tmp/b/kernels.cu" > "$tmp/b.json" 2>/dev/null
[ $? = 1 ] || bad "kernels.cu included under #ifdef: not refused"
grep -q "expected a type before 'real'" "$tmp/b.json" || bad "under #ifdef: not read alone"

# two files include it: no one context
cp "$tmp/a/main.cu" "$tmp/a/common.h" "$tmp/a/kernels.cu" "$tmp/c/"
cp "$tmp/a/main.cu" "$tmp/c/other.cu"
"$GPUPORT" translate --no-verify --json "$tmp/c/kernels.cu" > "$tmp/c.json" 2>/dev/null
[ $? = 1 ] || bad "kernels.cu included twice: not refused"
grep -q 'compiled where' "$tmp/c.json" && bad "a context chosen among two includers"

# main.cu's part does not parse (the #include is inside a function): the file alone
printf 'typedef float real;\nvoid f() {\n#include "kernels.cu"\n}\n' > "$tmp/d/main.cu"
printf '__global__ void k(float *o) { o[threadIdx.x] = 1.0f; }\n' > "$tmp/d/kernels.cu"
"$GPUPORT" translate --no-verify --json "$tmp/d/kernels.cu" > "$tmp/d.json" 2>"$tmp/d.err" ||
    bad "an includer that does not parse: exit $? $(cat "$tmp/d.err")"
grep -q 'compiled where' "$tmp/d.json" && bad "a context that does not parse was kept"

# a quoted header found neither beside the file nor in -I folders: the one file of that name in
# the project around it (the parent folder, as the build's -I ../include would give it)
mkdir -p "$tmp/p/include" "$tmp/p/device" "$tmp/q/a" "$tmp/q/b" "$tmp/q/device"
printf 'typedef int score_t;\n#define BAND 4\n' > "$tmp/p/include/common.h"
printf '#include "common.h"\n__global__ void k(score_t *o) { o[threadIdx.x] = BAND; }\n' \
    > "$tmp/p/device/kernel.cu"
"$GPUPORT" translate --no-verify --json "$tmp/p/device/kernel.cu" > "$tmp/p.json" 2>"$tmp/p.err" ||
    bad "a header in the project's include folder: exit $? $(cat "$tmp/p.err")"
grep -q 'the one file of that name in the project' "$tmp/p.json" || bad "no note of the header found"
# two of that name: none is chosen
cp "$tmp/p/include/common.h" "$tmp/q/a/" && cp "$tmp/p/include/common.h" "$tmp/q/b/"
cp "$tmp/p/device/kernel.cu" "$tmp/q/device/"
"$GPUPORT" translate --no-verify --json "$tmp/q/device/kernel.cu" > "$tmp/q.json" 2>/dev/null
[ $? = 1 ] || bad "two headers of that name: one was chosen"
grep -q 'not found' "$tmp/q.json" || bad "two headers of that name: no note that it was not found"

# what real headers do: #pragma once on two headers that include each other, a UTF-8 byte order
# mark, GNU's `, ## __VA_ARGS__`, `#if not defined(...)`, __has_include (MPI's header absent, the
# project's present), the Linux host's macros,
# and a host template whose parameter list compares with '>' in parentheses
mkdir -p "$tmp/r"
printf '\357\273\277#pragma once\n#include "vec.h"\n#define PI_F 3.25f\n' > "$tmp/r/consts.h"
printf '#pragma once\n#include "consts.h"\ntypedef float real;\n' > "$tmp/r/vec.h"
cat > "$tmp/r/k.cu" <<'CU'
#include "vec.h"
#include "consts.h"
#define LOG(fmt, ...) printf(fmt, ##__VA_ARGS__)
#if not defined(_OPENMP) and defined(__linux__)
#define SCALE 2
#else
#define SCALE 5
#endif
#if __has_include(<mpi.h>)
#define EXTRA 100
#elif __has_include("vec.h")
#define EXTRA 7
#endif
template <class T, int N, bool = (sizeof(T) > 2) && (N > 1)> struct Traits { T v[N]; };
__global__ void k(real *o)
{
    LOG("start\n");
    LOG("%d\n", SCALE);
    o[threadIdx.x] = PI_F * SCALE + EXTRA;
}
CU
"$GPUPORT" translate --no-verify "$tmp/r/k.cu" -o "$tmp/r/k.gpk" 2>"$tmp/r.err" ||
    bad "real headers' preprocessing: exit $? $(cat "$tmp/r.err")"
grep -q '^#define PI_F 3.25f$' "$tmp/r/k.gpk" && grep -q '^#define SCALE 2$' "$tmp/r/k.gpk" &&
    grep -q '^#define EXTRA 7$' "$tmp/r/k.gpk" ||
    bad "real headers' macros: $(grep '#define' "$tmp/r/k.gpk")"
grep -q 'gp_printf("start\\n");' "$tmp/r/k.gpk" && grep -q 'gp_printf("%d\\n", SCALE);' "$tmp/r/k.gpk" ||
    bad "the GNU comma before __VA_ARGS__: $(grep printf "$tmp/r/k.gpk")"

exit $fail
