#!/usr/bin/env bash
# test_bench_cli.sh — `gpuport bench --quick` on the CPU backend and on PoCL: the JSON structure,
# every benchmark verified (exit 0), fractions = median / peak, --peak overrides, --only, --plot
# (well-formed XML with data), --compare (and its malformed inputs, exit 2 naming the file), and a
# miscompiled kernel caught as a wrong result (exit 1 naming it). Speed is never asserted.
set -u
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPORT_CACHE_DIR="$tmp/cache"
check="python3 $GPUPORT_SOURCE_DIR/tests/bench/check_bench_json.py"
all=(--expect-prefix memory.copy --expect-prefix memory.scale --expect-prefix memory.add
     --expect-prefix memory.triad --expect-prefix transfer.h2d --expect-prefix transfer.d2h
     --expect-prefix launch.submit --expect-prefix launch.roundtrip.p50
     --expect-prefix launch.roundtrip.p99 --expect-prefix gemm.dialect.64
     --expect-prefix gemm.dialect.128)

# --- the CPU backend: everything, with a plot ------------------------------------------------
"$GPUPORT" bench --device cpu --quick --json --plot "$tmp/cpu.svg" >"$tmp/cpu.json" 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "cpu run exited $?"; }
$check "$tmp/cpu.json" "${all[@]}" || fail "cpu JSON"
# OpenBLAS is installed where this suite runs (scripts/deps); elsewhere the row says not present
if ldconfig -p 2>/dev/null | grep -q libopenblas.so.0; then
    $check "$tmp/cpu.json" --expect-prefix gemm.openblas.128 || fail "no OpenBLAS row"
fi
python3 - "$tmp/cpu.svg" <<'PY' || fail "plot is not well-formed SVG with data"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
lines = root.findall(".//{http://www.w3.org/2000/svg}polyline")
texts = "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
assert len(lines) >= 3, len(lines)           # h2d, d2h, gemm dialect (+ openblas)
assert "cpu:0 h2d.shared" in texts and "cpu:0 dialect" in texts, texts
PY

# --- human output: the table, every benchmark, the cv legend ----------------------------------
"$GPUPORT" bench --device cpu --quick --only launch,memory >"$tmp/human.txt" || fail "human run"
grep -q '^cpu:0' "$tmp/human.txt" || fail "no device line"
grep -q 'memory.triad (GB/s)' "$tmp/human.txt" || fail "no triad row"
grep -q "'!' marks cv above 5%" "$tmp/human.txt" || fail "no cv legend"
grep -q 'gemm' "$tmp/human.txt" && fail "--only launch,memory ran gemm"

# --- --only and --peak ----------------------------------------------------------------------
"$GPUPORT" bench --device cpu --quick --only memory --peak memory=1000 --peak fp32=2000 --json \
    >"$tmp/peak.json" || fail "--peak run"
$check "$tmp/peak.json" --only-prefix memory. --peak memory=1000 \
    --expect-prefix memory.triad || fail "--peak memory"
"$GPUPORT" bench --device cpu --quick --only gemm --peak fp32=2000 --json >"$tmp/gemm.json" ||
    fail "--peak fp32 run"
$check "$tmp/gemm.json" --only-prefix gemm. --peak fp32=2000 --expect-prefix gemm.dialect ||
    fail "--peak fp32"

# --- --device all: one document per device, in a JSON array -----------------------------------
"$GPUPORT" bench --device all --quick --only launch --json >"$tmp/all.json" || fail "--device all"
python3 - "$tmp/all.json" <<'PY' || fail "--device all JSON"
import json, sys
docs = json.load(open(sys.argv[1]))
assert isinstance(docs, list) and len(docs) >= 1, docs
specs = [d["device"]["spec"] for d in docs]
assert "cpu:0" in specs, specs
for d in docs:
    assert d["schema"] == "gpuport.bench/1"
    assert [r["name"] for r in d["results"]] == ["launch.submit", "launch.roundtrip.p50",
                                                 "launch.roundtrip.p99"], d["results"]
PY

