#!/usr/bin/env bash
# Debian packages of gpuport: libgpuport0 (the shared library), libgpuport-dev (headers, static
# library, CMake package, pkg-config file) and gpuport (the CLI), made by CPack from a Release
# build for /usr in build-deb/ (or $GPUPORT_BUILD_DIR). Their Depends: come from dpkg-shlibdeps.
#   scripts/package-deb.sh [OUTDIR]      (default: the build folder); prints the .deb paths
# Install: sudo apt-get install ./libgpuport0_*.deb ./libgpuport-dev_*.deb ./gpuport_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${GPUPORT_BUILD_DIR:-build-deb}
out=${1:-$dir}
for t in dpkg-deb dpkg-shlibdeps cmake; do
    command -v "$t" >/dev/null || { echo "package-deb.sh: $t is needed (apt-get install dpkg-dev cmake)" >&2; exit 2; }
done
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DGPUPORT_TESTS=OFF \
    -DGPUPORT_WERROR=ON >/dev/null
cmake --build "$dir" -j "$jobs" >/dev/null
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$(cd "$dir" && cpack -G DEB -B "$out" 2>&1) || { echo "$log" >&2; exit 1; }
rm -rf "$out/_CPack_Packages"
ls "$out"/*.deb
