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
# A refused option is named once (getopt adds nothing of its own); with --json the error is also
# one JSON object on stdout (all checked by one python3 at the end: it is slow to start).
jdir=$(mktemp -d)
for cmd in archcheck audit bench cache compare devices doctor freeze new translate version "remote list"; do
    $GPUPORT $cmd --bogus >/tmp/gp-cli-out.$$ 2>/tmp/gp-cli-err.$$
    rc=$?
    want="gpuport ${cmd%% *}: unknown option '--bogus'"
    [ "$cmd" = "remote list" ] && want=$(head -1 /tmp/gp-cli-err.$$) # its own wording
    if [ $rc != 2 ] || [ "$(head -1 /tmp/gp-cli-err.$$)" != "$want" ] ||
        [ "$(grep -c . /tmp/gp-cli-err.$$)" != 2 ] || [ -s /tmp/gp-cli-out.$$ ]; then
        echo "FAIL $cmd --bogus: exit $rc, stderr:"; cat /tmp/gp-cli-err.$$; fail=1
    else
        echo "ok   $cmd --bogus: one message naming the option"
    fi
    $GPUPORT $cmd --json --bogus >"$jdir/${cmd%% *}.json" 2>/dev/null
done
python3 - "$jdir" <<'PY' || fail=1
import glob, json, os, sys
bad = 0
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    cmd = os.path.basename(path)[:-5]
    try:
        e = json.load(open(path))
        assert e["schema"] == "gpuport.error/1" and e["exit_code"] == 2, e
        assert e["command"] == cmd, e
        assert cmd == "remote" or e["error"] == "unknown option '--bogus'", e
        print(f"ok   {cmd} --json --bogus: the error as JSON on stdout")
    except (ValueError, AssertionError, KeyError) as x:
        print(f"FAIL {cmd} --json --bogus: stdout is not the error object: {x}")
        bad = 1
sys.exit(bad)
PY
rm -rf "$jdir" /tmp/gp-cli-err.$$

# Counts agree with their nouns: one of a thing is "1 file", never "1 files".
gram=$(mktemp -d)
printf 'cudaMalloc(&p, 4);\n' >"$gram/one.cu"
"$GPUPORT" audit "$gram/one.cu" >"$gram/out" 2>&1
for want in "1 file scanned" "Findings: 1 error, 0 warnings"; do
    grep -q "$want" "$gram/out" && echo "ok   audit says '$want'" || { echo "FAIL audit: no '$want' in:"; cat "$gram/out"; fail=1; }
done
python3 -c 'import numpy as np, sys
np.save(sys.argv[1] + "/a.npy", np.array([1, np.nan, 3], np.float32))
np.save(sys.argv[1] + "/b.npy", np.array([1, 2, 3], np.float32))' "$gram"
"$GPUPORT" compare "$gram/a.npy" "$gram/b.npy" >"$gram/out" 2>&1
grep -q "1 NaN placement mismatch, 0 Inf mismatches, 1 pair not both finite" "$gram/out" &&
    echo "ok   compare: 1 NaN placement mismatch, 1 pair" || { echo "FAIL compare counts:"; cat "$gram/out"; fail=1; }
printf '__global__ void a(float *x) { x[0] = 1; }\ntemplate <typename T> __global__ void b(T *x) { x[0] = 2; }\n__global__ void c(float *x) { x[0] = 3; }\n' >"$gram/k.cu"
"$GPUPORT" translate "$gram/k.cu" -o "$gram/k.gpk" 2>"$gram/out"
grep -q "2 of 3 kernels translated" "$gram/out" && echo "ok   translate: 2 of 3 kernels for a file holding 3" ||
    { echo "FAIL translate count:"; cat "$gram/out"; fail=1; }
for lib in /usr/local/cuda/lib64/libcufftw.so.*; do
    [ -f "$lib" ] && [ ! -L "$lib" ] || continue
    "$GPUPORT" archcheck --cc 8.6 "$lib" >"$gram/out" 2>&1
    grep -q ": 1 container, 1 SASS" "$gram/out" && echo "ok   archcheck: 1 container" ||
        { echo "FAIL archcheck count:"; cat "$gram/out"; fail=1; }
done
rm -rf "$gram"

