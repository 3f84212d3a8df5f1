#!/usr/bin/env bash
# gpu-bench.sh — `gpuport bench` on a CUDA device and the comparisons its targets name, in one go:
#   1. gpuport bench --device cuda --json (and --plot): every benchmark, verified;
#   2. the dialect STREAM copy against 4.8 TB/s (the H200's HBM3e peak; target >= 85%);
#   3. gpuport's pinned host<->device copies against a direct cuMemcpyHtoDAsync/DtoHAsync loop in
#      the same program (bench/cuda_pinned.c; target >= 90%);
#   4. the dialect SGEMM as a fraction of cuBLAS (TF32 off), as reported by step 1.
# Usage: bench/gpu-bench.sh [BUILD_DIR [OUT_DIR [SPEC]]]  (defaults: build, a temporary folder, cuda)
# Exit: 0 ran and verified (targets are reported, not enforced), else gpuport bench's exit code;
# 77 when no CUDA device can be opened.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=${2:-$(mktemp -d)}
spec=${3:-cuda}
mkdir -p "$out"
gpuport="$build/gpuport"
[ -x "$gpuport" ] || { echo "gpu-bench.sh: $gpuport not found; build first (scripts/build.sh)" >&2; exit 2; }
if ! "$gpuport" devices 2>/dev/null | grep -q "^  ${spec%%:*}:"; then
    echo "gpu-bench.sh: no ${spec%%:*} device here; skipped" >&2
    exit 77
fi

echo "== gpuport bench --device $spec --json (results in $out/bench-cuda.json, plot bench-cuda.svg)"
"$gpuport" bench --device "$spec" --json --plot "$out/bench-cuda.svg" >"$out/bench-cuda.json"
rc=$?
[ $rc -eq 0 ] || { echo "gpu-bench.sh: gpuport bench exited $rc" >&2; exit $rc; }
"$gpuport" bench --compare "$out/bench-cuda.json" "$out/bench-cuda.json" | sed -n '1,2p'

python3 - "$out/bench-cuda.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
res = {r["name"]: r for r in doc["results"]}
def med(n):
    r = res.get(n)
    return r["median"] if r and r["median"] is not None else None
print("device: %s (%s)" % (doc["device"]["name"], doc["device"]["spec"]))
for r in doc["results"]:
    if r["name"].startswith(("memory.", "launch.", "gemm.")) or r["name"].endswith("512MiB"):
        v = "%.4g" % r["median"] if r["median"] is not None else "-"
        f = "%.1f%%" % (100 * r["fraction"]) if r["fraction"] is not None else "-"
        print("  %-30s %12s %-8s cv %5s  of peak %7s  (%s)" % (
            r["name"], v, r["unit"], "%.1f%%" % (100 * r["cv"]) if r["cv"] is not None else "-",
            f, r["peak_source"]))
copy = med("memory.copy")
if copy is not None:
    frac = copy / 4800.0
    print("target: dialect copy %.0f GB/s = %.1f%% of 4.8 TB/s (target >= 85%%): %s"
          % (copy, 100 * frac, "met" if frac >= 0.85 else "MISSED"))
for n in (4096, 8192):
    d, c = med("gemm.dialect.%d" % n), med("gemm.cublas-notf32.%d" % n)
    if d is not None and c is not None:
        print("report: dialect SGEMM %d: %.0f GFLOP/s = %.1f%% of cuBLAS (TF32 off) %.0f GFLOP/s"
              % (n, d, 100 * d / c, c))
    else:
        print("report: SGEMM %d: dialect %s, cuBLAS %s" % (n, d, c))
PY

echo "== pinned copies: gpuport vs a direct cuMemcpy*Async loop, same program (target >= 90%)"
bin="$out/cuda_pinned"
# <cjson/cJSON.h>: the folder above the one pkg-config names (which may be an unpacked copy)
cjson_inc=()
for f in $(pkg-config --cflags-only-I libcjson 2>/dev/null); do cjson_inc+=("$f" "$(dirname "${f#-I}" | sed 's/^/-I/')"); done
${CC:-cc} -std=gnu11 -O2 -D_GNU_SOURCE -I"$root/include" -I"$root/src" "${cjson_inc[@]}" "$root/bench/cuda_pinned.c" \
    "$build/libgpuport_tools.a" "$build/libgpuport.a" $(pkg-config --libs libcjson) -lcrypto -lz \
    -lpthread -ldl -lm -o "$bin" || { echo "gpu-bench.sh: cannot build cuda_pinned" >&2; exit 3; }
"$bin" "$spec" | tee "$out/pinned.txt"
exit "${PIPESTATUS[0]}"
