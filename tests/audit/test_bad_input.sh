#!/usr/bin/env bash
# Bad input: binary files, invalid UTF-8, a very long line, a huge file (streamed: memory stays
# under 64 MB), many files full of findings (memory stays under 64 MB too), unreadable files and folders (reported, not fatal), symlink loops and links out
# of the tree, a path that does not exist (exit 2), bad options (exit 2).
set -u
work=$(mktemp -d /tmp/gpuport-audit-bad.XXXXXX)
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
chmod 755 "$work"
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
t="$work/tree"
mkdir -p "$t/sub"
printf 'x.cuda()\n\0\0\0binary\n' >"$t/blob.py"
printf 'x = "\xff\xfe\xc3"\ny = z.cuda()  # \xe2\x82\n' >"$t/bad_utf8.py"
{ printf 'a = ['; head -c 3000000 /dev/zero | tr '\0' '1'; printf ']; b = q.cuda()\n'; } >"$t/long_line.py"
ln -s loop_b.py "$t/loop_a.py"; ln -s loop_a.py "$t/loop_b.py"
ln -s .. "$t/sub/up"                        # a directory loop
ln -s /etc/hostname "$t/outside.py"         # out of the tree
ln -s ../bad_utf8.py "$t/sub/inside.py"     # inside: scanned
(cd "$t" && "$GPUPORT" audit --fail-on never . >"$work/out" 2>"$work/err")
rc=$?
[ $rc -eq 0 ] && ok "exit 0 with --fail-on never" || { bad "exit $rc"; cat "$work/err"; }
grep -q '1 binary skipped' "$work/out" && ok "binary file skipped" || bad "binary not reported"
grep -q '^bad_utf8.py:2:7: warning PY-DEV-001' "$work/out" && ok "invalid UTF-8 scanned" || bad "invalid UTF-8"
grep -q '^long_line.py:1:3000015: warning PY-DEV-001' "$work/out" && ok "very long line" || { bad "long line"; grep long_line "$work/out"; }
grep -q 'loop_a.py: symlink loop' "$work/out" && ok "symlink loop reported" || bad "symlink loop"
grep -q 'outside.py: symlink points outside' "$work/out" && ok "link out of the tree not followed" || bad "outside link"
grep -q '^sub/inside.py:2:7: warning' "$work/out" && ok "link inside the tree scanned" || bad "inside link"
"$GPUPORT" audit --json "$t" >"$work/json" 2>/dev/null
if command -v python3 >/dev/null; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"]=="gpuport.audit/1"' "$work/json" &&
        ok "JSON valid with invalid UTF-8 input" || bad "JSON invalid"
fi

# a UTF-8 byte-order mark (Windows editors write one) is no part of line 1, in every reader
b="$work/bom"; mkdir -p "$b"
bom=$'\xEF\xBB\xBF'
printf '%simport apex\n' "$bom" >"$b/a.py"
printf '%sx = torch.zeros(1).cuda()\n' "$bom" >"$b/b.py"
printf '%s#include <cuda_runtime.h>\n' "$bom" >"$b/c.cc"
printf '%sflash-attn\n' "$bom" >"$b/requirements.txt"
printf '%schannels:\n  - nvidia\n' "$bom" >"$b/environment.yml"
printf '%sFROM nvidia/cuda:12.4.0-runtime-ubuntu22.04\n' "$bom" >"$b/Dockerfile"
printf '%s{"cells": [{"cell_type": "code", "source": ["y = x.cuda()\\n"]}], "nbformat": 4}' \
    "$bom" >"$b/nb.ipynb"
(cd "$b" && "$GPUPORT" audit --fail-on never . >"$work/bout" 2>&1)
for want in 'a.py:1:8: error PY-IMP-001' 'b.py:1:20: warning PY-DEV-001' \
    'c.cc:1:11: error C-INC-001' 'requirements.txt:1:1: error REQ-002' \
    'environment.yml:2:5: error CONDA-001' 'Dockerfile:1:6: warning DOCKER-001' \
    'nb.ipynb:cell 1:1:7: warning PY-DEV-001'; do
    grep -q "^$want" "$work/bout" && ok "byte-order mark: $want" || { bad "byte-order mark: $want"; cat "$work/bout"; }
done

