#!/usr/bin/env bash
# test_cli_devices.sh — `gpuport devices` and `gpuport cache`: human and JSON output, exit codes,
# GPUPORT_DEVICE reflected in the record, the cache folder from GPUPORT_CACHE_DIR.
set -euo pipefail
: "${GPUPORT:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$GPUPORT" devices)
grep -q '^Backends' <<<"$out" || fail "no backends section"
grep -q 'cpu:0' <<<"$out" || fail "the CPU device is not listed"
grep -q -- '-> ' <<<"$out" || fail "auto's choice is not shown"

"$GPUPORT" devices --json >"$tmp/d.json"
python3 - "$tmp/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "gpuport.devices/1", d["schema"]
assert [b["backend"] for b in d["backends"]] == ["cuda", "metal", "opencl", "cpu"]
assert any(x["spec"] == "cpu:0" and x["backend"] == "cpu" for x in d["devices"])
for x in d["devices"]:
    for k in ("name", "vendor", "total_memory", "compute_units", "max_group_size", "max_group_dims",
              "max_shared_memory", "unified_memory", "fp64", "fp16", "compute_capability", "simd_width", "simd_group_width"):
        assert k in x, k
    # SIMD-group operations: emulated in groups of 32 on the CPU, none on OpenCL
    assert x["simd_group_width"] == {"cpu": 32, "opencl": 0, "cuda": 32, "metal": 32}[x["backend"]], x
    for k in ("clock_mhz", "memory_clock_mhz", "memory_bus_width", "l2_cache_kib", "pci_bus_id"):
        assert k in x, k
    if x["backend"] == "opencl":  # CL_DEVICE_MAX_CLOCK_FREQUENCY (PoCL reports the host's)
        assert isinstance(x["clock_mhz"], (int, float)) and x["clock_mhz"] > 0, x
sel = d["auto"]["selection"]
assert [s["backend"] for s in sel] == ["cuda", "metal", "opencl", "cpu"]
assert sum(s["outcome"] == "chosen" for s in sel) == 1
assert d["auto"]["device"] is not None
PY

GPUPORT_DEVICE=cpu "$GPUPORT" devices --json >"$tmp/e.json"
python3 -c "
import json,sys
d=json.load(open('$tmp/e.json'))
sel={s['backend']:s for s in d['auto']['selection']}
assert d['auto']['gpuport_device']=='cpu'
assert sel['cuda']['outcome']=='excluded by GPUPORT_DEVICE', sel['cuda']
assert sel['opencl']['outcome']=='excluded by GPUPORT_DEVICE'
assert sel['cpu']['outcome']=='chosen'
"

set +e
GPUPORT_DEVICE=nonsense "$GPUPORT" devices >"$tmp/o" 2>&1; rc=$?
set -e
[ "$rc" = 1 ] || fail "bad GPUPORT_DEVICE: exit $rc, wanted 1"
grep -q "'nonsense' is not a device spec" "$tmp/o" || fail "bad GPUPORT_DEVICE not explained"

"$GPUPORT" devices --help | grep -q 'usage: gpuport devices' || fail "--help"
set +e
"$GPUPORT" devices --bogus >/dev/null 2>&1; rc=$?
"$GPUPORT" devices extra >/dev/null 2>&1; rc2=$?
set -e
[ "$rc" = 2 ] && [ "$rc2" = 2 ] || fail "usage errors: $rc $rc2"

# cache: the folder comes from GPUPORT_CACHE_DIR; a build through the CLI's library fills it
export GPUPORT_CACHE_DIR="$tmp/cache"
"$GPUPORT" cache info | grep -q "folder:  $tmp/cache" || fail "cache folder"
"$GPUPORT" cache info --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d['schema']=='gpuport.cache/1' and d['entries']==0, d"
mkdir -p "$tmp/cache"
printf x >"$tmp/cache/$(printf '%064d' 0).so"
printf y >"$tmp/cache/$(printf '%064d' 0).so.sha256"
printf keep >"$tmp/cache/notes.txt"
"$GPUPORT" cache info --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d['entries']==1 and d['bytes']==2, d"
"$GPUPORT" cache clear | grep -q 'removed 1 entries' || fail "cache clear"
[ -f "$tmp/cache/notes.txt" ] || fail "cache clear removed a file gpuport did not write"
"$GPUPORT" cache info --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d['entries']==0, d"
set +e
"$GPUPORT" cache frobnicate >/dev/null 2>&1; rc=$?
"$GPUPORT" cache >/dev/null 2>&1; rc2=$?
set -e
[ "$rc" = 2 ] && [ "$rc2" = 2 ] || fail "cache usage errors: $rc $rc2"
# GPUPORT_NUM_THREADS sets the CPU backend's threads (reported as compute units)
GPUPORT_NUM_THREADS=3 "$GPUPORT" devices --json | python3 -c "
import json,sys
d=json.load(sys.stdin)
cpu=[x for x in d['devices'] if x['backend']=='cpu'][0]
assert cpu['compute_units']==3, cpu['compute_units']
"

# GPUPORT_LOG=info: the choice and the record on stderr, prefixed, nothing on stdout changes
"$GPUPORT" devices >"$tmp/plain.txt" 2>/dev/null
GPUPORT_LOG=info "$GPUPORT" devices >"$tmp/logged.txt" 2>"$tmp/log.txt"
cmp -s "$tmp/plain.txt" "$tmp/logged.txt" || fail "GPUPORT_LOG changed stdout"
grep -q "^gpuport: device 'auto' -> " "$tmp/log.txt" || fail "no device line in the log"
for b in cuda metal opencl cpu; do
    grep -q "^gpuport:   $b " "$tmp/log.txt" || fail "no $b line in the log"
done
"$GPUPORT" devices 2>"$tmp/quiet.txt" >/dev/null
[ ! -s "$tmp/quiet.txt" ] || fail "stderr output without GPUPORT_LOG"
echo ok
