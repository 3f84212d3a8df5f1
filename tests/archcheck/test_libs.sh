#!/usr/bin/env bash
# The real CUDA libraries under /usr/local/cuda: every one is read without error; an
# independent count of container headers equals archcheck's (every container found); the JSON
# agrees with the listing; a second run gives the same. Where cuobjdump is installed, `--list`
# prints byte for byte what `cuobjdump --list-elf --list-ptx` prints for a set of libraries
# (all with GPUPORT_ARCHCHECK_ALL_LIBS=1; one is skipped only when cuobjdump fails on it).
# Verdicts on real libraries: cuFFTW's only module, an empty cubin, is no requirement; cuBLAS,
# which keeps one module per architecture, is "partial" on every GPU and exits 0 (1 with
# --strict); a CC with no image at all exits 1 and the fix names only it; the whole lib64 folder
# passes for a GPU it supports, as a CI job would check it; --list says which containers it
# leaves out (found by scanning).
set -u
lib=${CUDA_LIB_DIR:-/usr/local/cuda/lib64}
ls "$lib"/lib*.so.* >/dev/null 2>&1 || { echo "SKIP: no CUDA libraries in $lib"; exit 77; }
py=$(command -v python3) || { echo "SKIP: python3 is needed to read the JSON"; exit 77; }
. "$GPUPORT_SOURCE_DIR/tests/archcheck/find_cuobjdump.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 compared=0 with_code=0
for f in "$lib"/lib*.so.* "$lib"/lib*.a; do
    [ -e "$f" ] || continue
    [ -L "$f" ] && continue
    b=$(basename "$f")
    "$GPUPORT" archcheck --json "$f" >"$tmp/$b.json" 2>"$tmp/$b.err"
    rc=$?
    if [ $rc = 2 ] || [ $rc = 3 ]; then echo "FAIL $b: exit $rc: $(cat "$tmp/$b.err")"; fail=1; continue; fi
    "$GPUPORT" archcheck --list "$f" >"$tmp/$b.list" 2>/dev/null
    "$GPUPORT" archcheck --list "$f" >"$tmp/$b.list2" 2>/dev/null
    cmp -s "$tmp/$b.list" "$tmp/$b.list2" || { echo "FAIL $b: two runs differ"; fail=1; }
    # The listing and the JSON tell the same story.
    "$py" - "$tmp/$b.json" "$tmp/$b.list" "$b" <<'PY' || fail=1
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
lines = open(sys.argv[2]).read().splitlines()
named = [e for e in f["entries"] if "name" in e]
elf = sum(1 for e in named if e["kind"] == "sass"); ptx = sum(1 for e in named if e["kind"] == "ptx")
lelf = sum(1 for l in lines if l.startswith("ELF file")); lptx = sum(1 for l in lines if l.startswith("PTX file"))
if (elf, ptx) != (lelf, lptx):
    print("FAIL %s: JSON has %d ELF + %d PTX listed entries, --list prints %d + %d" % (sys.argv[3], elf, ptx, lelf, lptx)); sys.exit(1)
if f["status"] == "ok":
    sec = f["containers_by_section"]
    print("     %s: %d containers %s, %d entries (%d ELF + %d PTX listed)" % (sys.argv[3], f["containers"], json.dumps(sec), len(f["entries"]), elf, ptx))
PY
    grep -q '"status":[[:space:]]*"ok"' "$tmp/$b.json" && with_code=$((with_code + 1))
    # Every container found: an independent count of well-formed container headers anywhere in
    # the file (a plain byte search) must equal the containers archcheck reports.
    "$py" - "$f" "$tmp/$b.json" "$b" <<'PY' || fail=1
import json, mmap, struct, sys
f = json.load(open(sys.argv[2]))["files"][0]
with open(sys.argv[1], "rb") as fh:
    m = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    n, i, magic = 0, 0, struct.pack("<I", 0xBA55ED50)
    while True:
        i = m.find(magic, i)
        if i < 0 or i + 16 > len(m):
            break
        ver, hs, size = struct.unpack_from("<HHQ", m, i + 4)
        if ver == 1 and hs == 16 and i + 16 + size <= len(m):
            n += 1
            i += 16 + size
        else:
            i += 1
if n != f["containers"]:
    print("FAIL %s: %d container headers in the file, archcheck found %d" % (sys.argv[3], n, f["containers"])); sys.exit(1)
