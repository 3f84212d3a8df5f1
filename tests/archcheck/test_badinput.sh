#!/usr/bin/env bash
# Bad input: truncated ELF, section headers and section data past the end, an out-of-range
# section-name table index, fatbin entries whose sizes run past their container or are zero,
# files that are none of the formats read (random bytes named .so, junk named .ptx, text, an
# empty file: exit 2 on stderr), a host ELF without CUDA code (exit 1), a missing file, an
# unreadable directory entry. Never a crash; the message names the file and the offset; the
# JSON's files_without_device_code counts every file read without device code.
set -u
py=$(command -v python3) || { echo "SKIP: python3 is needed to build the bad files"; exit 77; }
tmp=$(mktemp -d); trap 'chmod -R u+rwx "$tmp"; rm -rf "$tmp"' EXIT
fail=0
# check NAME WANT-RC PATTERN ARGS...: exit code and an output line matching PATTERN (- for none).
check() {
    local name=$1 want=$2 pat=$3; shift 3
    "$GPUPORT" archcheck "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc != "$want" ]; then echo "FAIL $name: exit $rc, want $want"; cat "$tmp/err"; fail=1; return; fi
    if [ "$pat" != - ] && ! cat "$tmp/out" "$tmp/err" | grep -Eq -- "$pat"; then
        echo "FAIL $name: output lacks /$pat/:"; cat "$tmp/out" "$tmp/err"; fail=1; return
    fi
    echo "ok   $name"
}
"$py" - "$tmp" <<'PY'
import struct, sys, os
d = sys.argv[1]
def w(name, data): open(os.path.join(d, name), "wb").write(data)
def entry(kind, arch, payload=b"\0" * 8, hsize=0x40, psize=None, flags=0x11, isa=(0, 1)):
    psize = len(payload) if psize is None else psize
    h = struct.pack("<HHIQIIHHIIIQQQ", kind, 0x101, hsize, psize, 0, 0, isa[1], isa[0], arch,
                    0, 0, flags, 0, 0)
    return h + b"\0" * (hsize - 0x40) + payload
def container(entries, size=None):
    body = b"".join(entries)
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body) if size is None else size) + body
# A small host ELF64 with a .nv_fatbin section holding `fat`.
def elf(fat, shoff_delta=0, secsize_delta=0, truncate=None, overlap=False):
    shstr = b"\0.shstrtab\0.nv_fatbin\0.rodata\0"
    data_off = 64
    shstr_off = data_off + len(fat)
    shoff = (shstr_off + len(shstr) + 7) & ~7
    eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
    nsec = 4 if overlap else 3
    eh += struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, shoff + shoff_delta, 0, 64, 56, 0, 64, nsec, 1)
    sh = b"\0" * 64
    sh += struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0)
    sh += struct.pack("<IIQQQQIIQQ", 11, 1, 2, 0, data_off, len(fat) + secsize_delta, 0, 0, 8, 0)
    if overlap:  # a .rodata over the same bytes (where the magic scan also looks)
        sh += struct.pack("<IIQQQQIIQQ", 22, 1, 2, 0, data_off, len(fat), 0, 0, 8, 0)
    img = eh + fat + shstr
    img += b"\0" * (shoff - len(img)) + sh
    return img[:truncate] if truncate else img
