#!/usr/bin/env bash
# test_run.sh — `gpuport run`: a kernel of a .gpk file run from the command line with its
# parameters by name (.npy buffers in and out, fresh buffers, values, the dynamic shared block),
# checked runs and their reports (human and --json), `--device auto` choosing a device that can run
# the kernel, and every bad input refused with exit 2 naming what is wrong, before anything runs and
# without touching an output file.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
run() { # run NAME EXPECTED_RC [PATTERN] -- ARGS...: gpuport run ARGS; output in out/err
    local name=$1 want=$2 pat=""
    shift 2
    if [ "$1" != "--" ]; then pat=$1; shift; fi
    shift
    "$GPUPORT" run "$@" >out 2>err
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL $name: exit $rc, expected $want"; cat out err | head -20; fail=1
    elif [ -n "$pat" ] && ! grep -q -- "$pat" out err; then
        echo "FAIL $name: no '$pat' in the output"; cat out err | head -20; fail=1
    else
        echo "ok   $name"
    fi
}
py() { python3 -c "$1" || { echo "FAIL python: $1"; fail=1; }; }

cat >k.gpk <<'EOF'
#ifndef REAL
#define REAL float
#endif
GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
GP_KERNEL(unguarded, GP_BUF(float, y), GP_CBUF(float, x))
{
    int i = gp_global_id(0);
    y[i] = x[i];
}
GP_KERNEL(vectors, GP_BUF(gp_float4, v), GP_BUF(gp_half, h), GP_CBUF(REAL, r), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i >= n) return;
    v[i].w = v[i].x + v[i].y + (float)r[i];
    h[i] = gp_float_to_half(gp_half_to_float(h[i]) * 2.0f);
}
GP_KERNEL(pairs, GP_BUF(gp_half2, h), GP_BUF(gp_ushort4, u), GP_VAL(gp_uchar2, k))
{
    int i = gp_global_id(0);
    h[i] = gp_half2_add(h[i], gp_halves_to_half2(h[i].y, h[i].x));
    u[i].w = (uint16_t)(u[i].x + k.x + k.y);
}
GP_KERNEL(blocks, GP_BUF(int, out), GP_DYN_SHARED(int, s))
{
    int l = gp_local_id(0);
    s[l] = l;
    gp_barrier();
    out[gp_global_id(0)] = s[gp_local_size(0) - 1 - l];
}
EOF
cat >simd.gpk <<'EOF'
GP_KERNEL(lanes, GP_BUF(int, out))
{
    out[gp_global_id(0)] = gp_simd_shuffle_xor(gp_simd_lane(), 1);
}
EOF
printf 'GP_KERNEL(broken, GP_BUF(float, y))\n{\n    y[0] = undefined_name;\n}\n' >broken.gpk
py "
import numpy as np
np.save('x.npy', np.arange(1000, dtype=np.float32))
np.save('y.npy', np.ones(1000, dtype=np.float32))
np.save('xi.npy', np.arange(1000, dtype=np.int32))
np.save('xbe.npy', np.arange(1000, dtype='>f4'))
np.save('xf.npy', np.asfortranarray(np.ones((10, 100), dtype=np.float32)))
np.save('v.npy', np.ones((64, 4), dtype=np.float32))
np.save('v3.npy', np.ones((64, 3), dtype=np.float32))
open('junk.npy', 'wb').write(b'not an npy at all')
"

# a run with .npy in and out
run "saxpy from .npy to .npy" 0 -- k.gpk saxpy --global 1000 y=y.npy x=x.npy a=2 n=1000 -o y=out.npy
py "
import numpy as np
a = np.load('out.npy'); assert a.dtype == np.float32 and a.shape == (1000,), (a.dtype, a.shape)
assert np.array_equal(a, 2 * np.arange(1000, dtype=np.float32) + 1)"
# fresh buffers, vectors, half, a define naming a type, the dynamic shared block
run "vectors, half and a -D type" 0 -- k.gpk vectors --global 64 -D REAL=int v=v.npy h=fill:1.5:64 \
    r=fill:2:64 n=64 -o v=vo.npy -o h=ho.npy