# Outside text (file names, tensor names, code) is printed with control characters escaped: an
# escape sequence in a name must not reach the terminal.
esc=$(mktemp -d)
evil=$(printf 'ev\033[2Jil')
printf 'cudaMalloc(&p, 4); /* \033]0;owned\007 */\n' >"$esc/$evil.cu"
printf '__global__ void k(float *x) { asm("nop"); }\n' >"$esc/$evil-k.cu"
python3 -c 'import numpy as np, sys
np.savez(sys.argv[1] + "/a.npz", **{"w\x1b[31m": np.zeros(3, np.float32)})
np.savez(sys.argv[1] + "/b.npz", **{"w\x1b[31m": np.ones(3, np.float32)})' "$esc"
cp /bin/true "$esc/$evil.so"
noraw() { # noraw NAME: the last output has no raw ESC and shows the escaped form
    if grep -q "$(printf '\033')" "$esc/out"; then
        echo "FAIL $1: a raw ESC reached the terminal:"; cat -v "$esc/out"; fail=1
    elif ! grep -qF 'x1b' "$esc/out"; then
        echo "FAIL $1: the name is not shown (escaped):"; cat -v "$esc/out"; fail=1
    else
        echo "ok   $1: control characters escaped"
    fi
}
"$GPUPORT" audit "$esc" >"$esc/out" 2>&1
if [ "${GPUPORT_TARGET_OS:-}" = windows ]; then
    # Windows allows no control character in a file name: Wine shows this one as a short name
    echo "SKIP: a file name with an escape character cannot exist on Windows (audit's escaping of names is checked on POSIX)"
    grep -q "$(printf '\033')" "$esc/out" && { echo "FAIL audit: a raw ESC reached the terminal"; fail=1; }
else
    noraw "audit (path and code)"
fi
"$GPUPORT" compare "$esc/a.npz" "$esc/b.npz" >"$esc/out" 2>&1
noraw "compare (tensor name)"
"$GPUPORT" archcheck "$esc/$evil.so" >"$esc/out" 2>&1
noraw "archcheck (file name)"
"$GPUPORT" translate "$esc/$evil-k.cu" -o "$esc/k.gpk" >"$esc/out" 2>&1
noraw "translate (file name in a refusal)"
"$GPUPORT" compare "$esc/$evil.cu" "$esc/a.npz" >"$esc/out" 2>&1
noraw "an error message naming the file"
rm -rf "$esc"

# on Windows doctor checks Windows (the registry's version of it), not Linux facts
if [ "${GPUPORT_TARGET_OS:-}" = windows ]; then
    check "doctor on Windows" 0 "$GPUPORT" doctor
    grep -Eq '^gpuport doctor: .*Windows.*\(build [0-9]+\)' /tmp/gp-cli-out.$$ && grep -q 'win.driver' /tmp/gp-cli-out.$$ ||
        { echo "FAIL doctor on Windows: not the Windows checks"; cat /tmp/gp-cli-out.$$; fail=1; }
fi

# A closed stdout ends a command quietly, as it ends Unix tools (status 141 = SIGPIPE), also when
# the parent ignores SIGPIPE: a report far larger than a pipe holds (--all: every finding), read
# by `head -1`.
big=$(mktemp -d)
for i in 1 2; do yes 'cudaMalloc(&p, 4);' | head -n 2000 >"$big/f$i.cu"; done # 290 KB of report
rc=$( (trap '' PIPE; set -o pipefail; "$GPUPORT" audit --all "$big" 2>/tmp/gp-cli-err.$$ | head -1 >/dev/null; echo $?) )
if [ "$rc" = 141 ] && [ ! -s /tmp/gp-cli-err.$$ ]; then
    echo "ok   audit BIG | head: ends quietly by SIGPIPE"
elif [ "${GPUPORT_TARGET_OS:-}" = windows ] && [ "$rc" != 0 ] && [ ! -s /tmp/gp-cli-err.$$ ]; then
    echo "ok   audit BIG | head: ends quietly (Windows has no SIGPIPE: status $rc)"
else
    echo "FAIL audit BIG | head: status $rc, stderr:"; cat /tmp/gp-cli-err.$$; fail=1
fi
rm -rf "$big" /tmp/gp-cli-err.$$
rm -f /tmp/gp-cli-out.$$
exit $fail
