#!/usr/bin/env bash
# --device asks the CUDA driver for this machine's GPUs. No GPU is here, so the test suite's
# stand-in libcuda.so.1 (tests/standins/) plays the driver, with the GPUs named in
# GPUPORT_STANDIN_GPUS ("name|cc|MiB|SMs|uuid;..."); without any driver, --device must say so
# clearly and exit 2.
set -u
py=$(command -v python3) || { echo "SKIP: python3 is needed to read the JSON"; exit 77; }
standin=$GPUPORT_BUILD_DIR/standins
gpu() { echo "Stand-in GPU $1|$2|16384|40|GPU-$1"; }
[ -e "$standin/libcuda.so.1" ] || { echo "FAIL: the stand-in driver was not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$py" - "$tmp/k.fatbin" <<'PY'
import struct, sys
def entry(kind, arch, isa=(0, 0)):
    return struct.pack("<HHIQIIHHIIIQQQ", kind, 0x101, 0x40, 8, 0, 0, isa[1], isa[0], arch, 0, 0, 0x11, 0, 0) + b"\0" * 8
body = entry(2, 86) + entry(1, 86, (8, 5))
open(sys.argv[1], "wb").write(struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body)
PY
LD_LIBRARY_PATH=$standin GPUPORT_STANDIN_GPUS="$(gpu 0 8.6);$(gpu 1 12.0);$(gpu 2 7.5)" "$GPUPORT" archcheck --device --json "$tmp/k.fatbin" >"$tmp/j" 2>"$tmp/e"
rc=$?
"$py" - "$tmp/j" "$rc" <<'PY' || fail=1
import json, sys
v = {x["cc"]: x["status"] for x in json.load(open(sys.argv[1]))["files"][0]["verdicts"]}
assert v == {"8.6": "runs", "12.0": "runs_after_jit", "7.5": "no_image"}, v
assert sys.argv[2] == "1", sys.argv[2]
print("ok   --device judges for each GPU the driver reports")
PY
LD_LIBRARY_PATH=$standin GPUPORT_STANDIN_GPUS="$(gpu 0 8.9)" "$GPUPORT" archcheck --device "$tmp/k.fatbin" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc = 0 ] && grep -q "Stand-in GPU 0, compute capability 8.9" "$tmp/e" && grep -q "CC 8.9 (sm_89, Stand-in GPU 0) *runs" "$tmp/o" &&
    echo "ok   --device names the device" || { echo "FAIL --device 8.9: exit $rc"; cat "$tmp/o" "$tmp/e"; fail=1; }
LD_LIBRARY_PATH=$standin GPUPORT_STANDIN_GPUS= GPUPORT_STANDIN_CUINIT=0 "$GPUPORT" archcheck --device "$tmp/k.fatbin" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc = 2 ] && grep -q "sees no GPU" "$tmp/e" && echo "ok   driver without GPUs" ||
    { echo "FAIL no GPUs: exit $rc"; cat "$tmp/e"; fail=1; }
LD_LIBRARY_PATH=$standin GPUPORT_STANDIN_GPUS="$(gpu 0 8.6)" GPUPORT_STANDIN_CUINIT=100 "$GPUPORT" archcheck --device "$tmp/k.fatbin" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc = 2 ] && grep -q "cuInit failed" "$tmp/e" && echo "ok   cuInit failure" ||
    { echo "FAIL cuInit failure: exit $rc"; cat "$tmp/e"; fail=1; }
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    env -u LD_LIBRARY_PATH "$GPUPORT" archcheck --device "$tmp/k.fatbin" >"$tmp/o" 2>"$tmp/e"
    rc=$?
    [ $rc = 2 ] && grep -q "no NVIDIA driver on this machine" "$tmp/e" && echo "ok   no driver: clear message, exit 2" ||
        { echo "FAIL no driver: exit $rc"; cat "$tmp/e"; fail=1; }
else
    echo "note: a real libcuda.so.1 is installed; the no-driver case was not run"
fi
exit $fail
