#!/usr/bin/env bash
# `gpuport freeze` from the command line: manifest to stdout and to a file, --force, --diff exit
# codes, names holding escape sequences printed escaped, and bad input (exit 2, file named,
# nothing overwritten; an oversize manifest refused from its size).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect NAME WANT_RC GOT_RC
    if [ "$2" != "$3" ]; then echo "FAIL $1: exit $3, expected $2"; fail=1; else echo "ok   $1"; fi
}
printf 'abc' > "$tmp/in.bin"

"$GPUPORT" freeze --no-python --data "$tmp/in.bin" --seed torch=42 > "$tmp/a.json" 2>"$tmp/err"
expect "manifest to stdout" 0 $?
grep -q '"schema":.*"gpuport.freeze/1"' "$tmp/a.json" || { echo "FAIL schema"; fail=1; }
grep -q 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' "$tmp/a.json" ||
    { echo "FAIL data hash"; fail=1; }

"$GPUPORT" freeze --no-python --data "$tmp/in.bin" -o "$tmp/b.json"
expect "manifest to a file" 0 $?
cp "$tmp/b.json" "$tmp/b.keep"
"$GPUPORT" freeze --no-python -o "$tmp/b.json" 2>"$tmp/err"
expect "existing output refused" 2 $?
grep -q "b.json: already exists; use --force" "$tmp/err" || { echo "FAIL message"; cat "$tmp/err"; fail=1; }
cmp -s "$tmp/b.json" "$tmp/b.keep" || { echo "FAIL existing file was changed"; fail=1; }
"$GPUPORT" freeze --no-python --force -o "$tmp/b.json"
expect "--force replaces" 0 $?

"$GPUPORT" freeze --diff "$tmp/a.json" "$tmp/a.json" > "$tmp/out"
expect "diff of a manifest with itself" 0 $?
grep -q "No difference that can change results" "$tmp/out" || { echo "FAIL same text"; fail=1; }

printf 'xyz' > "$tmp/in.bin"
"$GPUPORT" freeze --no-python --data "$tmp/in.bin" --seed torch=43 > "$tmp/c.json"
"$GPUPORT" freeze --diff "$tmp/a.json" "$tmp/c.json" > "$tmp/out"
expect "diff with changed data and seed" 1 $?
grep -q "in.bin" "$tmp/out" && grep -q "torch" "$tmp/out" || { echo "FAIL diff text"; cat "$tmp/out"; fail=1; }
"$GPUPORT" freeze --diff --json "$tmp/a.json" "$tmp/c.json" > "$tmp/out"
expect "diff --json" 1 $?
grep -q '"schema":.*"gpuport.freeze-diff/1"' "$tmp/out" || { echo "FAIL diff schema"; fail=1; }

"$GPUPORT" freeze --no-python --data "$tmp/missing.npy" > "$tmp/out" 2>"$tmp/err"
expect "missing data file" 2 $?
grep -q "missing.npy: No such file" "$tmp/err" || { echo "FAIL missing message"; cat "$tmp/err"; fail=1; }
[ -s "$tmp/out" ] && { echo "FAIL partial output on error"; fail=1; }

printf '{"schema": "gpuport.freeze/1", "host": {' > "$tmp/bad.json"
"$GPUPORT" freeze --diff "$tmp/bad.json" "$tmp/a.json" 2>"$tmp/err"
expect "malformed manifest" 2 $?
grep -q "bad.json: not valid JSON" "$tmp/err" || { echo "FAIL malformed message"; cat "$tmp/err"; fail=1; }
# a data path holding an escape sequence (a file name can hold any byte but / and NUL): the
# report shows it escaped, never raw; the JSON keeps it, escaped as JSON escapes it
python3 - "$tmp/a.json" "$tmp/esc.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["data"][0]["path"] = "evil\x1b[2J\x1b]0;owned\x07.npy"
json.dump(m, open(sys.argv[2], "w"))
PY
"$GPUPORT" freeze --diff "$tmp/a.json" "$tmp/esc.json" > "$tmp/out"
expect "diff with an escape sequence in a path" 1 $?
grep -qF 'evil\x1b[2J\x1b]0;owned\x07.npy' "$tmp/out" || { echo "FAIL the path is not shown escaped:"; cat -v "$tmp/out"; fail=1; }
if grep -q "$(printf '\033')" "$tmp/out"; then echo "FAIL a raw ESC reached the output"; fail=1; else echo "ok   no raw ESC in the report"; fi
"$GPUPORT" freeze --diff --json "$tmp/a.json" "$tmp/esc.json" > "$tmp/out"
grep -qF 'evil\u001b[2J' "$tmp/out" && echo "ok   the JSON keeps the name (JSON-escaped)" || { echo "FAIL JSON name"; fail=1; }
# a manifest over the 64 MiB cap is refused from its size, before it is read
truncate -s 70M "$tmp/huge.json"
"$GPUPORT" freeze --diff "$tmp/huge.json" "$tmp/a.json" 2>"$tmp/err"
expect "oversize manifest" 2 $?
grep -q "huge.json: is 73400320 bytes, over the 64 MiB a manifest may have" "$tmp/err" ||
    { echo "FAIL oversize message"; cat "$tmp/err"; fail=1; }
"$GPUPORT" freeze --seed novalue 2>/dev/null
expect "bad --seed" 2 $?
"$GPUPORT" freeze --diff "$tmp/a.json" 2>/dev/null
expect "--diff with one file" 2 $?
exit $fail
