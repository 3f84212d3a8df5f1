#!/usr/bin/env bash
# `gpuport translate` as a user runs it: what it writes gets the user's usual file mode; by
# default every kernel is built for each target this machine can build for before the report
# says it runs there (a compiler that fails is reported with its message, a target that was not
# built is not claimed); -D with values and --instantiate work.
set -u
src=$GPUPORT_SOURCE_DIR
corpus=$src/tests/translate/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# translate, whose build check loads the CPU backend and PoCL in one process: under
# LeakSanitizer its scan of the main thread's thread-local storage reads a stale record there on
# some machines ("DTLS 6 at 0x186-0x400001288") and crashes; the leak check runs without that
# storage as roots (translate keeps nothing only there)
translate() { LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}use_tls=0" "$GPUPORT" translate "$@"; }
# field PATH... of the report in $1 (JSON), printed by Python
field() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))
for k in sys.argv[2:]: v=v[int(k)] if k.isdigit() else v[k]
print(json.dumps(v))' "$@"; }

# output files: 0666 less the umask, as a compiler's output
(umask 022 && translate --no-verify "$corpus/saxpy.cu" -o "$tmp/a.gpk" --report "$tmp/a.json" 2>/dev/null)
mode=$(stat -c %a "$tmp/a.gpk" 2>/dev/null || stat -f %Lp "$tmp/a.gpk")
[ "$mode" = 644 ] || bad "umask 022: the output has mode $mode, not 644"
mode=$(stat -c %a "$tmp/a.json" 2>/dev/null || stat -f %Lp "$tmp/a.json")
[ "$mode" = 644 ] || bad "umask 022: the report has mode $mode, not 644"
(umask 077 && translate --no-verify "$corpus/saxpy.cu" -o "$tmp/b.gpk" 2>/dev/null)
mode=$(stat -c %a "$tmp/b.gpk" 2>/dev/null || stat -f %Lp "$tmp/b.gpk")
[ "$mode" = 600 ] || bad "umask 077: the output has mode $mode, not 600"

# --no-verify claims nothing; the default builds, and claims what built
translate --no-verify --json "$corpus/saxpy.cu" > "$tmp/nv.json" 2>/dev/null
[ "$(field "$tmp/nv.json" kernels 0 targets cpu)" = null ] || bad "--no-verify claims the CPU"
[ "$(field "$tmp/nv.json" verified)" = false ] || bad "--no-verify says verified"
translate --json "$corpus/saxpy.cu" > "$tmp/v.json" 2>"$tmp/v.err" || bad "saxpy: exit $?"
[ "$(field "$tmp/v.json" kernels 0 targets cpu)" = true ] || bad "the CPU build is not claimed"
[ "$(field "$tmp/v.json" kernels 0 builds cpu result)" = '"built"' ] || bad "no CPU build result"
grep -q "cpu: built on cpu" "$tmp/v.err" || bad "the summary does not say where it built: $(cat "$tmp/v.err")"
if [ "$(field "$tmp/v.json" verification opencl | cut -c2-9)" = "built on" ]; then
    [ "$(field "$tmp/v.json" kernels 0 targets opencl)" = true ] || bad "OpenCL built but not claimed"
fi
[ "$(field "$tmp/v.json" kernels 0 targets cuda)" = null ] || bad "CUDA claimed without a CUDA device"

# a C compiler that rejects everything: the CPU is reported failed, with its message
cat > "$tmp/fakecc" <<'SH'
#!/bin/sh
echo "fakecc: error: this compiler rejects every kernel" >&2
exit 1
SH
chmod +x "$tmp/fakecc"
CC=$tmp/fakecc GPUPORT_CACHE_DIR=$tmp/cache translate --json "$corpus/saxpy.cu" > "$tmp/f.json" 2>"$tmp/f.err"
[ "$(field "$tmp/f.json" kernels 0 targets cpu)" = false ] || bad "a failing C compiler: the CPU is claimed"
field "$tmp/f.json" kernels 0 builds cpu detail | grep -q "rejects every kernel" ||
    bad "the compiler's message is not in the report: $(field "$tmp/f.json" kernels 0 builds cpu)"
