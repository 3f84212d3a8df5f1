#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs `gpuport doctor` (what this machine can
# do and what is broken, with the fix), then one C example on the device gpuport picks, printing
# that device and the reason for it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh >/dev/null
echo "== gpuport doctor"
build/gpuport doctor || true
echo
echo "== examples/c/saxpy.c on the device gpuport picks (auto), and why that one"
build/example_saxpy