# --- --plot into a folder that does not exist: exit 2 naming the file -----------------------------
"$GPUPORT" bench --device cpu --quick --only launch --plot "$tmp/nodir/p.svg" >/dev/null 2>"$tmp/perr"
rc=$?
[ $rc -eq 2 ] || fail "--plot into a missing folder exited $rc"
grep -q 'nodir/p.svg' "$tmp/perr" || fail "the --plot error does not name the file: $(cat "$tmp/perr")"

# --- usage errors: exit 2 -----------------------------------------------------------------------
for bad in "--only nothing" "--peak memory" "--peak memory=-1" "--peak speed=3" "--device gpu7" \
           "--compare $tmp/cpu.json" "stray"; do
    # shellcheck disable=SC2086
    "$GPUPORT" bench $bad >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "'bench $bad' exited $rc, expected 2"
done
"$GPUPORT" bench --help | grep -q -- '--compare A B' || fail "--help"

# --- PoCL: everything -----------------------------------------------------------------------------
if "$GPUPORT" devices 2>/dev/null | grep -q '^  opencl:0'; then
    "$GPUPORT" bench --device opencl --quick --json >"$tmp/ocl.json" 2>"$tmp/err" ||
        { cat "$tmp/err"; fail "opencl run"; }
    $check "$tmp/ocl.json" "${all[@]}" || fail "opencl JSON"
    # the clock is the one `gpuport devices` shows, never "reports no clock" beside it
    clk() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d=d.get("device") or [x for x in d["devices"] if x["spec"]=="opencl:0"][0]; v=d.get("clock_mhz"); print(int(v) if v else 0)' "$1"; }
    "$GPUPORT" devices --json >"$tmp/devices.json" || fail "devices --json"
    want=$(clk "$tmp/devices.json") got=$(clk "$tmp/ocl.json")
    [ "$want" = "$got" ] || fail "bench's OpenCL clock ($got MHz) is not the one devices shows ($want MHz)"
    if [ "$want" != 0 ]; then
        grep -q "reports no clock" "$tmp/ocl.json" && fail "bench says the OpenCL driver reports no clock"
        grep -q "reports the clock ($want MHz) but not the FP32 lanes" "$tmp/ocl.json" ||
            fail "the FP32 peak's reason does not name the clock"
    fi
    other="$tmp/ocl.json"
else
    echo "note: no OpenCL device here; the compare test uses a second CPU run"
    cp "$tmp/peak.json" "$tmp/other.json"
    other="$tmp/other.json"
fi

# --- --compare: side by side, and malformed inputs refused naming the file -----------------------
"$GPUPORT" bench --compare "$tmp/cpu.json" "$other" >"$tmp/cmp.txt" || fail "--compare"
grep -q '^A: .*cpu.json' "$tmp/cmp.txt" || fail "compare header"
grep -q 'memory.triad (GB/s)' "$tmp/cmp.txt" || fail "compare rows"
grep -q 'B / A' "$tmp/cmp.txt" || fail "compare ratio column"
row() { printf '{"name": "%s", "unit": "GB/s", "median": %s, "min": %s, "max": %s, "cv": 0.01, "peak": 100, "peak_source": "t", "fraction": %s}' "$1" "$2" "$2" "$2" "$3"; }
printf '{"schema": "gpuport.bench/1", "device": {"spec": "cuda:0", "name": "Box"}, "results": [%s, %s]}' \
    "$(row memory.copy 10 0.1)" "$(row only.in.a 5 0.05)" >"$tmp/a.json"
printf '{"schema": "gpuport.bench/1", "device": {"spec": "metal:0", "name": "Mac"}, "results": [%s, %s]}' \
    "$(row memory.copy 25 0.25)" "$(row only.in.b 7 0.07)" >"$tmp/b.json"
"$GPUPORT" bench --compare "$tmp/a.json" "$tmp/b.json" >"$tmp/ab.txt" || fail "--compare a b"
grep -Eq 'memory.copy \(GB/s\) +10\.0 +10\.0% +25\.0 +25\.0% +2\.50x' "$tmp/ab.txt" ||
    fail "compare row: $(cat "$tmp/ab.txt")"
