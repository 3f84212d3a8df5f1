# checks.bash — sourced by the remote tests after gp_sshd_start: their work folder $W (with the
# config folder $W/cfg and the "far" side $W/far), the environment that points gpuport at the
# test server, and the one-line checks they are written in. Each check prints "ok   NAME" or
# "FAIL NAME" (with what was seen) and a FAIL sets $fail to 1.
# run_rc NAME WANT COMMAND... runs COMMAND with stdout in $W/out and stderr in $W/err and checks
# its exit code; has/hasnt NAME FILE PATTERN check a file for a grep pattern.
W=$GP_SSH_DIR/work
mkdir -p "$W/cfg" "$W/far"
# gpuport's private folders (the ssh control socket) go here, to check that none is left behind.
mkdir -m 700 "$GP_SSH_DIR/r"
export XDG_RUNTIME_DIR=$GP_SSH_DIR/r
export GPUPORT_CONFIG_DIR=$W/cfg GPUPORT_SSH_CONFIG=$GP_SSH_CONFIG NO_COLOR=1
fail=0
ok() { echo "ok   $*"; }
bad() {
    echo "FAIL $*"
    fail=1
}
run_rc() {
    local name=$1 want=$2
    shift 2
    "$@" >"$W/out" 2>"$W/err"
    local rc=$?
    if [ "$rc" = "$want" ]; then
        ok "$name"
    else
        bad "$name: exit $rc, expected $want"
        sed 's/^/    out: /' "$W/out"
        sed 's/^/    err: /' "$W/err"
    fi
}
has() {
    if grep -q -- "$3" "$2"; then ok "$1"; else
        bad "$1: '$3' not in $(basename "$2")"
        sed 's/^/    /' "$2"
    fi
}
hasnt() {
    if grep -q -- "$3" "$2"; then
        bad "$1: '$3' in $(basename "$2")"
        sed 's/^/    /' "$2"
    else ok "$1"; fi
}
# streams NAME FILE PID: the command PID writes FILE; its line "first..." must arrive while it
# still runs and before its line "second". Waits for PID's end and checks that "second" came.
streams() {
    local name=$1 file=$2 pid=$3
    for _ in $(seq 1 100); do
        grep -q first "$file" 2>/dev/null && break
        sleep 0.1
    done
    if grep -q first "$file" && ! grep -q second "$file" && kill -0 "$pid" 2>/dev/null; then
        ok "$name"
    else
        bad "$name: the output did not stream"
        cat "$file"
    fi
    wait "$pid"
    local rc=$?
    grep -q second "$file" && ok "$name: complete" || bad "$name: incomplete"
    return $rc
}
