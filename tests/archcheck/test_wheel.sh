#!/usr/bin/env bash
# Wheels: the shared libraries inside a .whl are read from the zip, stored ones in place and
# deflated ones inflated (streamed, capped); each reads exactly like the same library on disk;
# a PyTorch wheel gets the CUDA wheel variant in its fix; a wheel without CUDA code says so; a
# corrupt wheel is an error naming it.
set -u
py=$(command -v python3) || { echo "SKIP: python3 is needed to build the test wheels"; exit 77; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "SKIP: nvcc is not installed, so no CUDA libraries can be built to pack"; exit 77; }
. "$GPUPORT_SOURCE_DIR/tests/archcheck/kernels.sh"
[ $fail = 0 ] || exit 1
kern=$out
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$py" - "$tmp" "$kern" <<'PY'
import sys, zipfile
tmp, kern = sys.argv[1], sys.argv[2]
w = tmp + "/torch-2.7.1+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"
with zipfile.ZipFile(w, "w") as z:
    z.write(kern + "/multi", "torch/lib/libmulti_stored.so", compress_type=zipfile.ZIP_STORED)
    z.write(kern + "/a90", "torch/lib/liba90_deflated.so.12", compress_type=zipfile.ZIP_DEFLATED)
    z.write("/bin/true", "torch/lib/libhost.so", compress_type=zipfile.ZIP_DEFLATED)
    z.writestr("torch/version.py", "__version__ = '2.7.1+cu126'\n")
with zipfile.ZipFile(tmp + "/plain-1.0-py3-none-any.whl", "w") as z:
    z.writestr("plain/__init__.py", "")
data = open(w, "rb").read()
open(tmp + "/broken-1.0-py3-none-any.whl", "wb").write(data[: len(data) // 2])
PY
wheel=$tmp/torch-2.7.1+cu126-cp312-cp312-manylinux_2_28_x86_64.whl
"$GPUPORT" archcheck --json --cc 8.6 --cc 12.0 "$wheel" >"$tmp/w.json"; wrc=$?
"$GPUPORT" archcheck --json --cc 8.6 --cc 12.0 "$kern/multi" "$kern/a90" >"$tmp/d.json"
"$py" - "$tmp/w.json" "$tmp/d.json" "$wrc" <<'PY' || fail=1
import json, sys
w = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2])); rc = int(sys.argv[3])
names = [f["path"].split("!")[1] for f in w["files"]]
assert names == ["torch/lib/libmulti_stored.so", "torch/lib/liba90_deflated.so.12"], names
assert w["files_without_device_code"] == 1, w["files_without_device_code"]
strip = lambda f: ([{k: v for k, v in e.items() if k != "name"} for e in f["entries"]], f["verdicts"], f["containers"])
for a, b in zip(w["files"], d["files"]):
    assert strip(a) == strip(b), (a["path"], strip(a), strip(b))
assert w["fix"]["torch_wheels"]["12.0"] == "cu128, cu129, cu130", w["fix"]
assert rc == 1, rc
print("ok   wheel members read like the files on disk (stored and deflated)")
PY
"$GPUPORT" archcheck --cc 12.0 "$wheel" >"$tmp/h.txt" 2>&1
grep -q "PyTorch: a GPU of CC 12.0 needs a cu128, cu129, cu130 wheel" "$tmp/h.txt" &&
    echo "ok   PyTorch fix names the wheel variant" || { echo "FAIL no PyTorch fix:"; cat "$tmp/h.txt"; fail=1; }
# An installed PyTorch (a folder under site-packages/torch) gets the same advice.
mkdir -p "$tmp/venv/lib/python3.12/site-packages/torch/lib"
cp "$kern/a90" "$tmp/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so"
"$GPUPORT" archcheck --summary --gpu "RTX 5090" "$tmp/venv" >"$tmp/v.txt" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "CC 12.0 (sm_120[^)]*) *no image" "$tmp/v.txt" && grep -q "PyTorch: a GPU of CC 12.0 needs a cu128" "$tmp/v.txt" &&
    echo "ok   site-packages/torch folder: verdict and wheel variant" || { echo "FAIL torch folder: exit $rc"; cat "$tmp/v.txt"; fail=1; }
"$GPUPORT" archcheck "$tmp/plain-1.0-py3-none-any.whl" >"$tmp/p.txt" 2>&1; rc=$?
[ $rc = 1 ] && grep -q "plain-1.0-py3-none-any.whl: does not contain CUDA device code" "$tmp/p.txt" &&
    echo "ok   wheel without CUDA code" || { echo "FAIL plain wheel: exit $rc"; cat "$tmp/p.txt"; fail=1; }
"$GPUPORT" archcheck "$tmp/broken-1.0-py3-none-any.whl" >"$tmp/b.txt" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "broken-1.0-py3-none-any.whl: not a readable wheel" "$tmp/b.txt" &&
    echo "ok   corrupt wheel is an error naming it" || { echo "FAIL broken wheel: exit $rc"; cat "$tmp/b.txt"; fail=1; }
exit $fail