good = container([entry(2, 86), entry(1, 90, flags=0x11, isa=(9, 0))])
w("good.so", elf(good))
w("overlap.so", elf(good + container([entry(2, 120)]), overlap=True))
w("trunc_header.so", elf(good, truncate=40))
w("trunc_sections.so", elf(good, truncate=len(elf(good)) - 10))
w("shoff_past_end.so", elf(good, shoff_delta=1 << 20))
w("section_past_end.so", elf(good, secsize_delta=4096))
w("entry_past_end.so", elf(container([entry(2, 86, psize=1 << 30)], size=0x48)))
w("entry_zero_header.so", elf(container([entry(2, 86, hsize=0x40)[:4] + struct.pack("<I", 0) + b"\0" * 0x40])))
w("container_past_end.so", elf(container([entry(2, 86)], size=1 << 40)))
w("zero_size_entries.fatbin", container([entry(2, 86, payload=b""), entry(2, 89, payload=b"")]))
w("entry_past_end.fatbin", container([entry(2, 86, psize=0x1000)], size=0x48))
w("notcuda.txt", b"hello, this is not CUDA\n")
hdr = lambda name, size: ("%-16s%-12s%-6s%-6s%-8s%-10d`\n" % (name, "0", "0", "0", "644", size)).encode()
w("past_end.a", b"!<arch>\n" + hdr("x.o/", 4096) + b"\0" * 64)
w("bad_member.a", b"!<arch>\n" + hdr("x.o/", 40) + elf(good, truncate=40))
w("empty.bin", b"")
w("random.so", bytes((i * 2654435761 >> 13) & 0xff for i in range(4096)))
w("junk.ptx", b"this is not PTX\n.entry nothing\n")
# a section-name table index past the table: the sections would go nameless and any bytes with
# the container magic in a data section would pass for device code
img = bytearray(elf(good))
struct.pack_into("<H", img, 62, 9)
w("shstrndx.so", bytes(img))
PY
cp /bin/true "$tmp/host_only"
check "good ELF" 0 - --cc 8.6 "$tmp/good.so"
grep -q "sm_86" "$tmp/out" || { echo "FAIL good ELF: sm_86 not listed"; fail=1; }
"$GPUPORT" archcheck --json "$tmp/overlap.so" >"$tmp/overlap.json" 2>&1
"$py" - "$tmp/overlap.json" <<'PY' || fail=1
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
assert f["containers"] == 2 and f["containers_by_section"] == {".nv_fatbin": 2}, f
assert [e["arch"] for e in f["entries"]] == ["sm_86", "compute_90", "sm_120"], f["entries"]
print("ok   a container found through two overlapping sections is counted once")
PY
check "zero-size entries" 0 - --cc 8.6 "$tmp/zero_size_entries.fatbin"
grep -q "2 SASS" "$tmp/out" || { echo "FAIL zero-size entries: not both listed"; cat "$tmp/out"; fail=1; }
check "truncated ELF header" 2 "trunc_header.so: malformed ELF: offset 0x[0-9a-f]+: ELF header is truncated" "$tmp/trunc_header.so"
check "truncated section table" 2 "trunc_sections.so: malformed ELF: offset 0x[0-9a-f]+: section header table" "$tmp/trunc_sections.so"
check "section headers past the end" 2 "shoff_past_end.so: malformed ELF: offset 0x[0-9a-f]+: section header table lies past the end" "$tmp/shoff_past_end.so"
check "section data past the end" 2 "section_past_end.so: malformed ELF: offset 0x[0-9a-f]+: section 2 .* runs past the end" "$tmp/section_past_end.so"
check "entry size past the end (ELF)" 2 "entry_past_end.so: offset 0x[0-9a-f]+: fatbin entry payload .* past the end of its container" "$tmp/entry_past_end.so"
check "entry header size zero" 2 "entry_zero_header.so: offset 0x[0-9a-f]+: fatbin entry header size 0x0" "$tmp/entry_zero_header.so"
check "container size past the end" 2 "container_past_end.so: offset 0x[0-9a-f]+: fatbin container claims" "$tmp/container_past_end.so"
check "entry size past the end (fatbin)" 2 "entry_past_end.fatbin: offset 0x[0-9a-f]+: fatbin entry payload" "$tmp/entry_past_end.fatbin"
check "archive member past the end" 2 "past_end.a: malformed archive: offset 0x38: member of 4096 bytes runs past the end" "$tmp/past_end.a"
check "archive member truncated ELF" 2 "bad_member.a: member x.o \\(at offset 0x44\\): malformed ELF: offset 0x[0-9a-f]+: ELF header is truncated" "$tmp/bad_member.a"
check "out-of-range section-name table index" 2 "shstrndx.so: malformed ELF: offset 0x3e: section-name table index 9 is out of range \(3 sections\)" "$tmp/shstrndx.so"
# none of the formats: bad input (exit 2), said on stderr, nothing on stdout
notfmt="not an ELF file, static library, fatbin or PTX text"
check "random bytes named .so" 2 "^gpuport archcheck: .*random.so: $notfmt" "$tmp/random.so"
[ -s "$tmp/out" ] && { echo "FAIL random bytes: something on stdout:"; cat "$tmp/out"; fail=1; }
grep -q "$notfmt" "$tmp/err" || { echo "FAIL random bytes: not on stderr"; fail=1; }
check "junk named .ptx" 2 "junk.ptx: not PTX text: no .version and .target directives" "$tmp/junk.ptx"
check "text" 2 "notcuda.txt: $notfmt" "$tmp/notcuda.txt"
check "empty file" 2 "empty.bin: $notfmt" "$tmp/empty.bin"
check "--list of a file of no format" 2 "$notfmt" --list "$tmp/notcuda.txt"
check "not CUDA (host ELF)" 1 "host_only: does not contain CUDA device code" "$tmp/host_only"
[ -s "$tmp/out" ] && { echo "FAIL host ELF: 'no device code' on stdout:"; cat "$tmp/out"; fail=1; }
grep -q "does not contain CUDA device code" "$tmp/err" && echo "ok   'no device code' is said on stderr" ||
    { echo "FAIL host ELF: not on stderr"; fail=1; }