# file and folder names that are not UTF-8 (any bytes but '/' and NUL): the JSON stays valid
u="$work/names"; mkdir -p "$u/d"$'\xff'
printf 'cudaMalloc(0, 0);\n' >"$u/d"$'\xff'"/k.cu"
printf '__global__ void k() {}\n' >"$u/bad"$'\xfe'".cu"
(cd "$u" && "$GPUPORT" audit --json --fail-on never --write-baseline "$work/names.baseline" . \
    >"$work/names.json" 2>"$work/names.err")
if command -v python3 >/dev/null; then
    python3 - "$work/names.json" "$work/names.baseline" <<'PY' && ok "JSON and baseline valid with non-UTF-8 names" || bad "non-UTF-8 names"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
files = sorted(f["file"] for f in d["findings"])
assert files == ["bad\ufffd.cu", "d\ufffd/k.cu"], files
assert any(m["path"] == "d\ufffd" for m in d["modules"]), d["modules"]
assert d["stop_conditions"][0]["evidence"][0]["file"] == "bad\ufffd.cu"
json.load(open(sys.argv[2], encoding="utf-8"))
PY
fi

# huge files: streamed, memory bounded
h="$work/huge"; mkdir -p "$h"
scan_big() { # FILE WHAT EXPECTED-FINDING-REGEX: the finding is there, peak RSS under 64 MiB
    /usr/bin/time -f '%M' -o "$work/rss" "$GPUPORT" audit --fail-on never "$h" >"$work/hout" 2>/dev/null
    grep -qE "$3" "$work/hout" && ok "finding after $2" || { bad "$2"; head -5 "$work/hout"; }
    rss=$(tail -1 "$work/rss")
    [ "$rss" -lt 65536 ] && ok "peak RSS ${rss} KiB < 64 MiB on $2" || bad "peak RSS ${rss} KiB on $2"
    rm -f "$h/$1"
}
# (half of it without a CUDA word, which is skipped without tokens, half with one on every line)
{ yes 'int b; /* plain code */ int c;' | head -n 2700000
  yes 'int a; /* cudaMalloc in a comment */' | head -n 2700000; printf '\nvoid f(void) { cudaFree(0); }\n'; } >"$h/big.c"
scan_big big.c "a 200 MB file" "/big.c:$(wc -l <"$h/big.c"):16: error C-RT-001"
{ printf 'import torch\nif torch.cuda.is_available():\n'; yes '    x = f(1, [2, 3])  # plain' | head -n 2000000
  printf 'y = z.cuda()\n'; } >"$h/big.py"
scan_big big.py "a 60 MB Python file" "/big.py:$(wc -l <"$h/big.py"):7: warning PY-DEV-001"
# single tokens and lines longer than the bound: read a piece at a time and released behind
big_one() { # FILE HEAD TAIL WHAT EXPECTED-FINDING-REGEX [FILL-BYTE]: HEAD, 70 MB of FILL, TAIL
    { printf '%s' "$2"; head -c 70000000 /dev/zero | tr '\0' "${6:-a}"; printf '%s' "$3"; } >"$h/$1"
    scan_big "$1" "$4" "$5"
}
big_one str.py 's = "' '"
y = z.cuda()
' "a 70 MB Python string" '/str.py:2:7: warning PY-DEV-001'
big_one note.py '# ' '
y = z.cuda()
' "a 70 MB Python comment" '/note.py:2:7: warning PY-DEV-001'
big_one list.py 'x = [' '1]; y = z.cuda()
' "a 70 MB Python line" '/list.py:1:[0-9]+: warning PY-DEV-001' ','
big_one tri.py 's = """' '"""
y = z.cuda()
' "a 70 MB triple-quoted string of empty lines" '/tri.py:[0-9]+:7: warning PY-DEV-001' $'\n'
big_one fexpr.py 's = f"{(' ')}"
y = z.cuda()
' "a 70 MB f-string replacement field" '/fexpr.py:2:7: warning PY-DEV-001'
big_one comment.c '/* ' ' */
void f(void) { cudaFree(0); }
' "a 70 MB C comment" '/comment.c:2:16: error C-RT-001'
big_one str.c 'const char *s = "' '";
void f(void) { cudaFree(0); }
' "a 70 MB C string" '/str.c:2:16: error C-RT-001'
big_one CMakeLists.txt 'message(STATUS ' ')
enable_language(CUDA)
' "a 70 MB CMake argument" '/CMakeLists.txt:2:17: error CMK-001'
big_one CMakeLists.txt '#[==[' ']==]
enable_language(CUDA)
' "a 70 MB CMake bracket comment" '/CMakeLists.txt:[0-9]+:17: error CMK-001' $'\n'
big_one Makefile 'X = ' '
all:
	nvcc -o k k.cu
