#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs `gpuport doctor` (what this machine can
# do and what is broken, with the fix), then one C example on the device gpuport picks, printing
# that device and the reason for it. Each step says what it does before it starts and how long it
# took; at a terminal the build shows its progress on one line (elsewhere only the step lines).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "== $*"; }
took() { echo "   done in $((SECONDS - $1)) s"; }

t=$SECONDS
step "checking what gpuport needs and installing what is missing (scripts/install-deps.sh, lists in scripts/deps/)"
scripts/install-deps.sh
took $t

t=$SECONDS
if [ -f build/CMakeCache.txt ]; then
    step "building gpuport into build/ (scripts/build.sh; only what changed)"
else
    step "configuring and building gpuport into build/ (scripts/build.sh; a few minutes the first time)"
fi
if [ -t 1 ]; then
    # cmake's "[ 42%] Building C object ..." lines, each over the last; warnings and errors
    # (stderr) pass through untouched
    scripts/build.sh | awk '/^\[ *[0-9]+%\]/ { printf "\r   %-76.76s", $0; fflush(); next }
        { printf "\r%80s\r", ""; print; fflush() } END { printf "\r%80s\r", "" }'
else
    scripts/build.sh >/dev/null
fi
took $t
echo "   built build/gpuport (the command-line tool) and the library libgpuport in build/"

step "gpuport doctor"
build/gpuport doctor || true
echo
step "examples/c/saxpy.c on the device gpuport picks (auto), and why that one"
build/example_saxpy
