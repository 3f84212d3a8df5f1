#!/usr/bin/env bash
# Ground truth is what was asked of nvcc: a tiny kernel is compiled once per -gencode set (cached
# in the build folder), and archcheck must list exactly the entries those flags produce and give
# exactly the verdicts they imply. Where cuobjdump is installed, `--list` must also print
# byte for byte what `cuobjdump --list-elf --list-ptx` prints.
set -u
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
    echo "SKIP: nvcc is not installed (CUDA toolkit absent), so no kernels can be built"; exit 77
fi
py=$(command -v python3) || { echo "SKIP: python3 is needed to read the JSON"; exit 77; }
fail=0
. "$GPUPORT_SOURCE_DIR/tests/archcheck/kernels.sh"
[ $fail = 0 ] || exit 1

# expect FILE 'ENTRIES' 'CC=STATUS ...': ENTRIES is the sorted set of kind:arch:compression
# (debug entries add :debug); STATUS per CC is runs | runs_after_jit | partial | no_image.
expect() {
    local file=$1 entries=$2 verdicts=$3 ccs=()
    for v in $verdicts; do ccs+=(--cc "${v%%=*}"); done
    "$GPUPORT" archcheck --json "${ccs[@]}" "$out/$file" >"$out/$file.json" 2>"$out/$file.err"
    local rc=$?
    "$py" - "$out/$file.json" "$entries" "$verdicts" "$rc" "$file" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
want_entries = sorted(sys.argv[2].split())
want = dict(v.split("=") for v in sys.argv[3].split())
rc, name = int(sys.argv[4]), sys.argv[5]
f = doc["files"][0]
got_entries = sorted(set("%s:%s:%s%s" % (e["kind"], e["arch"], e["compression"],
                                          ":debug" if e["debug"] else "") for e in f["entries"]))
ok = True
if got_entries != sorted(set(want_entries)):
    print("FAIL %s entries: got %s, want %s" % (name, got_entries, sorted(set(want_entries)))); ok = False
got = {v["cc"]: v["status"] for v in f["verdicts"]}
if got != want:
    print("FAIL %s verdicts: got %s, want %s" % (name, got, want)); ok = False
want_rc = 0 if all(s.startswith("runs") for s in want.values()) else 1
if rc != want_rc:
    print("FAIL %s exit %d, want %d" % (name, rc, want_rc)); ok = False
if ok: print("ok   %s" % name)
sys.exit(0 if ok else 1)
PY
}
# sm_75/80/86 SASS + compute_90 PTX: 8.9 runs sm_86 (same major); 9.0 and 12.0 JIT the PTX;
# 8.7 is Tegra (no 8.x SASS runs there, PTX 9.0 is too new); 7.0 has nothing.
expect multi "sass:sm_75:none sass:sm_80:none sass:sm_86:none ptx:compute_90:zstd" \
    "7.5=runs 8.0=runs 8.6=runs 8.9=runs 9.0=runs_after_jit 12.0=runs_after_jit 8.7=no_image 7.0=no_image"
expect ptxonly "ptx:compute_80:zstd" "7.5=no_image 8.0=runs_after_jit 8.6=runs_after_jit 12.0=runs_after_jit"
expect a90 "sass:sm_90a:none" "9.0=runs 10.0=no_image 8.6=no_image"
expect f100 "sass:sm_100f:none ptx:compute_100f:zstd" "10.0=runs 10.3=runs 11.0=no_image 12.0=no_image 9.0=no_image"
expect rdc.o "sass:sm_86:zstd ptx:compute_89:zstd" "8.6=runs 8.9=runs 9.0=runs_after_jit 8.0=no_image"
expect debug "sass:sm_86:zstd:debug" "8.6=runs 8.9=runs 9.0=no_image"
expect cm_none "sass:sm_86:none ptx:compute_86:none" "8.6=runs 12.0=runs_after_jit 7.5=no_image"
expect cm_speed "sass:sm_86:none ptx:compute_86:lz4" "8.6=runs 12.0=runs_after_jit"
expect cm_balance "sass:sm_86:none ptx:compute_86:zstd" "8.6=runs 12.0=runs_after_jit"
expect cm_size "sass:sm_86:zstd ptx:compute_86:zstd" "8.6=runs 12.0=runs_after_jit"
expect a90.cubin "sass:sm_90a:none" "9.0=runs 10.0=no_image"
expect k.fatbin "sass:sm_75:none ptx:compute_120:zstd" "7.5=runs 8.6=no_image 12.0=runs_after_jit 12.1=runs_after_jit"
expect k.ptx "ptx:compute_87:none" "8.7=runs_after_jit 9.0=runs_after_jit 8.6=no_image"
expect k.o "sass:sm_86:none ptx:compute_90:zstd" "8.6=runs 9.0=runs_after_jit 8.0=no_image"
# The static library's modules: rdc.o's (sm_86 + PTX 8.9) and k.o's (sm_86 + PTX 9.0).
expect libk.a "sass:sm_86:zstd sass:sm_86:none ptx:compute_89:zstd ptx:compute_90:zstd" \
    "8.6=runs 8.9=runs 9.0=runs_after_jit 8.0=no_image"

# Minimum driver: JIT of PTX ISA 9.0 needs the CUDA 13.0 driver; zstd alone needs 12.4's.
"$py" - "$out" <<'PY' || fail=1
import json, sys
d = sys.argv[1]
v = {x["cc"]: x for x in json.load(open(d + "/multi.json"))["files"][0]["verdicts"]}
assert v["9.0"]["min_driver"] == "580.65.06", v["9.0"]
assert v["8.6"]["min_driver"] is None, v["8.6"]
v = {x["cc"]: x for x in json.load(open(d + "/cm_size.json"))["files"][0]["verdicts"]}
assert v["8.6"]["min_driver"] == "550.54.14", v["8.6"]
print("ok   min_driver")
PY

# Byte-identical listings, where cuobjdump is installed.
. "$GPUPORT_SOURCE_DIR/tests/archcheck/find_cuobjdump.sh"
if [ -n "$cuobjdump" ]; then
    for f in multi ptxonly a90 f100 rdc.o debug cm_none cm_speed cm_balance cm_size a90.cubin k.fatbin k.o libk.a; do
        "$cuobjdump" --list-elf --list-ptx "$out/$f" >"$out/$f.cuobjdump" 2>/dev/null
        "$GPUPORT" archcheck --list "$out/$f" >"$out/$f.list" 2>/dev/null
        if cmp -s "$out/$f.cuobjdump" "$out/$f.list" && [ -s "$out/$f.list" ]; then echo "ok   --list $f"
        else echo "FAIL --list $f differs from cuobjdump:"; diff "$out/$f.list" "$out/$f.cuobjdump"; fail=1; fi
    done
else
    echo "note: cuobjdump is not installed; the byte-for-byte listing comparison did not run"
fi
exit $fail
