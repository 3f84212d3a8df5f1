#!/usr/bin/env bash
# test_bench_cuda_standin.sh — `gpuport bench --device cuda --quick` against the STAND-IN
# libcuda.so.1 of tests/standins (here one H200-like device: its attributes, device memory kept in host memory, kernels recorded but never run). Checks the
# CUDA path end to end without a GPU: the peaks derived from the driver attributes (memory clock x
# bus width, SM clock x SMs x the sm_90 lanes), the discrete transfer rows (pageable and pinned,
# both directions, data verified), and that kernels which do not run are caught as wrong results
# (exit 1, each named) rather than reported as fast.
set -u
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -shared -fPIC -O1 -I"$GPUPORT_SOURCE_DIR/tests/standins" -o "$tmp/libcuda.so.1" \
    "$GPUPORT_SOURCE_DIR/tests/standins/libcuda_standin.c" ||
    { echo "SKIP: no C compiler to build the stand-in libcuda.so.1"; exit 77; }
export GPUPORT_CUDA_LIBRARY="$tmp/libcuda.so.1" LD_LIBRARY_PATH="$tmp" GPUPORT_CACHE_DIR="$tmp/cache"
export GPUPORT_STANDIN_GPUS="NVIDIA H200 (stand-in)|9.0|143771|132|GPU-standin" GPUPORT_STANDIN_CUDA_VERSION=13000
"$GPUPORT" devices 2>/dev/null | grep -q '^  cuda:0' ||
    { echo "SKIP: the CUDA backend cannot open the stand-in (NVRTC missing?)"; exit 77; }
"$GPUPORT" bench --device cuda --quick --json >"$tmp/out.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "exit $rc, expected 1 (kernels do not run on the stand-in): $(cat "$tmp/err")"
grep -q 'cuda:0: memory.copy: wrong result' "$tmp/err" || fail "memory.copy not named"
grep -q 'cuda:0: gemm.dialect.64: wrong result' "$tmp/err" || fail "gemm.dialect.64 not named"
python3 - "$tmp/out.json" <<'PY' || fail "JSON"
import json, math, sys
d = json.load(open(sys.argv[1]))
dev = d["device"]
assert (dev["clock_mhz"], dev["memory_clock_mhz"], dev["bus_width_bits"]) == (1980, 2619, 6144), dev
p = dev["peaks"]
# the stand-in's attributes: 2619000 kHz x 6144/8 bytes x 2; 1980000 kHz x 132 SMs x 128 x 2
assert math.isclose(p["memory"]["value"], 2619000e3 * 768 * 2 / 1e9), p["memory"]
assert "memory clock 2619 MHz x bus 6144 bits" in p["memory"]["source"], p["memory"]
assert math.isclose(p["fp32"]["value"], 1980000e3 * 132 * 128 * 2 / 1e9), p["fp32"]
assert "sm_90 table" in p["fp32"]["source"], p["fp32"]
assert p["h2d"]["value"] is None and "unknown peak" in p["h2d"]["source"], p["h2d"]
names = {r["name"] for r in d["results"]}
for k in ("h2d.pageable", "h2d.pinned", "d2h.pageable", "d2h.pinned"):
    for s in ("4KiB", "64KiB", "1MiB", "4MiB"):
        assert "transfer.%s.%s" % (k, s) in names, (k, s)
assert not any(n.startswith("memory.") or n.startswith("gemm.dialect") for n in names), names
assert {"launch.submit", "launch.roundtrip.p50", "launch.roundtrip.p99"} <= names
PY
echo ok
