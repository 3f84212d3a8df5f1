#!/usr/bin/env bash
# Every reader of outside data opens through gp_open_regular: a named pipe (FIFO), a socket or a
# device given where a file is read is refused at once, named, with exit 2 (doctor: the check says
# what it could not read), never waited on. Each command runs under a timeout: a reader that opens
# a FIFO blocks until a writer comes, so a hang here is the bug this test catches (exit 124).
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
ok() { echo "ok   $*"; }
bad() {
    echo "FAIL $*"
    fail=1
}
# refused NAME WANT_RC PATTERN COMMAND...: exits WANT_RC within 10 s, stderr matching PATTERN
refused() {
    local name=$1 want=$2 pat=$3
    shift 3
    timeout 10 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local rc=$?
    if [ $rc = 124 ]; then
        bad "$name: hung (killed after 10 s)"
    elif [ $rc != "$want" ]; then
        bad "$name: exit $rc, expected $want"; cat "$tmp/err"
    elif ! grep -Eq -- "$pat" "$tmp/err" "$tmp/out"; then
        bad "$name: no /$pat/ in:"; cat "$tmp/err" "$tmp/out"
    else
        ok "$name"
    fi
}
G=$GPUPORT
mkfifo p.npy q.npy p.so p.ptx p.whl p.json p.cu p.h
python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.bind("s.npy")'
python3 -c 'import sys; h = b"{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: (2,), }"
h += b" " * (63 - (10 + len(h)) % 64) + b"\n"
open("r.npy", "wb").write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + b"\0" * 8)'

fifo="is a named pipe \(FIFO\), not a regular file"
refused "compare: a FIFO" 2 "p.npy: $fifo" "$G" compare p.npy r.npy
refused "compare: a FIFO as B" 2 "q.npy: $fifo" "$G" compare r.npy q.npy
refused "compare: a socket" 2 "s.npy: is a socket, not a regular file" "$G" compare s.npy r.npy
refused "compare: a device" 2 "/dev/zero: is a character device" "$G" compare --dtype f32 /dev/zero r.npy
refused "compare --policy FIFO" 2 "p.json: $fifo" "$G" compare --policy p.json r.npy r.npy
refused "archcheck: a FIFO .so" 2 "p.so: $fifo" "$G" archcheck p.so
refused "archcheck: a FIFO .ptx" 2 "p.ptx: $fifo" "$G" archcheck p.ptx
refused "archcheck: a FIFO wheel" 2 "p.whl: $fifo" "$G" archcheck p.whl
grep -q 'p.whl: p.whl' "$tmp/err" "$tmp/out" && bad "archcheck names the file twice" || ok "archcheck names the file once"
refused "freeze --data FIFO" 2 "p.npy: is a named pipe \(FIFO\), not a regular file or a folder" \
    "$G" freeze --no-python --data p.npy
mkdir data && echo 1 >data/a && mkfifo data/b
refused "freeze --data: a FIFO inside the folder" 2 "data/b: is a named pipe" "$G" freeze --no-python --data data
refused "freeze --diff FIFO" 2 "p.json: $fifo" "$G" freeze --diff p.json p.json
refused "translate: a FIFO input" 2 "p.cu: $fifo" "$G" translate p.cu
printf '#include "p.h"\n__global__ void k(float *x) { x[0] = 1; }\n' >inc.cu
refused "translate: an #include of a FIFO is not opened" 2 'inc.cu:1: ./p.h: is a named pipe' "$G" translate inc.cu
refused "audit: a FIFO" 2 "p.cu: is a named pipe \(FIFO\)" "$G" audit p.cu
mkdir tree && printf 'cudaMalloc(&p, 4);\n' >tree/ok.cu && mkfifo tree/stuck.cu
refused "audit: a FIFO inside a tree is not opened" 1 "ok.cu" "$G" audit tree
refused "bench --compare FIFO" 2 "p.json: $fifo" "$G" bench --compare p.json p.json

# doctor over a machine tree whose files are FIFOs: it finishes, and each check names the file
fx=$GPUPORT_SOURCE_DIR/tests/doctor/fixtures/h100-driver-535-toolkit-12.4
cp -r "$fx" root
for f in etc/os-release proc/driver/nvidia/version usr/local/cuda-12.4/version.json; do
    rm "root/$f" && mkfifo "root/$f"
done
mkdir drv && mkfifo drv/libcuda.so.1
doctor() {
    env -i PATH=/usr/bin:/bin HOME=/root NO_COLOR=1 CUDA_HOME=/usr/local/cuda-12.4 \
        GPUPORT_DRIVER_PATH="$tmp/drv" timeout 10 "$G" doctor --root root "$@" </dev/null
}
doctor >"$tmp/out" 2>&1
rc=$?
if [ $rc = 124 ]; then
    bad "doctor --root with FIFOs: hung"
else
    ok "doctor --root with FIFOs finishes (exit $rc)"
    for f in /etc/os-release /proc/driver/nvidia/version /usr/local/cuda-12.4/version.json; do
        grep -Eq "$f: $fifo" "$tmp/out" &&
            ok "doctor says it could not read $f" || { bad "doctor does not name $f:"; cat "$tmp/out"; }
    done
    grep -Eq "drv/libcuda.so.1: $fifo" "$tmp/out" && ok "doctor refuses a FIFO libcuda.so.1" ||
        { bad "doctor does not name the FIFO libcuda.so.1:"; cat "$tmp/out"; }
fi
exit $fail
