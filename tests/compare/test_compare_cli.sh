#!/usr/bin/env bash
# test_compare_cli.sh — `gpuport compare` end to end on files numpy writes: every input format,
# pairing (files, tensor names, folders), --reference, policy options, the JSON fields against
# numbers numpy computes, JUnit output, exit codes, and exit 2 naming the file for each kind of
# bad input.
set -u
work=$(mktemp -d "${GPUPORT_BUILD_DIR:-/tmp}/compare-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
fx=$work/fx
python3 "$GPUPORT_SOURCE_DIR/tests/compare/make_fixtures.py" "$fx" || {
    echo "FAIL: cannot generate fixtures (numpy is a test dependency: scripts/deps/python.txt)"
    exit 1
}
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect CODE -- ARGS...: runs gpuport compare, keeps stdout/stderr in $work/out, $work/err
expect() {
    local want=$1
    shift
    "$GPUPORT" compare "$@" >"$work/out" 2>"$work/err"
    local got=$?
    [ "$got" = "$want" ] || fail "compare $* exited $got, wanted $want: $(head -c 400 "$work/err")"
}
has() { grep -qF -- "$2" "$work/$1" || fail "$1 lacks '$2': $(head -c 600 "$work/$1")"; }

expect 0 "$fx/ref.npy" "$fx/same.npy"
has out "PASS"
expect 1 "$fx/ref.npy" "$fx/port.npy"
has out "FAIL  ref.npy  f32 [3, 4]"
has out "2 / 12 elements"

# JSON: exactly the documented fields, numbers as numpy computes them
expect 1 --json "$fx/ref.npy" "$fx/port.npy"
python3 - "$work/out" "$fx/expected.json" <<'PY' || fail "JSON does not match numpy's numbers"
import json, sys, math
doc = json.load(open(sys.argv[1])); exp = json.load(open(sys.argv[2]))
assert set(doc) == {"schema", "pass", "tensors"}, doc.keys()
assert doc["schema"] == "gpuport.compare/1" and doc["pass"] is False
t = doc["tensors"][0]
keys = {"name", "pass", "dtype", "shape", "count", "mismatched", "max_abs", "max_abs_index",
        "mean_abs", "max_rel", "rmse", "nmse", "cosine", "max_ulp", "p99_ulp", "nan_mismatch",
        "inf_mismatch", "nan_both", "mixed_dtypes", "worst"}
assert set(t) == keys, set(t) ^ keys
assert t["dtype"] == "f32" and t["shape"] == [3, 4] and t["count"] == 12
assert t["mismatched"] == exp["mismatched"], (t["mismatched"], exp["mismatched"])
assert t["max_abs_index"] == exp["max_abs_index"]
assert t["max_ulp"] == exp["max_ulp"]
for k in ("max_abs", "mean_abs", "rmse", "nmse"):
    assert math.isclose(t[k], exp[k], rel_tol=1e-12), (k, t[k], exp[k])
assert t["worst"][0]["index"] == exp["max_abs_index"] and len(t["worst"]) == 2
PY

# the same data in Fortran order and big-endian: same verdict, logical indices
expect 1 --json "$fx/ref.npy" "$fx/port_fortran_be.npy"
python3 -c "import json,sys; t=json.load(open('$work/out'))['tensors'][0]; assert t['max_abs_index']==[1,2], t" ||
    fail "Fortran/big-endian index"
expect 0 "$fx/ref.npy" "$fx/ref_fortran.npy"

# --reference: |x - ref| <= rtol |ref| is not symmetric
expect 1 --rtol 0.095 --atol 0 "$fx/hundred.npy" "$fx/hundred_ten.npy"
expect 0 --rtol 0.095 --atol 0 --reference b "$fx/hundred.npy" "$fx/hundred_ten.npy"
has out "reference: B"

# multi-tensor files pair by name; missing, extra, shape and dtype mismatches by name
expect 1 "$fx/a.npz" "$fx/b.npz"
has out "FAIL  w  f32 [3, 4]"
has out "PASS  b  i64 [5]"
has out "FAIL  only_a"
has out "only in A (reference)"
has out "FAIL  only_b"
has out "shapes differ: reference [4], other [5]"
# float dtypes that differ are compared widened, with the narrower dtype's tolerance; integers
# against floats (and --same-dtype, any pair) are still a dtype mismatch
has out "PASS  dt  f32/f64 [3]"
has out "dtypes       differ (reference f32, other f64): both widened to f64 and judged with f32's tolerance"
expect 1 --same-dtype "$fx/a.npz" "$fx/b.npz"
has out "dtypes differ: reference f32, other f64"
expect 0 "$fx/a_same_stored.npz" "$fx/a_same.npz"

# a Mac run in f16 against a CUDA run in f32: f16's tolerance (rtol 1e-2), ULPs in f16
python3 - "$work/mixed" <<'PY'
import os, sys
import numpy as np
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
x = np.random.default_rng(3).standard_normal((8, 16)).astype(np.float32)
np.save(os.path.join(d, "cuda.npy"), x)
np.save(os.path.join(d, "mac.npy"), x.astype(np.float16))
bad = x.astype(np.float16)
bad[3, 4] += np.float16(0.25)
np.save(os.path.join(d, "mac_bad.npy"), bad)
n = np.array([1, np.nan, 3, np.nan], np.float32)
np.save(os.path.join(d, "nan_a.npy"), n)
np.save(os.path.join(d, "nan_b.npy"), n.astype(np.float64))
PY
expect 0 --json "$work/mixed/mac.npy" "$work/mixed/cuda.npy"
python3 - "$work/out" <<'PY' || fail "the mixed pair's JSON"
import json, sys
t = json.load(open(sys.argv[1]))["tensors"][0]
assert t["pass"] and t["dtype"] == "f16", t
assert t["mixed_dtypes"] == {"reference": "f16", "other": "f32", "widened_to": "f32",
                             "tolerance_of": "f16"}, t["mixed_dtypes"]
assert t["max_ulp"] == 0, t["max_ulp"]  # every f32 value rounds to its f16 counterpart
PY
expect 0 --reference b "$work/mixed/mac.npy" "$work/mixed/cuda.npy"
has out "differ (reference f32, other f16): both widened to f32 and judged with f16's tolerance"
expect 1 "$work/mixed/mac_bad.npy" "$work/mixed/cuda.npy"
has out "FAIL  mac_bad.npy  f16/f32 [8, 16]  -- 1 / 128 elements"
expect 1 --same-dtype "$work/mixed/mac.npy" "$work/mixed/cuda.npy"
has out "dtypes differ: reference f16, other f32"
# NaN in the same places on both sides fails without --equal-nan, and the report says so
expect 1 "$work/mixed/nan_a.npy" "$work/mixed/nan_b.npy"
has out "2 positions hold NaN on both sides (every NaN is in the same place on both) and count as mismatched: --equal-nan"
expect 0 --equal-nan "$work/mixed/nan_a.npy" "$work/mixed/nan_b.npy"
grep -q 'equal-nan counts' "$work/out" && fail "the --equal-nan hint on a passing run"

# safetensors BF16 against an ml_dtypes-style <V2 .npy read with --dtype bf16
expect 0 "$fx/h.safetensors" "$fx/h2.safetensors"
has out "PASS  h  bf16 [2, 3]"
has out "PASS  i  i32 [2]"
expect 2 "$fx/h_v2.npy" "$fx/h_v2.npy"
has err "--dtype"
expect 0 --dtype bf16 "$fx/h_v2.npy" "$fx/h_v2.npy"

# raw binary, CSV against TSV, complex, bool
expect 0 --dtype f32 --shape 3,4 "$fx/ref.f32" "$fx/ref.npy"
expect 2 --dtype f32 --shape 3,5 "$fx/ref.f32" "$fx/ref.npy"
has err "ref.f32: file has 48 bytes but --shape and --dtype need 60"
expect 0 "$fx/t.csv" "$fx/t.tsv"
expect 1 "$fx/c.npy" "$fx/c2.npy"
has out "c64 [2]"
expect 1 "$fx/bool_a.npy" "$fx/bool_b.npy"
has out "1 / 3 elements"

# policy: port-acceptance defaults pass an f16 port that torch's strict defaults fail
expect 0 "$fx/f16_ref.npy" "$fx/f16_port.npy"
expect 1 --strict "$fx/f16_ref.npy" "$fx/f16_port.npy"
expect 0 --strict --tol 'f16_*:rtol=1e-2' "$fx/f16_ref.npy" "$fx/f16_port.npy"
echo '{"tensors": {"w": {"atol": 1, "nmse": null, "cosine": null}}}' >"$work/policy.json"
expect 1 --policy "$work/policy.json" "$fx/a_same.npz" "$fx/b.npz"
has out "PASS  w  f32"
echo '{"tensors": {"w": {"atol": "big"}}}' >"$work/bad-policy.json"
expect 2 --policy "$work/bad-policy.json" "$fx/ref.npy" "$fx/ref.npy"
has err "bad-policy.json"

# folders: paired by relative path, files of unknown type skipped, missing files by name
expect 1 "$fx/dir_a" "$fx/dir_b"
has out "PASS  x.npy"
has out "FAIL  sub/y.npy"
has out "FAIL  only_here.npy"
has out "1 file of unknown type skipped"
has out "FAIL  m.npz:w  f32 [3, 4]"
has out "PASS  m.npz:v  f64 [3]"
# a --tol pattern may itself hold ':' (the settings follow the last one)
expect 1 --tol 'm.npz:w:atol=1,nmse=off,cosine=off' "$fx/dir_a" "$fx/dir_b"
has out "PASS  m.npz:w"

# NaN/Inf placement: classified, counted, and valid JSON (non-finite values are null)
expect 1 --json "$fx/nan_a.npy" "$fx/nan_b.npy"
python3 - "$work/out" <<'PY' || fail "NaN/Inf JSON"
import json, sys
t = json.load(open(sys.argv[1]))["tensors"][0]
assert t["nan_mismatch"] == 2 and t["inf_mismatch"] == 1 and t["mismatched"] == 3, t
assert t["max_abs"] == 0 and t["max_abs_index"] == [0], t
w = {tuple(x["index"]): x for x in t["worst"]}
assert w[(1,)]["ref"] is None and w[(1,)]["other"] == 2.0 and w[(1,)]["abs"] is None, w
assert w[(3,)]["other"] is None, w
PY
expect 2 "$fx/dir_a" "$fx/ref.npy"

# JUnit: written atomically, replaced on the next run, untouched when an input is bad
expect 1 --junit "$work/junit.xml" "$fx/a.npz" "$fx/b.npz"
python3 - "$work/junit.xml" <<'PY' || fail "JUnit report"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find("testsuite")
cases = suite.findall("testcase")
assert int(suite.get("tests")) == len(cases) == 6, len(cases)
failed = [c.get("name") for c in cases if c.find("failure") is not None]
assert sorted(failed) == ["only_a", "only_b", "shp", "w"], failed
PY
expect 0 --junit "$work/junit.xml" "$fx/ref.npy" "$fx/same.npy"
grep -q 'failures="0"' "$work/junit.xml" || fail "JUnit file not replaced"
cp "$work/junit.xml" "$work/junit.before"
expect 2 --junit "$work/junit.xml" "$fx/ref.npy" "$fx/bad/truncated.npy"
cmp -s "$work/junit.xml" "$work/junit.before" || fail "JUnit file touched on bad input"

# bad input: exit 2, the message names the file and the problem, nothing on stdout
bad() {
    local file=$1 msg=$2
    shift 2
    expect 2 "$@" "$fx/ref.npy" "$fx/bad/$file"
    has err "$fx/bad/$file"
    has err "$msg"
    [ ! -s "$work/out" ] || fail "partial output for bad $file"
}
bad truncated.npy "(truncated)"
bad header_lies.npy "runs past the end of the file"
bad overflow.npy "overflows 64 bits"
bad object.npy "object arrays are refused"
bad bomb.npz "over the limit" --max-inflate 1000000
bad liar.npz "inflates past its declared 64 bytes"
bad overlap.safetensors "overlap"
bad gap.safetensors "gap of 4 bytes"
bad dup.safetensors "the key 'a' twice"
bad huge_header.safetensors "over the limit of 100000000 bytes"
# --max-inflate holds for the whole run: two archives that each fit, but not together, are
# refused; pairs one after another each get it whole again (one pair is open at a time)
python3 - "$work/inflate" <<'PY'
import os, sys
import numpy as np
d = sys.argv[1]
for side in "ab":
    for k in range(3):
        os.makedirs(os.path.join(d, side), exist_ok=True)
        np.savez_compressed(os.path.join(d, side, f"p{k}.npz"), z=np.zeros(1000000, np.uint8))
PY
expect 2 --max-inflate 1500000 "$work/inflate/a/p0.npz" "$work/inflate/b/p0.npz"
has err "inflate/b/p0.npz: member 'z.npy': inflates to 1000128 bytes, over the limit of 499872 bytes left"
has err "max-inflate (1500000 bytes) holds for the whole run, and the other file of this pair holds 1000128 of them"
expect 0 --max-inflate 2000256 "$work/inflate/a" "$work/inflate/b"
has out "PASS  p2.npz"

bad mystery.bin "unknown file type"
bad ragged.csv "line 2 has 1 field, earlier lines have 2"
expect 2 "$fx/ref.npy" "$fx/does-not-exist.npy"
has err "does-not-exist.npy"

# usage
expect 0 --help
has out "usage: gpuport compare"
expect 2 --bogus "$fx/ref.npy" "$fx/ref.npy"
expect 2 "$fx/ref.npy"
expect 2 --reference c "$fx/ref.npy" "$fx/ref.npy"
expect 2 --atol -1 "$fx/ref.npy" "$fx/ref.npy"
expect 2 --shape 3,4 "$fx/ref.f32" "$fx/ref.f32"
# two folders with nothing to compare: an error, not a pass over zero tensors
mkdir -p "$work/empty_a" "$work/empty_b"
expect 2 "$work/empty_a" "$work/empty_b"
has err "nothing to compare"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all compare CLI checks passed"
