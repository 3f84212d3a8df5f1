#!/usr/bin/env bash
# `gpuport freeze --mps-report FILE`: the manifest's "mps" section holds the fallback setting of
# the run and the report's verdict, CPU-fallback operators and first failure; two runs whose
# fallback lists differ differ where it matters; a file that is not a report is exit 2, named.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect NAME WANT_RC GOT_RC
    if [ "$2" != "$3" ]; then echo "FAIL $1: exit $3, expected $2"; fail=1; else echo "ok   $1"; fi
}
has() { # has NAME FILE TEXT
    grep -qF -- "$3" "$2" || { echo "FAIL $1: no '$3' in"; cat "$2"; fail=1; }
}
cat > "$tmp/r1.json" <<'JSON'
{"schema": "gpuport.mps-check/1", "verdict": "fallback", "mode": "simulated",
 "fallback_enabled": true, "torch": "2.15.0", "findings": [],
 "first_failure": null,
 "fallback_operators": [{"operator": "aten::linalg_eig", "count": 3},
                        {"operator": "aten::embedding_renorm_", "count": 1}]}
JSON
sed 's/"count": 3/"count": 5/; s/"aten::embedding_renorm_"/"aten::mode"/' "$tmp/r1.json" > "$tmp/r2.json"

unset PYTORCH_ENABLE_MPS_FALLBACK
"$GPUPORT" freeze --no-python > "$tmp/plain.json"
expect "without a report" 0 $?
has "fallback setting recorded" "$tmp/plain.json" '"fallback_setting":	"unset"'

PYTORCH_ENABLE_MPS_FALLBACK=1 "$GPUPORT" freeze --no-python --mps-report "$tmp/r1.json" -o "$tmp/m1.json"
expect "with a report" 0 $?
has "verdict" "$tmp/m1.json" '"verdict":	"fallback"'
has "operator and count" "$tmp/m1.json" '"aten::linalg_eig":	3'
has "setting of the run" "$tmp/m1.json" '"fallback_setting":	"PYTORCH_ENABLE_MPS_FALLBACK=1"'
has "report named" "$tmp/m1.json" "\"report\":	\"$tmp/r1.json\""

PYTORCH_ENABLE_MPS_FALLBACK=1 "$GPUPORT" freeze --no-python --mps-report "$tmp/r2.json" -o "$tmp/m2.json"
"$GPUPORT" freeze --diff "$tmp/m1.json" "$tmp/m2.json" > "$tmp/diff"
expect "different fallback lists matter" 1 $?
has "changed count" "$tmp/diff" "fallback_operators.aten::linalg_eig"
has "new operator" "$tmp/diff" "fallback_operators.aten::mode"

printf '{"schema": "gpuport.freeze/1"}' > "$tmp/not.json"
"$GPUPORT" freeze --no-python --mps-report "$tmp/not.json" -o "$tmp/x.json" 2> "$tmp/err"
expect "not a report" 2 $?
has "named, with the way out" "$tmp/err" "not.json: not a gpuport mps-check report"
[ -e "$tmp/x.json" ] && { echo "FAIL a manifest was written"; fail=1; }
sed 's/"count": 3/"count": "3"/' "$tmp/r1.json" > "$tmp/bad.json"
"$GPUPORT" freeze --no-python --mps-report "$tmp/bad.json" 2> "$tmp/err" > /dev/null
expect "bad count" 2 $?
has "field named" "$tmp/err" 'fallback_operators[0] needs "operator" (string) and "count"'
"$GPUPORT" freeze --no-python --mps-report "$tmp/missing.json" 2> "$tmp/err" > /dev/null
expect "missing report" 2 $?
has "path named" "$tmp/err" "missing.json"
"$GPUPORT" freeze --diff --mps-report "$tmp/r1.json" "$tmp/m1.json" "$tmp/m2.json" 2> /dev/null
expect "--diff takes no report" 2 $?
exit $fail
