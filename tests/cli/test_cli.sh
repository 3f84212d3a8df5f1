#!/usr/bin/env bash
# The conventions every subcommand shares: help, version, unknown commands, exit codes.
set -u
fail=0
check() { # check NAME EXPECTED_RC COMMAND...
    local name=$1 want=$2; shift 2
    "$@" >/tmp/gp-cli-out.$$ 2>&1
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL $name: exit $rc, expected $want"; cat /tmp/gp-cli-out.$$; fail=1
    else
        echo "ok   $name"
    fi
}
check "help" 0 "$GPUPORT" --help
check "no args is a usage error" 2 "$GPUPORT"
check "unknown command" 2 "$GPUPORT" frobnicate
check "version" 0 "$GPUPORT" --version
grep -q '^gpuport [0-9]' /tmp/gp-cli-out.$$ || { echo "FAIL version text"; fail=1; }
check "version --json" 0 "$GPUPORT" version --json
grep -q '"schema":.*"gpuport.version/1"' /tmp/gp-cli-out.$$ || { echo "FAIL version schema"; fail=1; }
check "unknown option" 2 "$GPUPORT" version --bogus
# Every subcommand answers --help with exit 0 and a usage line.
for cmd in $("$GPUPORT" --help | awk '/^Commands:/{on=1;next} on && /^  [a-z]/{print $1}'); do
    check "$cmd --help" 0 "$GPUPORT" "$cmd" --help
    grep -qi 'usage' /tmp/gp-cli-out.$$ || { echo "FAIL $cmd --help has no usage line"; fail=1; }
    check "$cmd --version" 0 "$GPUPORT" "$cmd" --version
    grep -q '^gpuport [0-9]' /tmp/gp-cli-out.$$ || { echo "FAIL $cmd --version text"; fail=1; }
done
rm -f /tmp/gp-cli-out.$$
exit $fail
