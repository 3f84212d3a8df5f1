#!/usr/bin/env bash
# test_run_guard.sh — `gpuport run` when the kernel itself is wrong and nothing checks it: a write
# past a buffer is caught by the guard zone after each buffer (named, exit 1, no heap damage), the
# grid's rounding up to whole groups is said on every device, a kernel that crashes the process
# or a Ctrl-C during a long launch is said and ends with 128 + the signal as a plain exit, and
# `--check LIST` (space form) works as `--check=LIST`.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
run() { # run NAME EXPECTED_RC PATTERN -- ARGS...: gpuport run ARGS; output in out/err
    local name=$1 want=$2 pat=$3
    shift 4
    "$GPUPORT" run "$@" >out 2>err
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL $name: exit $rc, expected $want"; cat out err | head -20; fail=1
    elif ! grep -q -- "$pat" out err; then
        echo "FAIL $name: no '$pat' in the output"; cat out err | head -20; fail=1
    else
        echo "ok   $name"
    fi
}
cat >k.gpk <<'EOF2'
GP_KERNEL(unguarded, GP_BUF(float, y), GP_CBUF(float, x))
{
    int i = gp_global_id(0);
    y[i] = 2.0f * x[i];
}
GP_KERNEL(guarded, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) y[i] = 2.0f * x[i];
}
GP_KERNEL(spin, GP_BUF(float, y), GP_VAL(int, iters))
{
    int i = gp_global_id(0);
    float a = (float)i;
    for (int k = 0; k < iters; k++)
        a = a * 0.999999f + 1.0f;
    y[i] = a;
}
EOF2
cat >wild.gpk <<'EOF2'
GP_KERNEL(wild, GP_BUF(float, y), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) *(volatile float *)(size_t)(64 + 4 * i) = y[i];
}
EOF2

devices="cpu"
"$GPUPORT" devices 2>/dev/null | grep -q opencl && devices="cpu opencl"
for d in $devices; do
    run "$d: a write past a buffer is named" 1 "wrote past the end of buffer 'y' (1000 elements of float): y\[1000\] to y\[1023\]" -- \
        k.gpk unguarded --device "$d" --global 1000 y=zeros:1000 x=ones:1000 -o y=y_$d.npy
    grep -q -- "--check to find the line" err || { echo "FAIL $d: no --check advice"; fail=1; }
    grep -q "the grid 1000 was rounded up to 1024 work-items: whole groups of 256 (chosen by gpuport" err ||
        { echo "FAIL $d: the rounding is not said"; cat err; fail=1; }
    grep -q "double free\|corruption" err && { echo "FAIL $d: the heap was damaged"; fail=1; }
    python3 -c "import numpy as np; a = np.load('y_$d.npy'); assert a.shape == (1000,) and (a == 2).all()" ||
        { echo "FAIL $d: the in-bounds results"; fail=1; }
    run "$d: a guarded kernel is ok, the rounding said" 0 "rounded up to 1024" -- \
        k.gpk guarded --device "$d" --global 1000 y=zeros:1000 x=ones:1000 n=1000
    grep -q "wrote past" err && { echo "FAIL $d: a false overrun"; fail=1; }
    run "$d: a given group is named too" 0 "whole groups of 128 (--group)" -- \
        k.gpk guarded --device "$d" --global 1000 --group 128 y=zeros:1000 x=ones:1000 n=1000
    run "$d: an exact grid says nothing of rounding" 0 "ok" -- \
        k.gpk guarded --device "$d" --global 1024 y=zeros:1024 x=ones:1024 n=1024
    grep -q "rounded up" err && { echo "FAIL $d: rounding said of an exact grid"; fail=1; }
done
# a 2-D grid rounded up by whole rows: the zone grows with the rounding (128 KiB past the end)
cat >rows.gpk <<'EOF2'
GP_KERNEL(fill2d, GP_BUF(float, y), GP_VAL(int, w))
{
    int x = gp_global_id(0), r = gp_global_id(1);
    y[r * w + x] = 1.0f;
}
EOF2
run "cpu: rows past a 2-D buffer" 1 "y\[4000000\] to y\[4031999\] changed" -- \
    rows.gpk fill2d --device cpu --global 4000,1000 y=zeros:4000000 w=4000
grep -q "rounded up to 4000x1008 work-items: whole groups of 16x16" err ||
    { echo "FAIL rows: the 2-D rounding is not said"; cat err; fail=1; }

# --json says it too
"$GPUPORT" run k.gpk unguarded --device cpu --global 1000 --json y=zeros:1000 x=ones:1000 >out 2>err
rc=$?
python3 -c "
import json; d = json.load(open('out'))
assert d['status'] == 'overrun' and d['group_used'] == [256] and d['global_launched'] == [1024], d
o, = d['overruns']; assert o['param'] == 'y' and o['first_index'] == 1000 and o['last_index'] == 1023, o
" && [ $rc = 1 ] && echo "ok   --json: overruns, group_used, global_launched" ||
    { echo "FAIL --json (exit $rc)"; cat out err; fail=1; }

# --check LIST as one word or two
run "--check memcheck (space form)" 1 "memcheck: read of 4 bytes at x\[1000\]" -- \
    k.gpk unguarded --check memcheck --global 1000 y=zeros:1000 x=ones:1000
run "--check=memcheck" 1 "memcheck: read of 4 bytes at x\[1000\]" -- \
    k.gpk unguarded --check=memcheck --global 1000 y=zeros:1000 x=ones:1000
run "--check before the file" 1 "memcheck" -- \
    --check k.gpk unguarded --global 1000 y=zeros:1000 x=ones:1000

# a kernel that crashes the process: said, 128 + SIGSEGV as a plain exit
run "a crashing kernel is said" 139 "kernel 'wild' on cpu:0 died of SIGSEGV" -- \
    wild.gpk wild --device cpu --global 64 y=zeros:64 n=64
grep -q -- "--check to find the line" err || { echo "FAIL crash: no --check advice"; fail=1; }

# Ctrl-C during a long launch: said, exit 130, no output written
for d in $devices; do
    python3 - "$GPUPORT" "$d" <<'EOF2' || fail=1
import os, signal, subprocess, sys, time
g, d = sys.argv[1], sys.argv[2]
p = subprocess.Popen([g, "run", "k.gpk", "spin", "--device", d, "--global", "64", "y=zeros:64",
                      "iters=2000000000", "-o", "y=never.npy"], stderr=subprocess.PIPE, text=True)
time.sleep(3)  # built and running (it would run for minutes)
p.send_signal(signal.SIGINT)
try:
    err = p.communicate(timeout=20)[1]
except subprocess.TimeoutExpired:
    p.kill(); print(f"FAIL {d}: Ctrl-C did not stop the run"); sys.exit(1)
ok = p.returncode == 130 and "interrupted while kernel 'spin'" in err and not os.path.exists("never.npy")
print(("ok   " if ok else "FAIL ") + f"{d}: Ctrl-C ends the run with 130 (exit {p.returncode}: {err.strip()})")
sys.exit(0 if ok else 1)
EOF2
done
exit $fail