grep -q "FAILED: cpu" "$tmp/f.err" || bad "the summary does not say the CPU build failed"
grep -q "^  cpu: build FAILED (1 of 1 kernels) on cpu" "$tmp/f.err" || bad "the CPU summary line does not say the build failed: $(cat "$tmp/f.err")"
grep -q "cpu: built on" "$tmp/f.err" && bad "a failed CPU build is summarised as built"
field "$tmp/f.json" verification cpu | grep -q "build FAILED" || bad "the report's verification does not say the CPU build failed"
[ "$(grep -c "rejects every kernel" "$tmp/f.err")" = 1 ] || bad "the build log is not printed once: $(cat "$tmp/f.err")"
[ "$(field "$tmp/f.json" complete)" = false ] || bad "output that failed to build is called complete"
# the kernels of one failed build share its log: it is printed once
printf '__global__ void a(float *o) { o[0] = 1.0f; }\n__global__ void b(float *o) { o[0] = 2.0f; }\n' > "$tmp/two.cu"
CC=$tmp/fakecc GPUPORT_CACHE_DIR=$tmp/cache translate "$tmp/two.cu" >/dev/null 2>"$tmp/two.err"
rc=$?
[ "$rc" = 1 ] || bad "a failed build exits $rc, not 1"
[ "$(grep -c "rejects every kernel" "$tmp/two.err")" = 1 ] || bad "the build log is not printed once: $(cat "$tmp/two.err")"

# Metal through the stand-in syntax check, where clang++ is there
if command -v clang++ >/dev/null; then
    translate --json --metal-standin "$src/tests/runtime/metal/standin" \
        "$corpus/saxpy.cu" > "$tmp/m.json" 2>/dev/null
    [ "$(field "$tmp/m.json" kernels 0 targets metal)" = true ] || bad "the stand-in Metal check is not claimed"
fi
translate --metal-standin "$tmp" "$corpus/saxpy.cu" >/dev/null 2>"$tmp/e"
[ $? = 2 ] || bad "--metal-standin without metal_stdlib: not exit 2"

# -D with a float value, with an expression, and a parameter named like a CUDA type
cat > "$tmp/d.cu" <<'CU'
__global__ void k(float *o, int dim3)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < dim3) o[i] = SCALE * o[i] + (o[i] > LIMIT ? 1.0f : 0.0f);
}
CU
translate --no-verify -D SCALE=2.0f -D 'LIMIT=(1.0f/0.0f)' "$tmp/d.cu" > "$tmp/d.gpk" 2>"$tmp/d.err" ||
    bad "-D NAME=2.0f and -D 'NAME=(1.0f/0.0f)': $(cat "$tmp/d.err")"
grep -q "2.0f \* o\[i\]" "$tmp/d.gpk" || bad "-D SCALE=2.0f is not in the output: $(cat "$tmp/d.gpk")"
grep -q "GP_VAL(int, dim3)" "$tmp/d.gpk" || bad "the parameter named dim3"

# --instantiate: a kernel template that nothing in the file instantiates
cat > "$tmp/t.cu" <<'CU'
template <typename T, int N>
__global__ void fill(T *o, T v) { o[threadIdx.x % N] = v; }
CU
translate --no-verify "$tmp/t.cu" >/dev/null 2>"$tmp/t.err"
rc=$?
if [ $rc != 1 ] || ! grep -q "instantiate" "$tmp/t.err"; then
    bad "an uninstantiated template (exit $rc): $(cat "$tmp/t.err")"
fi
translate --no-verify --instantiate 'fill<float, 4>' "$tmp/t.cu" > "$tmp/t.gpk" 2>/dev/null ||
    bad "--instantiate 'fill<float, 4>'"
grep -q "GP_KERNEL(fill_float_4, GP_BUF(float, o), GP_VAL(float, v))" "$tmp/t.gpk" ||
    bad "the instance: $(cat "$tmp/t.gpk")"
grep -q "nothing was written" "$tmp/t.err" || bad "a refusal without --partial does not say nothing was written"