py "
import numpy as np
v = np.load('vo.npy'); h = np.load('ho.npy')
assert v.shape == (64, 4) and (v[:, 3] == 4).all(), v[:2]
assert h.dtype == np.float16 and (h == 3).all(), h[:4]"
run "gp_half2, an integer vector buffer and value" 0 -- k.gpk pairs --global 8 h=fill:1.5:8 \
    u=fill:7:8 k=1,2 -o h=hp.npy -o u=up.npy
py "
import numpy as np
h = np.load('hp.npy'); u = np.load('up.npy')
assert h.dtype == np.float16 and h.shape == (8, 2) and (h == 3).all(), h[:2]
assert u.dtype == np.uint16 and u.shape == (8, 4) and (u[:, 3] == 10).all(), u[:2]"
run "dynamic shared block" 0 -- k.gpk blocks --global 128 --group 64 out=zeros:128 s=shared:256 -o out=b.npy
py "
import numpy as np
b = np.load('b.npy'); assert (b[:64] == np.arange(63, -1, -1)).all(), b[:8]"

# checked runs
run "checked, clean" 0 -- k.gpk saxpy --global 100 --check y=zeros:100 x=ones:100 a=1 n=100
run "checked, a bug: exit 1 and FILE:LINE:COL: CHECK" 1 "k.gpk:12:12: memcheck:" -- \
    k.gpk unguarded --global 100 --group 64 --check y=zeros:100 x=ones:100
grep -q "work-item (36,0,0) of group (1,0,0)" out || { echo "FAIL the report names no work-item"; cat out; fail=1; }
run "checked --json" 1 -- k.gpk unguarded --global 100 --group 64 --check=memcheck --json \
    y=zeros:100 x=ones:100
py "
import json
d = json.load(open('out'))
assert d['schema'] == 'gpuport.run/1' and d['status'] == 'reports' and d['device'].startswith('cpu'), d
r = d['reports'][0]
assert (r['check'], r['file'], r['line'], r['column']) == ('memcheck', 'k.gpk', 12, 12), r
assert r['count'] == 28 and len(d['reports']) == 2 and r['message'] and r['work_item']['group'] == [1, 0, 0], r"
run "initcheck of an uninitialized buffer" 1 "initcheck" -- k.gpk saxpy --global 64 --check \
    y=uninit:64 x=ones:64 a=1 n=64

# --device auto picks a device that can run the kernel
run "auto runs a SIMD-group kernel" 0 -- simd.gpk lanes --global 64 --json out=zeros:64
py "
import json
d = json.load(open('out'))
sel = {s['backend']: s for s in d['selection']}
assert d['device'].startswith('cpu') or d['device'].startswith('cuda') or d['device'].startswith('metal'), d['device']
if sel['opencl']['outcome'] not in ('library not found', 'no device', 'not tried'):
    assert sel['opencl']['outcome'] == 'cannot run this program', sel['opencl']
    assert 'SIMD-group operations' in sel['opencl']['detail'], sel['opencl']"
if "$GPUPORT" devices --json | grep -q '"opencl:0"'; then
    run "auto says why it skipped OpenCL" 0 "skipped opencl: kernel 'lanes' uses SIMD-group" -- \
        simd.gpk lanes --global 64 out=zeros:64
    run "a SIMD-group kernel on OpenCL is refused" 2 "has none" -- simd.gpk lanes --global 64 \
        --device opencl out=zeros:64
    run "checking on OpenCL is refused" 2 "CPU backend" -- k.gpk saxpy --global 64 --device opencl \
        --check y=zeros:64 x=ones:64 a=1 n=64
fi

# bad input: exit 2, naming the problem, nothing run, nothing written
echo keep >kept.npy
bad() { # bad NAME PATTERN ARGS...
    local name=$1 pat=$2
    shift 2
    run "$name" 2 "$pat" -- "$@"
}
bad "unknown parameter" "z: kernel 'saxpy' has no such parameter" k.gpk saxpy --global 8 \
    y=zeros:8 x=ones:8 a=1 n=8 z=3