' "a 70 MB Makefile line" '/Makefile:3:[0-9]+: error MK-001'
# random bytes (no NUL, which would make them binary) read as each kind of file
head -c 90000000 /dev/urandom | tr -d '\000' | head -c 70000000 >"$work/random"
for kind in CMakeLists.txt Makefile x.py x.c requirements.txt; do
    cp "$work/random" "$h/$kind"
    scan_big "$kind" "70 MB of random bytes as $kind" 'file scanned'
done
rm -f "$work/random"

# many files full of findings with long snippets, scanned faster than they are folded: the
# results waiting to be folded stay bounded (about 80 MB of them without the bound), whatever the
# number of threads. (No allocator quarantine under AddressSanitizer: it would hold freed results.)
m="$work/many"; mkdir -p "$m"
line='cudaFree(0); // a comment long enough to fill the snippet of the finding up to its cut at 100 bytes'
for i in $(seq 1 32); do yes "$line" | head -n 20000 >"$m/f$i.h"; done
ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=0" /usr/bin/time -f '%M' -o "$work/mrss" \
    "$GPUPORT" audit --all --fail-on never -j 4 "$m" >"$work/mout" 2>/dev/null
n=$(grep -c ': error C-RT-001' "$work/mout")
[ "$n" -eq 640000 ] && ok "32 files of 20,000 findings each reported" || bad "$n findings of 640000"
rss=$(tail -1 "$work/mrss")
# measured above what the same command takes on one small file (the sanitizer build alone
# starts at about 36 MiB; the plain one at 6), so the bound means the same in both builds
mkdir -p "$work/one" && printf 'cudaFree(0);\n' >"$work/one/a.h"
ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=0" /usr/bin/time -f '%M' -o "$work/brss" \
    "$GPUPORT" audit --fail-on never -j 4 "$work/one" >/dev/null 2>&1
base=$(tail -1 "$work/brss")
[ $((rss - base)) -lt 49152 ] && ok "peak RSS ${rss} KiB, $((rss - base)) KiB over one small file's: < 48 MiB with 640,000 findings" ||
    bad "peak RSS ${rss} KiB with many findings (${base} KiB for one small file)"

# unreadable file and folder: root reads everything, so drop to nobody for this part
u="$work/unread"; mkdir -p "$u/locked"
printf 'x.cuda()\n' >"$u/ok.py"; printf 'x.cuda()\n' >"$u/secret.py"; printf 'x.cuda()\n' >"$u/locked/in.py"
chmod 000 "$u/secret.py" "$u/locked"
runner=()
if [ "$(id -u)" = 0 ]; then
    chmod 755 "$work" "$u"
    if command -v setpriv >/dev/null; then runner=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