# warp code means 32 lanes by default; --simd-width 0 refuses it
cat > "$tmp/w.cu" <<'CU'
__global__ void wsum(float *o) {
  float v = o[threadIdx.x];
  for (int k = 16; k > 0; k /= 2) v += __shfl_down_sync(0xffffffff, v, k);
  o[threadIdx.x] = v;
}
CU
translate --no-verify "$tmp/w.cu" > "$tmp/w.gpk" 2>"$tmp/w.err" || bad "warp code by default: $(cat "$tmp/w.err")"
grep -q "GP_REQUIRES_SIMD_WIDTH(32)" "$tmp/w.gpk" || bad "the SIMD width requirement: $(cat "$tmp/w.gpk")"
translate --no-verify --simd-width 0 "$tmp/w.cu" >/dev/null 2>"$tmp/w0.err"
[ $? = 1 ] && grep -q "simd-width 32" "$tmp/w0.err" || bad "--simd-width 0: $(cat "$tmp/w0.err")"

# <project.h> found in an -I folder is read, as nvcc reads it
mkdir -p "$tmp/inc"
printf '#define BOUND(x, y) (y)\n' > "$tmp/inc/proj.h"
printf '#include <proj.h>\n__global__ void b(float *o) { o[BOUND(0, 1)] = 2.0f; }\n' > "$tmp/a.cu"
translate --no-verify -I "$tmp/inc" "$tmp/a.cu" > "$tmp/a2.gpk" 2>"$tmp/a.err" &&
    grep -q "o\[1\] = 2.0f" "$tmp/a2.gpk" || bad "#include <proj.h> with -I: $(cat "$tmp/a.err")"