PY
    [ -n "$cuobjdump" ] || continue
    # cuobjdump reads every byte (seconds and GBs for the big ones): a few libraries that
    # cover every layout (.nv_fatbin, __nv_relfatbin, scanned sections, -G names) unless
    # GPUPORT_ARCHCHECK_ALL_LIBS=1.
    case "$b" in
    libcublas.so.*|libcublasLt.so.*|libcufft.so.*|libnccl.so.*|libcusparse.so.*|libcurand.so.*|libcudnn_cnn.so.*|libcupti.so.*|*.a) ;;
    *) [ "${GPUPORT_ARCHCHECK_ALL_LIBS:-0}" = 1 ] || continue ;;
    esac
    if "$cuobjdump" --list-elf --list-ptx "$f" >"$tmp/$b.ref" 2>/dev/null; then
        compared=$((compared + 1))
        if cmp -s "$tmp/$b.ref" "$tmp/$b.list"; then echo "ok   $b: --list equals cuobjdump ($(wc -l <"$tmp/$b.ref") lines)"
        else echo "FAIL $b: --list differs from cuobjdump"; diff "$tmp/$b.list" "$tmp/$b.ref" | head -5; fail=1; fi
    else
        echo "     $b: cuobjdump reports no device code; archcheck exit $rc"
    fi
done
[ "$with_code" -gt 0 ] || { echo "FAIL: no library with device code was found in $lib"; fail=1; }
[ -n "$cuobjdump" ] && echo "compared with cuobjdump: $compared libraries" ||
    echo "SKIP: cuobjdump is not installed (scripts/deps/pip-tools.txt); listings were checked for consistency only"

# run NAME WANT_RC ARGS...: archcheck's exit code, output in $tmp/v.out and $tmp/v.err
run() {
    local name=$1 want=$2
    shift 2
    "$GPUPORT" archcheck "$@" >"$tmp/v.out" 2>"$tmp/v.err"
    local rc=$?
    if [ $rc = "$want" ]; then echo "ok   $name"; else echo "FAIL $name: exit $rc, want $want"; cat "$tmp/v.out" "$tmp/v.err"; fail=1; fi
}
vhas() { grep -qF -- "$2" "$tmp/v.out" "$tmp/v.err" && echo "ok   $1" || { echo "FAIL $1: no '$2' in:"; cat "$tmp/v.out" "$tmp/v.err"; fail=1; }; }
vlacks() { grep -qF -- "$2" "$tmp/v.out" "$tmp/v.err" && { echo "FAIL $1: '$2' in:"; cat "$tmp/v.out"; fail=1; } || echo "ok   $1"; }
fftw=$(ls "$lib"/libcufftw.so.* 2>/dev/null | grep -v '\.so\.[0-9]*\.[0-9]' | head -1)
if [ -n "$fftw" ]; then
    run "cuFFTW (an empty cubin only) runs on 8.6" 0 --cc 8.6 "$fftw"
    vhas "its module is called an empty cubin" "runs: it holds no kernel (its 1 module is an empty cubin)"
    vhas "the entry is marked empty" "empty (no kernel, no function)"
    vlacks "and no fix is offered" "Fix:"
    "$GPUPORT" archcheck --json --cc 8.6 "$fftw" >"$tmp/fftw.json" 2>/dev/null
    "$py" - "$tmp/fftw.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
v = d["files"][0]["verdicts"][0]
assert v["status"] == "runs" and v["modules_total"] == 0 and v["modules_empty"] == 1, v
assert d["fix"]["cmake_cuda_architectures"] is None, d["fix"]
assert d["files"][0]["entries"][0]["no_code"] is True
print("ok   cuFFTW's JSON: runs, 1 empty module, nothing to fix")
PY
fi
blas=$(ls "$lib"/libcublas.so.* 2>/dev/null | grep -v '\.so\.[0-9]*\.[0-9]' | head -1)
if [ -n "$blas" ]; then
    run "cuBLAS is partial on 8.6: a warning, exit 0" 0 --cc 8.6 --summary "$blas"
    vhas "the warning is printed" "some modules lack an image"
    vlacks "a partial CC is not offered as a fix" "Fix:"
    run "cuBLAS with --strict: partial fails" 1 --strict --cc 8.6 --summary "$blas"
    vhas "--strict offers 86" 'add "86" to CMAKE_CUDA_ARCHITECTURES'
    run "a CC with no image exits 1" 1 --cc 8.6 --cc 5.2 --summary "$blas"
    vhas "the fix names the CC without an image" 'add "52" to CMAKE_CUDA_ARCHITECTURES'
    vlacks "and not the one that runs" "code=sm_86"
fi
run "the whole lib64 folder for 8.6 and 12.0, as a CI job checks it" 0 --cc 8.6 --cc 12.0 --summary "$lib"
fft=$(ls "$lib"/libcufft.so.* 2>/dev/null | grep -v '\.so\.[0-9]*\.[0-9]' | head -1)
if [ -n "$fft" ]; then
    run "cuFFT --list" 0 --list "$fft"
    grep -Eq "libcufft.so.*: [0-9]+ of its [0-9]+ containers lie outside .nv_fatbin and __nv_relfatbin \(found by scanning\)" "$tmp/v.err" &&
        echo "ok   --list says which containers it leaves out" || { echo "FAIL no note for the scanned containers:"; cat "$tmp/v.err"; fail=1; }
fi
exit $fail
