#!/usr/bin/env bash
# test_opencl_cli.sh — what a user sees of the OpenCL backend in `gpuport devices --json`: the
# PoCL device with its facts, and the three reasons OpenCL is skipped (loader not found, with the
# paths tried; no platform; no device), each caused by the environment variable that does it.
set -euo pipefail
: "${GPUPORT:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir "$tmp/empty"
# the ICD loader's file name: a Windows build (run under Wine) looks for OpenCL.dll
libname=libOpenCL.so.1
[ "${GPUPORT_TARGET_OS:-}" = windows ] && libname=OpenCL.dll

# $1: a name for the run; the rest: VAR=VALUE settings for it
devices_json() {
    local name=$1
    shift
    env "$@" "$GPUPORT" devices --json >"$tmp/$name.json" || fail "gpuport devices --json ($name) exited $?"
}

devices_json plain
outcome=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print([b for b in d["backends"] if b["backend"]=="opencl"][0]["outcome"])' "$tmp/plain.json")
if [ "$outcome" != available ]; then
    echo "SKIP: OpenCL is not usable here ($outcome); install pocl-opencl-icd"
    exit 77
fi
python3 - "$tmp/plain.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ocl = [x for x in d["devices"] if x["backend"] == "opencl"]
assert ocl, "no OpenCL device listed"
assert ocl[0]["spec"] == "opencl:0", ocl[0]["spec"]
pocl = [x for x in ocl if "pthread" in x["name"] or "basic" in x["name"] or "cpu" in x["name"].lower()]
for x in pocl:  # PoCL's CPU device: host memory, fp64
    assert x["unified_memory"] in (True, 1), x
    assert x["fp64"] in (True, 1), x
    assert x["max_group_size"] >= 1 and x["compute_units"] >= 1, x
sel = {s["backend"]: s for s in d["auto"]["selection"]}
gpu_first = any(sel[b]["outcome"] == "chosen" for b in ("cuda", "metal"))
if not gpu_first:
    assert sel["opencl"]["outcome"] == "chosen", sel["opencl"]
PY

# loader not found: an empty folder as the only place to look
devices_json nolib "GPUPORT_OPENCL_LIBRARY_PATH=$tmp/empty"
python3 - "$tmp/nolib.json" "$tmp/empty" "$libname" <<'PY'
import json, sys
d, empty, libname = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
b = [b for b in d["backends"] if b["backend"] == "opencl"][0]
assert b["outcome"] == "library not found", b
assert empty + "/" + libname in b["detail"], b["detail"]
assert not any(x["backend"] == "opencl" for x in d["devices"])
dev = d["auto"]["device"]
assert dev is None or not dev.startswith("opencl"), dev
PY
"$GPUPORT" devices >/dev/null 2>&1 || fail "plain gpuport devices failed"
# (into a file: grep -q on a pipe would end the pipe before gpuport has written everything)
env "GPUPORT_OPENCL_LIBRARY_PATH=$tmp/empty" "$GPUPORT" devices >"$tmp/nolib.txt" || fail "gpuport devices (nolib) exited $?"
grep -q "opencl  library not found: .*$tmp/empty/$libname" "$tmp/nolib.txt" \
    || fail "the human output does not say where it looked"

# no platform: the ICD loader's own vendor folder, empty (some loaders, as on GPU machines'
# images, also find ICDs named elsewhere: then this case cannot be made and says so)
devices_json noplat "OCL_ICD_VENDORS=$tmp/empty" "OCL_ICD_FILENAMES="
python3 - "$tmp/noplat.json" <<'PY'
import json, sys
b = [b for b in json.load(open(sys.argv[1]))["backends"] if b["backend"] == "opencl"][0]
if b["outcome"] == "available":
    print("SKIP: this ICD loader does not honour OCL_ICD_VENDORS alone: " + b["detail"])
    sys.exit(0)
assert b["outcome"] == "no device" and "no OpenCL platform" in b["detail"], b
PY

# no device: PoCL told to offer a device driver it does not have (only where PoCL is the only
# platform: another vendor's devices stay)
devices_json nodev "POCL_DEVICES=gp-no-such-driver"
python3 - "$tmp/nodev.json" "$tmp/plain.json" <<'PY'
import json, sys
plain = [b for b in json.load(open(sys.argv[2]))["backends"] if b["backend"] == "opencl"][0]
b = [b for b in json.load(open(sys.argv[1]))["backends"] if b["backend"] == "opencl"][0]
others = [p for p in plain["detail"].split("; ") if "Portable Computing Language" not in p]
if others:
    print("SKIP: platforms other than PoCL here: " + "; ".join(others))
    sys.exit(0)
assert b["outcome"] == "no device" and "no OpenCL device" in b["detail"], b
PY
echo "ok"