# the CUDA samples' <helper_math.h> (vector operators): read from the -I folder that holds it, as
# the samples' builds give it; without the folder, the refusal names the header not found
mkdir -p "$tmp/Common"
cat > "$tmp/Common/helper_math.h" <<'CU'
inline __host__ __device__ float3 operator+(float3 a, float3 b)
{
    return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
inline __host__ __device__ float3 operator*(float3 a, float s)
{
    return make_float3(a.x * s, a.y * s, a.z * s);
}
CU
cat > "$tmp/hm.cu" <<'CU'
#include <helper_math.h>
__global__ void mix(const float *in, float *out, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float3 a = make_float3(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
  float3 r = (a + a) * s;
  out[3 * i] = r.x; out[3 * i + 1] = r.y; out[3 * i + 2] = r.z;
}
CU
translate --no-verify -I "$tmp/Common" "$tmp/hm.cu" > "$tmp/hm.gpk" 2>"$tmp/hm.err" ||
    bad "<helper_math.h> with -I: $(cat "$tmp/hm.err")"
grep -q "GP_KERNEL(mix" "$tmp/hm.gpk" || bad "<helper_math.h> with -I: no kernel: $(cat "$tmp/hm.gpk")"
translate --no-verify "$tmp/hm.cu" > /dev/null 2>"$tmp/hm0.err"
[ $? = 1 ] && grep -q "vector operator.*it may come from \"helper_math.h\", which was not found: give -I DIR" \
    "$tmp/hm0.err" || bad "<helper_math.h> without -I: $(cat "$tmp/hm0.err")"

# ready to run: each kernel's launch from its <<<>>> site, and a gpuport run line that runs
cat > "$tmp/l.cu" <<'CU'
#define BLOCK 256
__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template <typename T, int BS> __global__ void scale(T *y, T a) { y[blockIdx.x * BS + threadIdx.x] *= a; }
__global__ void tr(float *o, const float *in, int w) {
  extern __shared__ float t[];
  t[threadIdx.y * 16 + threadIdx.x] = in[(blockIdx.y * 16 + threadIdx.y) * w + blockIdx.x * 16 + threadIdx.x];
  __syncthreads();
  o[(blockIdx.y * 16 + threadIdx.y) * w + blockIdx.x * 16 + threadIdx.x] = t[threadIdx.x * 16 + threadIdx.y];
}
int main() {
  const int n = 1 << 16;
  float *d_x, *d_y;
  cudaMalloc(&d_x, n * sizeof(float));
  size_t bytes = n * sizeof(float);
  cudaMalloc((void **)&d_y, bytes);
  saxpy<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_y, d_x, 2.0f, n);
  scale<float, 128><<<n / 128, 128>>>(d_y, 3.0f);
  dim3 grid(16, 16), threads(16, 16);
  tr<<<grid, threads, 16 * 16 * sizeof(float)>>>(d_y, d_x, 256);
}
CU
translate --no-verify "$tmp/l.cu" -o "$tmp/l.gpk" --report "$tmp/l.json" 2>"$tmp/l.err" || bad "launches: $(cat "$tmp/l.err")"
[ "$(field "$tmp/l.json" kernels 0 launch config)" = '"<<<256, 256>>>"' ] || bad "saxpy's launch: $(field "$tmp/l.json" kernels 0 launch)"
grep -q "launched at .*l.cu:22 as <<<dim3(16, 16), dim3(16, 16), 1024>>>" "$tmp/l.gpk" || bad "the launch comment: $(grep launched "$tmp/l.gpk")"
grep -q "gpuport run $tmp/l.gpk saxpy --global 65536 --group 256 y=zeros:65536 x=ones:65536 a=2.0 n=65536" "$tmp/l.err" ||
    bad "saxpy's run line: $(cat "$tmp/l.err")"
runs=0
while read -r line; do
    eval "\"\$GPUPORT\" ${line#gpuport } --device cpu" >/dev/null 2>"$tmp/r.err" || bad "$line: $(cat "$tmp/r.err")"
    runs=$((runs + 1))
done < <(grep '^  gpuport run ' "$tmp/l.err" | sed 's/^  //')
[ "$runs" = 3 ] || bad "$runs run lines, not 3: $(cat "$tmp/l.err")"

# --partial: a kernel left out says why when it is run, not only that it is missing
cat > "$tmp/p.cu" <<'CU'
__device__ float h(float x) { return (float)clock() * x; }
__global__ void a(float *o) { o[0] = h(o[1]); }
__global__ void b(float *o) { o[0] = 2.0f * o[1]; }
CU
translate --no-verify --partial "$tmp/p.cu" -o "$tmp/p.gpk" 2>/dev/null
"$GPUPORT" run "$tmp/p.gpk" b --global 1 o=zeros:2 --device cpu >/dev/null 2>&1 || bad "the translated kernel of a partial file does not run"
"$GPUPORT" run "$tmp/p.gpk" a --global 1 o=zeros:2 --device cpu >/dev/null 2>"$tmp/p.err"
rc=$?
[ "$rc" = 2 ] && grep -q "kernel 'a' of .*p.gpk was not translated from CUDA.*clock" "$tmp/p.err" ||
    bad "a left-out kernel (exit $rc): $(cat "$tmp/p.err")"

# -o with --json: the file is written, whoever reads stdout
translate --no-verify --json "$corpus/saxpy.cu" -o "$tmp/j.gpk" 2>/dev/null | head -c 1 >/dev/null
grep -q "GP_KERNEL(" "$tmp/j.gpk" || bad "-o with --json piped to head: no output file"
# -o /dev/null: written into, without --force, and /dev/null stays the device it was (as root,
# a rename over it made it a regular file; a chmod changed its mode)
if [ -c /dev/null ]; then
    before=$(stat -c %a /dev/null 2>/dev/null || stat -f %Lp /dev/null)
    translate --no-verify "$corpus/saxpy.cu" -o /dev/null >/dev/null 2>"$tmp/null.err" ||
        bad "-o /dev/null: $(cat "$tmp/null.err")"
    [ -c /dev/null ] || bad "-o /dev/null replaced the device"
    after=$(stat -c %a /dev/null 2>/dev/null || stat -f %Lp /dev/null)
    [ "$before" = "$after" ] || bad "-o /dev/null changed its mode from $before to $after"
fi
[ $fail = 0 ] && echo "ok"
exit $fail
