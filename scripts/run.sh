#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs `gpuport doctor` (what this machine can
# do and what is broken, with the fix).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh >/dev/null
echo "== gpuport doctor"
build/gpuport doctor || true