fi
if [ "$(id -u)" != 0 ] || [ ${#runner[@]} -gt 0 ]; then
    (cd "$u" && "${runner[@]}" "$GPUPORT" audit --fail-on never . >"$work/uout" 2>&1)
    rc=$?
    [ $rc -eq 0 ] && grep -q '^ok.py:1:3: warning' "$work/uout" && grep -q 'secret.py: cannot open' "$work/uout" &&
        grep -q 'locked: Permission denied' "$work/uout" && grep -q '2 not readable' "$work/uout" &&
        ok "unreadable file and folder reported, not fatal" || { bad "unreadable (exit $rc)"; cat "$work/uout"; }
else
    echo "SKIP: unreadable files: running as root without setpriv"
fi

# a file named on the command line that cannot be read is bad input, not a clean file; a tree
# with nothing the audit reads is not "portable"
if [ "$(id -u)" != 0 ] || [ ${#runner[@]} -gt 0 ]; then
    (cd "$u" && "${runner[@]}" "$GPUPORT" audit secret.py >"$work/o" 2>"$work/e"); rc=$?
    [ $rc -eq 2 ] && [ ! -s "$work/o" ] && grep -q 'secret.py: cannot open' "$work/e" &&
        ok "unreadable file argument: exit 2, named, nothing on stdout" ||
        { bad "unreadable file argument: exit $rc"; cat "$work/o" "$work/e"; }
fi
mkdir -p "$work/docs"; printf '# notes\n' >"$work/docs/README.md"; printf 'x\0y' >"$work/docs/blob.py"
"$GPUPORT" audit "$work/docs" >"$work/o" 2>"$work/e"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$work/o" ] && grep -q 'nothing was scanned' "$work/e" &&
    ok "nothing to scan: exit 2, said so" || { bad "nothing to scan: exit $rc"; cat "$work/o" "$work/e"; }
# with --json the same errors come as the one gpuport.error/1 object on stdout, as every command's
json_error() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"]=="gpuport.error/1" and d["command"]=="audit" and d["exit_code"]==2 and sys.argv[2] in d["error"], d' "$work/o" "$1"
}
"$GPUPORT" audit --json "$work/docs/README.md" >"$work/o" 2>"$work/e"; rc=$?
[ $rc -eq 2 ] && json_error 'nothing was scanned' && grep -q 'nothing was scanned' "$work/e" &&
    ok "a file of no audited kind: exit 2, the error object" || { bad "no audited kind: exit $rc"; cat "$work/o"; }
"$GPUPORT" audit --json "$work/no-such-dir" >"$work/o" 2>"$work/e"; rc=$?
[ $rc -eq 2 ] && json_error 'no-such-dir: no such file or directory' &&
    grep -q 'gpuport audit: .*no-such-dir: no such file or directory' "$work/e" &&
    ok "a missing path with --json: exit 2, the error object" || { bad "missing path --json: exit $rc"; cat "$work/o"; }
"$GPUPORT" audit --json --sarif "$t" >"$work/o" 2>"$work/e"; rc=$?
[ $rc -eq 2 ] && grep -q '"gpuport.error/1"' "$work/o" && grep -q -- '--json and --sarif' "$work/e" &&
    ok "--json --sarif together refused" || { bad "--json --sarif: exit $rc"; cat "$work/e"; }
"$GPUPORT" audit --sarif --format json "$t" >"$work/o" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && [ ! -s "$work/o" ] && ok "--sarif --format json refused" || bad "--sarif --format json: exit $rc"
"$GPUPORT" audit --json --json --fail-on never "$t" >"$work/o" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && [ -s "$work/o" ] && ok "--json twice is one format" || bad "--json --json: exit $rc"

# a path that does not exist; bad options
"$GPUPORT" audit "$work/nope" >"$work/o" 2>"$work/e"; rc=$?
[ $rc -eq 2 ] && grep -q "nope" "$work/e" && [ ! -s "$work/o" ] && ok "missing path: exit 2, nothing on stdout" || bad "missing path: exit $rc"
"$GPUPORT" audit --fail-on sometimes . >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "bad --fail-on: exit 2" || bad "bad --fail-on: exit $rc"
"$GPUPORT" audit -j 0 . >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "bad -j: exit 2" || bad "bad -j: exit $rc"
"$GPUPORT" audit --fail-on >/dev/null 2>"$work/e"; rc=$?
[ $rc -eq 2 ] && [ "$(grep -c 'gpuport audit:' "$work/e")" -eq 1 ] && grep -q -- '--fail-on needs a value' "$work/e" &&
    ok "option without its value: exit 2, one message" || { bad "option without value: exit $rc"; cat "$work/e"; }
"$GPUPORT" audit --bogus . >/dev/null 2>"$work/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "unknown option '--bogus'" "$work/e" && ok "unknown option named" || bad "unknown option: $(cat "$work/e")"
mkdir -p "$work/bl"
(cd "$work/bl" && "$GPUPORT" audit --write-baseline . . >"$work/o" 2>"$work/e"); rc=$?
[ $rc -eq 2 ] && [ ! -s "$work/o" ] && grep -q 'is a folder' "$work/e" &&
    ok "--write-baseline onto a folder: exit 2 before scanning" || { bad "--write-baseline folder: exit $rc"; cat "$work/e"; }
exit $fail