grep -Eq 'only.in.a .* - *$' "$tmp/ab.txt" || fail "a row only A has"
grep -Eq 'only.in.b \(GB/s\) +- +7\.000' "$tmp/ab.txt" || fail "a row only B has: $(cat "$tmp/ab.txt")"
grep -q 'B: .*b.json  Mac (metal:0)' "$tmp/ab.txt" || fail "compare header B"
printf '{"schema": "gpuport.bench/1", "device": {"spec": "x", "name": "y"}, "results": 3}' \
    >"$tmp/notarray.json"
printf '{"schema": "gpuport.compare/1", "device": {}, "results": []}' >"$tmp/schema.json"
printf '{"schema": "gpuport.bench/1", "device": {"spec": "x", "name": "y"}, "results": [{"name": "a", "unit": "GB/s", "median": "fast", "min": 1, "max": 1, "cv": 0, "peak": null, "peak_source": "", "fraction": null}]}' >"$tmp/badnum.json"
printf '{"schema": "gpuport.bench/1", "schema": "gpuport.bench/1", "device": {"spec": "x", "name": "y"}, "results": []}' >"$tmp/dup.json"
printf '{"schema": "gpuport.bench/1", "device": ' >"$tmp/truncated.json"
printf '[%s]' "$(cat "$tmp/cpu.json")" >"$tmp/array.json"
for f in notarray schema badnum dup truncated array missing; do
    "$GPUPORT" bench --compare "$tmp/cpu.json" "$tmp/$f.json" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "--compare with $f.json exited $rc, expected 2"
    grep -q "$f.json" "$tmp/err" || fail "the message does not name $f.json: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "--compare printed a partial table for $f.json"
done

# --- a miscompiled kernel is a wrong result: exit 1, named ---------------------------------------
CC="$GPUPORT_SOURCE_DIR/tests/bench/cc_miscompile.sh" GPUPORT_CACHE_DIR="$tmp/cache-bad" \
    "$GPUPORT" bench --device cpu --quick --only memory,gemm >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || fail "a miscompiled kernel exited $rc, expected 1: $(cat "$tmp/err")"
grep -q 'memory.copy: wrong result' "$tmp/err" || fail "memory.copy not named: $(cat "$tmp/err")"
grep -q 'gemm.dialect.64: wrong result' "$tmp/err" || fail "gemm not named: $(cat "$tmp/err")"
# --- no C compiler for the CPU backend: the kernels built into libgpuport run, and it says so ------
CC=/nonexistent/cc GPUPORT_CACHE_DIR="$tmp/cache-nocc" \
    "$GPUPORT" bench --device cpu --quick --only launch,memory --json >"$tmp/nocc.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "without a compiler: exit $rc, expected 0: $(cat "$tmp/err")"
python3 - "$tmp/nocc.json" <<'PY' || fail "without a compiler: the report does not say where the kernels came from"
import json, math, sys
d = json.load(open(sys.argv[1]))
dev = d["device"]
assert dev["kernels"] == "built-in", dev["kernels"]
assert "C compiler" in dev["kernels_note"], dev["kernels_note"]
names = {r["name"] for r in d["results"] if r["median"] is not None and not math.isnan(r["median"])}
assert {"memory.copy", "memory.triad", "launch.submit"} <= names, names
PY
CC=/nonexistent/cc GPUPORT_CACHE_DIR="$tmp/cache-nocc" \
    "$GPUPORT" bench --device cpu --quick --only launch >"$tmp/out" 2>"$tmp/err"
grep -q 'kernels: built into libgpuport, not compiled for this device (.*C compiler' "$tmp/out" ||
    fail "the human report does not say the kernels are the built-in copy: $(cat "$tmp/out")"
# with a compiler the kernels are compiled for the device
"$GPUPORT" bench --device cpu --quick --only launch --json >"$tmp/cc.json" 2>"$tmp/err"
python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['device']; assert d['kernels']=='source' and 'kernels_note' not in d, d" "$tmp/cc.json" ||
    fail "with a compiler the report does not say source"
echo "ok"
