#!/usr/bin/env bash
# remote.sh — what `gpuport remote run` costs next to the hand-made loop a user would otherwise
# type (rsync with the .gitignore filter, then ssh 'cd DIR && CMD'), in the same run, against the
# throwaway loopback sshd of the test suite (tests/remote/sshd.bash). The project is a git work
# tree of FILES small files (default 2000) generated in a temporary folder; hyperfine reports the
# mean of RUNS runs (default 10) after 2 warm-up runs. Loopback only: this measures gpuport's own
# overhead (process starts, the ssh master, the manifest round trips), not a network.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUPORT_BUILD_DIR:-build}
G=$(cd "$build" && pwd)/gpuport
[ -x "$G" ] || { echo "build gpuport first (scripts/build.sh)" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "install hyperfine" >&2; exit 2; }
. tests/remote/sshd.bash
gp_sshd_start
files=${FILES:-2000}
runs=${RUNS:-10}
W=$GP_SSH_DIR/bench
mkdir -p "$W/cfg" "$W/far" "$W/proj/src"
export GPUPORT_CONFIG_DIR=$W/cfg GPUPORT_SSH_CONFIG=$GP_SSH_CONFIG
cd "$W/proj"
git init -q . && git config user.email b@example.com && git config user.name b
for i in $(seq 1 "$files"); do head -c 4096 /dev/urandom >"src/f$i.bin"; done
printf 'build/\n' >.gitignore && mkdir build && head -c 1048576 /dev/urandom >build/big.o
git add -A && git commit -qm bench
"$G" remote add b gptest --path "$W/far/g" >/dev/null
ssh_cmd="ssh -F $GP_SSH_CONFIG"
hand="rsync -a --delete --filter=':- .gitignore' --exclude=/.git -e '$ssh_cmd' ./ gptest:$W/far/h/"
"$G" remote run b --sync -- true 2>/dev/null
eval "$hand"
hyperfine -N --warmup 2 --runs "$runs" --export-markdown "$W/result.md" \
    -n "gpuport remote run --sync -- true (nothing changed)" "$G remote run b --sync -- true" \
    -n "rsync + ssh by hand (nothing changed)" \
    "sh -c \"$hand && $ssh_cmd gptest 'cd $W/far/h && true'\"" \
    -n "gpuport remote run -- true (no sync)" "$G remote run b -- true" \
    -n "ssh gptest 'cd DIR && true'" "$ssh_cmd gptest 'cd $W/far/h && true'"
cat "$W/result.md"
