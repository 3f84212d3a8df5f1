#!/usr/bin/env bash
# Every rule has a fixture mini-project (positive, negatives in comments/docstrings/strings/
# unrelated identifiers, and the guarded variant): the exact findings (file, line, column,
# severity, rule) must equal the fixture's expected.txt. Also the suppression fixture.
set -u
fix="$GPUPORT_SOURCE_DIR/tests/audit/fixtures"
fail=0
findings() { # the gcc-style finding lines of the human report, cut after the rule id
    (cd "$1" && "$GPUPORT" audit -j 2 --all --fail-on never .) |
        grep -E '^[^ ].*:[0-9]+:[0-9]+: (error|warning|note) ' |
        sed -E 's/^(.*: (error|warning|note) [A-Z0-9-]+):.*$/\1/'
}
for id in $("$GPUPORT" audit --list-rules | awk '{print $1}'); do
    d="$fix/rules/$id"
    if [ ! -f "$d/expected.txt" ]; then
        echo "FAIL $id: no fixture in tests/audit/fixtures/rules/$id"; fail=1; continue
    fi
    if ! grep -q " $id\$" "$d/expected.txt"; then
        echo "FAIL $id: its fixture has no positive finding"; fail=1
    fi
    if diff -u "$d/expected.txt" <(findings "$d") >/tmp/gp-audit-diff.$$; then
        echo "ok   $id ($(wc -l <"$d/expected.txt") findings)"
    else
        echo "FAIL $id"; cat /tmp/gp-audit-diff.$$; fail=1
    fi
done
if diff -u "$fix/suppress/expected.txt" <(findings "$fix/suppress") >/tmp/gp-audit-diff.$$; then
    echo "ok   inline suppressions"
else
    echo "FAIL inline suppressions"; cat /tmp/gp-audit-diff.$$; fail=1
fi
n=$("$GPUPORT" audit --list-rules | wc -l)
[ "$n" -ge 38 ] || { echo "FAIL only $n rules"; fail=1; }
rm -f /tmp/gp-audit-diff.$$
exit $fail
