#!/usr/bin/env bash
# The real CUDA libraries under /usr/local/cuda: every one is read without error; an
# independent count of container headers equals archcheck's (every container found); the JSON
# agrees with the listing; a second run gives the same. Where cuobjdump is installed, `--list`
# prints byte for byte what `cuobjdump --list-elf --list-ptx` prints for a set of libraries
# (all with GPUPORT_ARCHCHECK_ALL_LIBS=1; one is skipped only when cuobjdump fails on it).
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
    echo "note: cuobjdump is not installed; listings were checked for consistency only"
exit $fail
