#!/usr/bin/env bash
# test_cuda_driver_places.sh — the CUDA backend finds the driver library where NVIDIA's driver
# installs it, without being told (no GPUPORT_CUDA_LIBRARY), and `gpuport devices` shows what it
# answers. The driver is the suite's stand-in (tests/standins), placed as the real one is:
#   Linux    libcuda.so.1 on the dynamic loader's path (LD_LIBRARY_PATH here)
#   Windows  System32\nvcuda.dll, else the driver store's copy, nvcuda64.dll in
#            System32\DriverStore\FileRepository\nv*.inf_amd64_*; a Windows build runs here
#            under Wine, in a Wine prefix (a Windows installation) the test makes for itself
# Then: a driver without devices, and a library of the right name without the entry points.
set -euo pipefail
: "${GPUPORT:?}" "${GPUPORT_BUILD_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
b=$GPUPORT_BUILD_DIR
gpu="NVIDIA GeForce RTX 4090|8.9|24564|128|GPU-5f1c2a"
unset GPUPORT_CUDA_LIBRARY

if [ "${GPUPORT_TARGET_OS:-}" = windows ]; then
    : "${GPUPORT_TEST_RUNNER:?}"
    export WINEPREFIX=$tmp/prefix
    "$GPUPORT_TEST_RUNNER" wineboot -i >"$tmp/wineboot.log" 2>&1 || { cat "$tmp/wineboot.log"; fail "wineboot"; }
    sys32=$WINEPREFIX/drive_c/windows/system32
    store=$sys32/DriverStore/FileRepository/nvgpu.inf_amd64_0
    places=(system32 driver-store)
    # the file each place's driver is loaded from, as the backend reports it
    declare -A loaded=([system32]='System32\nvcuda.dll'
        [driver-store]='FileRepository\nvgpu.inf_amd64_0\nvcuda64.dll')
    empty=empty
    libname=nvcuda.dll
else
    places=(standins)
    declare -A loaded=([standins]=standins/libcuda.so.1)
    empty=standins-empty
    libname=libcuda.so.1
fi

# puts the driver in $1 (Windows), where it is the only one
install_driver() {
    rm -f "$sys32/nvcuda.dll"
    rm -rf "$store"
    case $1 in
    system32) cp "$b/standins-windows/nvcuda.dll" "$sys32/nvcuda.dll" ;;
    driver-store) mkdir -p "$store" && cp "$b/standins-windows/nvcuda.dll" "$store/nvcuda64.dll" ;;
    empty) cp "$b/standins-windows-empty/nvcuda.dll" "$sys32/nvcuda.dll" ;;
    esac
}

# $1: name of the run, $2: where the driver is; the rest: VAR=VALUE
devices() {
    local name=$1 place=$2
    shift 2
    if [ "${GPUPORT_TARGET_OS:-}" = windows ]; then
        install_driver "$place"
        env "$@" "$GPUPORT" devices --json >"$tmp/$name.json"
    else
        env "LD_LIBRARY_PATH=$b/$place${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@" \
            "$GPUPORT" devices --json >"$tmp/$name.json"
    fi || fail "gpuport devices --json ($name) exited $?"
}

for place in "${places[@]}"; do
    devices "found-$place" "$place" "GPUPORT_STANDIN_GPUS=$gpu" GPUPORT_STANDIN_CUDA_VERSION=13000
    python3 - "$tmp/found-$place.json" "${loaded[$place]}" <<'PY'
import json, sys
d, loaded = json.load(open(sys.argv[1])), sys.argv[2]
b = [b for b in d["backends"] if b["backend"] == "cuda"][0]
assert b["outcome"] == "available", b
assert loaded in b["detail"], (loaded, b["detail"])
cuda = [x for x in d["devices"] if x["backend"] == "cuda"]
assert [x["spec"] for x in cuda] == ["cuda:0"], cuda
x = cuda[0]
assert x["name"] == "NVIDIA GeForce RTX 4090", x
assert x["compute_capability"] in ("8.9", [8, 9], {"major": 8, "minor": 9}), x["compute_capability"]
assert x["total_memory"] == 24564 * 1024 * 1024, x["total_memory"]
assert x["compute_units"] == 128, x
assert d["auto"]["device"] == "cuda:0", d["auto"]
PY
    echo "ok   driver found in $place"
done

# the driver is there and answers, but has no device: a reason, not a device
devices nodev "${places[0]}" GPUPORT_STANDIN_GPUS= GPUPORT_STANDIN_CUINIT=100
python3 - "$tmp/nodev.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = [b for b in d["backends"] if b["backend"] == "cuda"][0]
assert b["outcome"] == "no device" and b["code"] == 100, b
assert "CUDA_ERROR_NO_DEVICE" in b["detail"], b["detail"]
assert not any(x["backend"] == "cuda" for x in d["devices"]), d["devices"]
assert d["auto"]["device"] is None or not d["auto"]["device"].startswith("cuda"), d["auto"]
PY
echo "ok   a driver without devices is reported"

# a library of the driver's name that lacks its entry points: reported with its path, never called
devices empty "$empty" "GPUPORT_STANDIN_GPUS=$gpu"
python3 - "$tmp/empty.json" "$libname" <<'PY'
import json, sys
d, libname = json.load(open(sys.argv[1])), sys.argv[2]
b = [b for b in d["backends"] if b["backend"] == "cuda"][0]
assert b["outcome"] == "library not found", b
assert libname + " lacks cuInit" in b["detail"], b["detail"]
assert not any(x["backend"] == "cuda" for x in d["devices"]), d["devices"]
PY
echo "ok   a library without the driver's entry points is refused"
