#!/usr/bin/env bash
# Options: the rule doc is generated from the table; -j gives the same output as -j 1; baseline
# round trip; default excludes, --exclude, --respect-gitignore; overlapping paths; SARIF and JSON
# are one object.
set -u
fix="$GPUPORT_SOURCE_DIR/tests/audit/fixtures"
work="$GPUPORT_BUILD_DIR/audit-options"
rm -rf "$work" && mkdir -p "$work"
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# docs/audit-rules.md is exactly what the tool prints
if diff -u "$GPUPORT_SOURCE_DIR/docs/audit-rules.md" <("$GPUPORT" audit --list-rules --format markdown) >"$work/d"; then
    ok "docs/audit-rules.md equals --list-rules --format markdown"
else bad "docs/audit-rules.md differs from the table (regenerate it)"; cat "$work/d"; fi

# deterministic output whatever the thread count
(cd "$fix" && "$GPUPORT" audit -j 1 --fail-on never --json .) >"$work/j1"
(cd "$fix" && "$GPUPORT" audit -j 4 --fail-on never --json .) >"$work/j4"
if cmp -s "$work/j1" "$work/j4" && [ -s "$work/j1" ]; then ok "-j 4 output equals -j 1"; else bad "-j changes the output"; fi

# baseline: known findings are hidden and do not fail; a new one does
mkdir -p "$work/proj"
printf 'import torch\nx = torch.ones(2).cuda()\nimport flash_attn\n' >"$work/proj/a.py"
(cd "$work/proj" && "$GPUPORT" audit --write-baseline ../base.json . >/dev/null)
grep -q '"schema": "gpuport.audit-baseline/1"' "$work/base.json" && ok "baseline written" || bad "baseline file"
(cd "$work/proj" && "$GPUPORT" audit --baseline ../base.json . >"$work/out")
rc=$?
[ $rc -eq 0 ] && grep -q 'Findings: 0 errors, 0 warnings, 0 notes (2 more in the baseline)' "$work/out" &&
    ok "baselined findings do not fail" || { bad "baseline: exit $rc"; cat "$work/out"; }
printf '\n\nimport cupy\n' >>"$work/proj/a.py" # lines move, one new finding
(cd "$work/proj" && "$GPUPORT" audit --baseline ../base.json . >"$work/out")
rc=$?
got=$(grep -E ': (error|warning|note) ' "$work/out" | sed -E 's/: [^:]*$//')
[ $rc -eq 1 ] && [ "$got" == "a.py:6:8: error PY-IMP-001" ] && ok "only the new finding is reported" ||
    { bad "new finding after baseline (exit $rc): $got"; }
echo '{"schema": "something/else"}' >"$work/bad.json"
(cd "$work/proj" && "$GPUPORT" audit --baseline ../bad.json . >/dev/null 2>"$work/err")
rc=$?; [ $rc -eq 2 ] && grep -q 'bad.json' "$work/err" && ok "a wrong baseline is exit 2" || bad "wrong baseline: exit $rc"

# default excludes, --exclude, --no-default-excludes, --respect-gitignore
mkdir -p "$work/ex/build" "$work/ex/third_party/lib" "$work/ex/src" "$work/ex/gen"
printf 'x.cuda()\n' | tee "$work/ex/build/a.py" "$work/ex/third_party/lib/b.py" "$work/ex/src/c.py" "$work/ex/gen/d.py" >/dev/null
printf 'gen/\n' >"$work/ex/.gitignore"
files() { (cd "$work/ex" && "$GPUPORT" audit --fail-on never "$@" .) | grep -E ': (error|warning|note) ' | cut -d: -f1 | tr '\n' ' '; }
[ "$(files)" == "gen/d.py src/c.py " ] && ok "build/ and third_party/ skipped by default" || bad "default excludes: $(files)"
[ "$(files --respect-gitignore)" == "src/c.py " ] && ok "--respect-gitignore" || bad "gitignore: $(files --respect-gitignore)"
[ "$(files --exclude 'src')" == "gen/d.py " ] && ok "--exclude" || bad "--exclude: $(files --exclude src)"
[ "$(files --no-default-excludes)" == "build/a.py gen/d.py src/c.py third_party/lib/b.py " ] && ok "--no-default-excludes" || bad "--no-default-excludes: $(files --no-default-excludes)"