bad "missing parameter" "needs a value for: n" k.gpk saxpy --global 8 y=zeros:8 x=ones:8 a=1
bad "parameter given twice" "a: given twice" k.gpk saxpy --global 8 y=zeros:8 x=ones:8 a=1 a=2 n=8
bad "dtype mismatch" "x: xi.npy: its dtype is i32, the parameter is float" k.gpk saxpy --global 8 \
    y=zeros:1000 x=xi.npy a=1 n=8
bad "big-endian .npy" "big-endian" k.gpk saxpy --global 8 y=zeros:8 x=xbe.npy a=1 n=8
bad "Fortran-ordered .npy" "Fortran order" k.gpk saxpy --global 8 y=zeros:8 x=xf.npy a=1 n=8
bad "a vector buffer of the wrong width" "last dimension of 4" k.gpk vectors --global 8 -D REAL=int \
    v=v3.npy h=zeros:8 r=zeros:8 n=8
bad "not an .npy" "junk.npy: not a valid .npy" k.gpk saxpy --global 8 y=zeros:8 x=junk.npy a=1 n=8
bad "missing .npy" "missing.npy" k.gpk saxpy --global 8 y=zeros:8 x=missing.npy a=1 n=8
bad "size 0" "y (float parameter): '0' is not a count" k.gpk saxpy --global 8 y=zeros:0 x=ones:8 a=1 n=8
bad "size not a number" "'abc' is not a positive count" k.gpk saxpy --global 8 y=ones:abc x=ones:8 a=1 n=8
bad "fill value not a number" "'pi' is not a number" k.gpk saxpy --global 8 y=fill:pi:8 x=ones:8 a=1 n=8
bad "value out of range" "n (int value)" k.gpk saxpy --global 8 y=zeros:8 x=ones:8 a=1 n=3000000000
bad "value not a number" "a (float value): 'two' is not a number" k.gpk saxpy --global 8 \
    y=zeros:8 x=ones:8 a=two n=8
bad "shared for a buffer" "not the dynamic shared block" k.gpk saxpy --global 8 y=shared:8 x=ones:8 a=1 n=8
bad "a buffer for the shared block" "give it as shared:BYTES" k.gpk blocks --global 8 out=zeros:8 s=zeros:8
bad "-o of a value" "-o n=o.npy: 'n' is not a buffer" k.gpk saxpy --global 8 y=zeros:8 x=ones:8 a=1 \
    n=8 -o n=o.npy
bad "-o over a file" "kept.npy: already exists" k.gpk saxpy --global 8 y=zeros:8 x=ones:8 a=1 n=8 \
    -o y=kept.npy
[ "$(cat kept.npy)" = keep ] || { echo "FAIL an existing file was overwritten"; fail=1; }
bad "unknown kernel" "no kernel 'nope'" k.gpk nope --global 8
bad "missing file" "none.gpk" none.gpk k --global 8
bad "no --global" "--global is needed" k.gpk saxpy y=zeros:8 x=ones:8 a=1 n=8
bad "bad --global" "--global 0" k.gpk saxpy --global 0 y=zeros:8 x=ones:8 a=1 n=8
bad "--group of other dimensions" "--group has 2 dimension" k.gpk saxpy --global 8 --group 4,2 \
    y=zeros:8 x=ones:8 a=1 n=8
bad "--group above the limit" "above the limit" k.gpk saxpy --global 8 --group 100000 --device cpu \
    y=zeros:8 x=ones:8 a=1 n=8
bad "bad --check" "'typocheck' is not a check" k.gpk saxpy --global 8 --check=typocheck y=zeros:8 \
    x=ones:8 a=1 n=8
bad "a build error names the line" "broken.gpk:3" broken.gpk broken --global 8 y=zeros:8
run "a build error with --json: the error object" 2 -- broken.gpk broken --global 8 --json y=zeros:8
py "import json; d = json.load(open('out')); assert d['schema'] == 'gpuport.error/1' and d['exit_code'] == 2 and 'broken.gpk:3' in d['error'], d"
bad "a stray positional" "expected PARAM=VALUE" k.gpk saxpy extra --global 8
[ ! -e o.npy ] || { echo "FAIL a refused run wrote an output"; fail=1; }
exit $fail
