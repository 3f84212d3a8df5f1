#!/usr/bin/env bash
# test_check_corpus.sh — every kernel of tests/runtime/check/ runs checked through `gpuport run
# --check --json`, as its "// run:" line says. A line marked "// expect: CHECK..." must get a report
# of each check it names, and no report may name a line or a check its markers do not: the buggy
# kernels (bug_*.gpk) each hold one classic bug, the correct look-alikes (ok_*.gpk, no markers)
# must give no report at all and exit 0. A line marked "// expect: build" must make the build fail
# (exit 2) with a message naming that line. CUDA sources (*.cu) are translated in memory and
# checked the same way; their reports speak of threads and blocks, never work-items; a line marked
# "// expect: refused" holds what translate refuses (exit 2, the reason naming that line). "@DIR@" in a run line is the corpus's directory.
# Arguments (optional): the corpus directory and the least number of kernels it must hold.
set -u
src=${GPUPORT_SOURCE_DIR:?}
dir=${1:-$src/tests/runtime/check}
least=${2:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
shopt -s nullglob
for f in "$dir"/*.gpk "$dir"/*.cu; do
    n=$((n + 1))
    name=$(basename "$f")
    run=$(sed -n 's|^// run: ||p' "$f" | head -1)
    run=${run//@DIR@/$dir}
    [ -n "$run" ] || { echo "FAIL $name: no '// run:' line"; fail=1; continue; }
    # shellcheck disable=SC2086 # the run line is a list of words
    set -- $run
    kernel=$1
    shift
    (cd "$tmp" && "$GPUPORT" run "$f" "$kernel" --check --json "$@") >"$tmp/out.json" 2>"$tmp/err"
    rc=$?
    if ! python3 - "$f" "$tmp/out.json" "$rc" "$tmp/err" >"$tmp/why" 2>&1 <<'EOF'; then
import json, re, sys
path, out, rc = sys.argv[1], sys.argv[2], int(sys.argv[3])
marks = {}
for no, line in enumerate(open(path), 1):
    m = re.search(r"// expect: (.*)$", line)
    if m:
        marks[no] = set(m.group(1).split())
build = [no for no, c in marks.items() if "build" in c or "refused" in c]
if build:
    err = open(sys.argv[4]).read()
    if rc != 2:
        sys.exit("exit code %d, wanted 2 (a build error)" % rc)
    if not any("%s:%d:" % (path.split("/")[-1], no) in err for no in build):
        sys.exit("the build error names none of the lines %s: %s" % (build, err[-300:]))
    if any("refused" in marks[no] for no in build) and "cannot be translated" not in err:
        sys.exit("not refused as untranslatable: %s" % err[-300:])
    print("build refused")
    sys.exit(0)
try:
    doc = json.load(open(out))
except ValueError as e:
    sys.exit("no JSON on stdout (exit %d): %s" % (rc, e))
if doc.get("schema") != "gpuport.run/1":
    sys.exit("schema is %r" % doc.get("schema"))
reps = doc["reports"]
bad = [r for r in reps if r["check"] not in marks.get(r["line"], ())]
if bad:
    sys.exit("unexpected: " + "; ".join("%d:%d %s: %s" % (r["line"], r["column"], r["check"], r["message"]) for r in bad))
for check in sorted(set().union(*marks.values()) if marks else ()):
    if not any(r["check"] == check and check in marks.get(r["line"], ()) for r in reps):
        sys.exit("no %s report on the marked line(s) %s" % (check, sorted(l for l, c in marks.items() if check in c)))
for r in reps:
    for key in ("check", "file", "line", "column", "message"):
        if key not in r:
            sys.exit("a report without %r" % key)
    if not r["file"].endswith(path.split("/")[-1]) or r["line"] <= 0 or r["column"] <= 0:
        sys.exit("a report without its place: %r" % r)
    if path.endswith(".cu") and "work-item" in r["message"]:
        sys.exit("a report of a CUDA kernel in the dialect's words: %r" % r["message"])
want = 1 if marks else 0
if rc != want:
    sys.exit("exit code %d, wanted %d" % (rc, want))
print("%d report(s)" % len(reps))
EOF
        echo "FAIL $name: $(cat "$tmp/why")"
        tail -5 "$tmp/err"
        fail=1
    else
        echo "ok   $name: $(cat "$tmp/why")"
    fi
done
[ "$n" -ge "$least" ] || { echo "FAIL: only $n kernels in $dir"; fail=1; }
exit $fail
