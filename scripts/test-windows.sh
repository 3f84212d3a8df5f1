#!/usr/bin/env bash
# The Windows build, as CI runs it: cross-builds gpuport with MinGW-w64 into build-mingw/ (or
# $GPUPORT_MINGW_BUILD_DIR), with -Werror, and runs its test suite under Wine, recording it in
# <build>/junit-ctest.xml; then lists every skip with its reason and fails on one that
# tests/expected-skips.txt does not expect (the run "ctest-wine"; what Wine cannot run, and why,
# is in tests/wine.cmake and docs/platforms.md). Does nothing, and says so, where the cross
# compiler or Wine is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${GPUPORT_MINGW_BUILD_DIR:-build-mingw}
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac # ctest reads a relative --output-junit from the build folder
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
wine=$(command -v wine64 || command -v wine || ls /usr/lib/wine/wine64 2>/dev/null || true)
if [ "$(uname -s)" != Linux ]; then
    echo "== Windows build under Wine skipped: it runs on Linux (the cross compiler and Wine from Debian)"
    exit 0
fi
if ! command -v x86_64-w64-mingw32-gcc-win32 >/dev/null && ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    echo "== Windows build under Wine skipped: no MinGW-w64 cross compiler (Debian: gcc-mingw-w64-x86-64-win32)"
    exit 0
fi
if [ -z "$wine" ]; then
    echo "== Windows build under Wine skipped: no Wine (Debian: wine64)"
    exit 0
fi
echo "== Windows build (MinGW-w64, -Werror) and test under Wine"
scripts/mingw-deps.sh
cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DGPUPORT_WERROR=ON >/dev/null
cmake --build "$dir" -j "$jobs"
# the tests' Wine prefix, made once before they start in parallel
prefix=$(sed -n 's/^GPUPORT_WINEPREFIX:PATH=//p' "$dir/CMakeCache.txt")
if [ ! -f "$prefix/system.reg" ]; then
    echo "-- making the Wine prefix $prefix"
    WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" "$wine" wineboot -i >/dev/null 2>&1
    WINEPREFIX=$prefix "$(dirname "$wine")/wineserver" -w 2>/dev/null || true
fi
rm -f "$dir/junit-ctest.xml"
ctest --test-dir "$dir" --output-on-failure -j "$jobs" --output-junit "$dir/junit-ctest.xml" \
    --test-output-size-passed 4000000 --test-output-size-failed 4000000
python3 scripts/check-skips.py "ctest-wine=$dir/junit-ctest.xml"