# a double star in .gitignore matches zero folders too, as git's does
mkdir -p "$work/gi/a/b" "$work/gi/a/x/b" "$work/gi/foo/q" "$work/gi/keep"
for f in a/b/z.cu a/x/b/y.cu foo/baz.cu foo/q/baz.cu keep/k.cu; do
    printf '__global__ void k() {}\n' >"$work/gi/$f"
done
printf 'a/**/b/\nfoo/**/baz.cu\n' >"$work/gi/.gitignore"
got=$( (cd "$work/gi" && "$GPUPORT" audit --fail-on never --respect-gitignore .) | grep -E ': (error|warning|note) ' | cut -d: -f1 | tr '\n' ' ')
[ "$got" == "keep/k.cu " ] && ok "--respect-gitignore: ** matches zero folders" || bad "gitignore **: $got"

# a path given twice, or inside another path given, is scanned once
scanned() { (cd "$fix/stops/kernels_with_cpu" && "$GPUPORT" audit --fail-on never "$@") | head -1; }
for args in ". csrc" "csrc ." "csrc/add.cu csrc/add.cu ." "csrc ./csrc/../csrc"; do
    # shellcheck disable=SC2086
    case "$(scanned $args)" in
    *"2 files scanned"*) ok "paths $args: each file scanned once" ;;
    *) bad "paths $args: $(scanned $args)" ;;
    esac
done

# SARIF: one JSON document with the fixed header
(cd "$fix/rules/C-RT-001" && "$GPUPORT" audit --sarif .) >"$work/s.sarif"
head -c 200 "$work/s.sarif" | grep -q '"version":"2.1.0"' && ok "--sarif" || bad "--sarif header"
# the guarded finding of the fixture says so (its level is the rule's guarded one)
if command -v python3 >/dev/null; then
    python3 - "$work/s.sarif" <<'PY' && ok "SARIF results carry properties.guarded" || bad "SARIF guarded"
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
g = [r for r in res if r["properties"]["guarded"]]
assert len(g) == 1 and g[0]["level"] == "note", g
assert all(r["level"] == "error" for r in res if not r["properties"]["guarded"])
PY
fi
# SARIF: a notebook's result points into the .ipynb file itself; an absolute path argument
# gives repository-relative uris all the same
nb="$work/nb"; mkdir -p "$nb/sub"
cat >"$nb/sub/n.ipynb" <<'NB'
{
 "cells": [
  {"cell_type": "markdown", "source": ["# x\n"]},
  {"cell_type": "code",
   "source": [
    "import torch\n",
    "y = \"caf\u00e9\"; z = torch.ones(1).cuda()\n"
   ]}
 ],
 "nbformat": 4
}
NB
printf 'x = y.cuda()\n' >"$nb/a.py"
for from in "$nb" /; do # inside the folder scanned, and elsewhere
(cd "$from" && "$GPUPORT" audit --sarif --fail-on never "$nb") >"$work/nb.sarif"
if command -v python3 >/dev/null; then
    python3 - "$work/nb.sarif" "$nb/sub/n.ipynb" <<'PY' && ok "SARIF from $from: notebook lines in the file, relative uris for an absolute path" || bad "SARIF from $from: notebook or absolute path"
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
locs = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r["locations"][0]["physicalLocation"] for r in res}
assert set(locs) == {"a.py", "sub/n.ipynb"}, locs
assert all(l["artifactLocation"]["uriBaseId"] == "%SRCROOT%" for l in locs.values())
reg = locs["sub/n.ipynb"]["region"]
line = open(sys.argv[2], encoding="utf-8").read().split("\n")[reg["startLine"] - 1]
assert line[reg["startColumn"] - 1:].startswith("cuda()"), (reg, line)
PY
fi
done
exit $fail