check "missing file" 2 "nonexistent: No such file" "$tmp/nonexistent"
grep -q "nonexistent: .*nonexistent:" "$tmp/err" && { echo "FAIL the path is named twice"; cat "$tmp/err"; fail=1; }
"$GPUPORT" archcheck --json "$tmp/host_only" "$tmp/good.so" "$tmp/random.so" >"$tmp/j.json" 2>/dev/null
"$py" - "$tmp/j.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
st = {f["path"].rsplit("/", 1)[1]: f["status"] for f in d["files"]}
assert st == {"host_only": "no_device_code", "good.so": "ok", "random.so": "error"}, st
assert d["files_without_device_code"] == 1, d["files_without_device_code"]
print("ok   JSON: files_without_device_code counts the named host ELF, not the bad file")
PY
check "malformed and good together" 2 "trunc_header.so" --cc 8.6 "$tmp/good.so" "$tmp/trunc_header.so"
grep -q "good.so" "$tmp/out" || { echo "FAIL: the good file was not reported next to the bad one"; fail=1; }
# Directories: every ELF below is read, symlinks are not followed, unreadable entries are named.
mkdir -p "$tmp/tree/sub" "$tmp/tree/locked"
cp "$tmp/good.so" "$tmp/tree/sub/libgood.so"
cp /bin/true "$tmp/tree/tool"
ln -s "$tmp/good.so" "$tmp/tree/link.so"
ln -s / "$tmp/tree/root"
check "directory" 0 - --json --cc 8.6 "$tmp/tree/sub" "$tmp/tree/tool" 
"$GPUPORT" archcheck --json --cc 8.6 "$tmp/tree" >"$tmp/tree.json" 2>"$tmp/err"
"$py" - "$tmp/tree.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
paths = [f["path"] for f in d["files"]]
assert [p.split("/tree/")[1] for p in paths] == ["sub/libgood.so"], paths
assert d["files_without_device_code"] == 1, d
print("ok   directory walk (symlinks not followed, host-only ELF counted)")
PY
if [ "$(id -u)" != 0 ]; then
    cp "$tmp/good.so" "$tmp/tree/locked/x.so"; chmod 000 "$tmp/tree/locked"
    check "unreadable directory entry" 2 "locked: Permission denied" "$tmp/tree"
fi
# Usage errors.
check "unknown GPU with suggestions" 2 "unknown GPU 'RTX 4900'; did you mean:.*\"RTX 4090\"" --gpu "RTX 4900" "$tmp/good.so"
check "bad --cc" 2 "not a compute capability" --cc banana "$tmp/good.so"
# Names people know: an architecture, a board, a name several GPUs share (listed with their CCs,
# refused), a part of names that all share one CC; the report shows sm_XX and the names by the CC.
check "--gpu sm_87 is the architecture" 1 "^  CC 8\.7 \(sm_87\) " --gpu sm_87 "$tmp/good.so"
check "--gpu compute_86 too" 0 "^  CC 8\.6 \(sm_86\) " --gpu compute_86 "$tmp/good.so"
check "--gpu \"Jetson AGX Orin\" shows its name and sm_87" 1 "^  CC 8\.7 \(sm_87, Jetson AGX Orin\) " \
    --gpu "Jetson AGX Orin" "$tmp/good.so"
check "two GPUs of one CC are both named" 0 "^  CC 8\.6 \(sm_86, RTX 3080, A40\) " \
    --gpu "RTX 3080" --gpu A40 "$tmp/good.so"
check "an ambiguous name is refused with its choices" 2 \
    "'Jetson' names GPUs of different compute capabilities: .*\"Jetson Nano\" \(5\.3, sm_53\).*\"Jetson AGX Orin\" \(8\.7, sm_87\)" \
    --gpu Jetson "$tmp/good.so"
check "a shared part of names with one CC is that CC" 1 "^  CC 8\.7 \(sm_87, Jetson Orin\) " \
    --gpu "Jetson Orin" "$tmp/good.so"
check "no input" 2 "no FILE or DIR" --cc 8.6
exit $fail
