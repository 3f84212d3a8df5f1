#!/usr/bin/env bash
# Configures and builds gpuport into build/ (or $GPUPORT_BUILD_DIR). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${GPUPORT_BUILD_DIR:-build}
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
cmake -S . -B "$dir" -DGPUPORT_WERROR=ON "$@" >/dev/null
cmake --build "$dir" -j "$jobs"
