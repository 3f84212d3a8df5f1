#!/usr/bin/env bash
# Configures and builds gpuport into build/ (or $GPUPORT_BUILD_DIR). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${GPUPORT_BUILD_DIR:-build}
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
extra=()
# Homebrew's OpenSSL is keg-only: CMake does not find it without a hint.
if [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null; then
    extra+=("-DOPENSSL_ROOT_DIR=$(brew --prefix openssl@3)")
fi
cmake -S . -B "$dir" -DGPUPORT_WERROR=ON ${extra[@]+"${extra[@]}"} "$@" >/dev/null
cmake --build "$dir" -j "$jobs"
