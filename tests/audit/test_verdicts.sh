#!/usr/bin/env bash
# Fixture projects for each verdict and each stop condition: the project verdict line, the exact
# set of stop conditions and of conditional ones (a stop for one path only), and, where the
# fixture lists them, each component's verdict and role must match the fixture's expected.txt:
#   Verdict: V (effort: E)
#   stop ID
#   conditional ID
#   component VERDICT PATH [KIND OR ROLE]
# (a folder is one line of the report: a second part in it, such as an optional CUDA part beside
# the default-built code, is a "+ ROLE part: VERDICT (EFFORT)" line below it, listed here as a
# component of that folder)
set -u
fix="$GPUPORT_SOURCE_DIR/tests/audit/fixtures"
fail=0
for d in "$fix"/projects/* "$fix"/stops/*; do
    name=${d#$fix/}
    comps=0
    grep -q '^component ' "$d/expected.txt" && comps=1
    got=$( (cd "$d" && "$GPUPORT" audit -j 2 --fail-on never .) |
        awk -v comps=$comps '
            /^Verdict:/ {print}
            /^[A-Z]/ {sec=""}
            /^Components \(/ {sec="c"; next}
            /^Stop conditions \(/ {sec="s"; next}
            /^Conditional stop conditions/ {sec="k"; next}
            sec=="c" && comps && /^  [a-z]/ {
                r=$0; sub(/^[^[]*\[/,"",r); sub(/\].*$/,"",r); cur=$6; print "component " $1 " " $2 " " $6 " [" r "]"}
            sec=="c" && comps && /^      \+ / {
                l=$0; sub(/^      \+ /,"",l); r=l; sub(/( part)?: .*$/,"",r); v=l; sub(/^[^:]*: /,"",v)
                split(v,a," "); e=a[2]; gsub(/[(),]/,"",e); print "component " a[1] " " e " " cur " [" r "]"}
            (sec=="s" || sec=="k") && /^  [a-z-]+:/ {
                id=$1; sub(/:$/,"",id); print (sec=="s" ? "stop " : "conditional ") id}')
    # the same answer for the folder named by its absolute path (under a folder named tests, as
    # here: only the folders under the scanned one say what is an example or a test)
    abs=$("$GPUPORT" audit -j 2 --fail-on never "$d" | grep -E '^Verdict|^  [a-z-]+: |^Stop|^Conditional')
    rel=$( (cd "$d" && "$GPUPORT" audit -j 2 --fail-on never .) | grep -E '^Verdict|^  [a-z-]+: |^Stop|^Conditional')
    if [ "$abs" != "$rel" ]; then
        echo "FAIL $name: another verdict when named by its absolute path"; diff <(echo "$rel") <(echo "$abs") | head -5; fail=1
    fi
    if [ "$got" == "$(cat "$d/expected.txt")" ]; then
        echo "ok   $name"
    else
        echo "FAIL $name"; echo "  expected: $(cat "$d/expected.txt" | tr '\n' '|')"; echo "  got:      $(echo "$got" | tr '\n' '|')"; fail=1
    fi
done
# The same answer in JSON, and the exit code follows --fail-on.
out=$(cd "$fix/stops/nccl" && "$GPUPORT" audit --json .)
rc=$?
[ $rc -eq 1 ] || { echo "FAIL nccl: exit $rc, expected 1 (errors)"; fail=1; }
echo "$out" | grep -q '"verdict":"needs-rewrite"' || { echo "FAIL json verdict"; fail=1; }
echo "$out" | grep -q '"id":"nccl-multi-gpu"' || { echo "FAIL json stop condition"; fail=1; }
(cd "$fix/projects/abstraction" && "$GPUPORT" audit . >/dev/null)
rc=$?; [ $rc -eq 0 ] || { echo "FAIL warnings only: exit $rc with --fail-on error"; fail=1; }
(cd "$fix/projects/abstraction" && "$GPUPORT" audit --fail-on warning . >/dev/null)
rc=$?; [ $rc -eq 1 ] || { echo "FAIL --fail-on warning: exit $rc"; fail=1; }
[ $fail -eq 0 ] && echo "ok   exit codes and JSON"
# stop-condition evidence in a notebook names its cell, as the finding does
nb=$(mktemp -d)
printf '{"cells": [{"cell_type": "markdown", "source": ["x"]}, {"cell_type": "code", "source": ["import apex\\n"]}], "nbformat": 4}' >"$nb/nb.ipynb"
(cd "$nb" && "$GPUPORT" audit --fail-on never .) | grep -q 'e.g. nb.ipynb:cell 2:1 (PY-IMP-001)' &&
    (cd "$nb" && "$GPUPORT" audit --json --fail-on never .) | grep -q '"file":"nb.ipynb","cell":2,"line":1' &&
    echo "ok   notebook evidence with its cell" || { echo "FAIL notebook evidence without its cell"; fail=1; }
rm -rf "$nb"
# reachability from the entry points: a helper no entry point reaches holds its stop only
# conditionally, and says why; its findings are guarded notes
out=$(cd "$fix/projects/reach_unused_helper" && "$GPUPORT" audit --json --fail-on never .)
echo "$out" | grep -q '"why":"only in code that no entry point reaches (a library function, or unused)"' &&
    echo "$out" | grep -q '"rule":"PY-DIST-001","file":"imgnet/parallel.py","line":9,"column":37,"severity":"note","guarded":true' &&
    echo "ok   unreached helper: conditional, guarded note" || { echo "FAIL unreached helper"; fail=1; }
# a function reached two modules down, only behind the --distributed switch: multi-GPU path
out=$(cd "$fix/projects/reach_setup_two_deep" && "$GPUPORT" audit --json --fail-on never .)
echo "$out" | grep -q '"why":"only for multi-GPU training (the single-device path has none)"' &&
    echo "ok   two-deep call behind a switch" || { echo "FAIL two-deep call behind a switch"; fail=1; }
# a base class of the project that defines its own cuda(): self.cuda() in a subclass in another
# file is that method; in a class on nn.Module it is torch's
out=$(cd "$fix/projects/own_cuda_method_base" && "$GPUPORT" audit --all --fail-on never .)
echo "$out" | grep -q '^nets/mlp.py:20:14: warning PY-DEV-001' && ! echo "$out" | grep -q '^nets/mlp.py:10:' &&
    echo "ok   own cuda() of a base class" || { echo "FAIL own cuda() of a base class"; fail=1; }
exit $fail
