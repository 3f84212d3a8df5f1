#!/usr/bin/env bash
# scripts/test-windows.sh writes ctest's JUnit file into the build folder and hands that file to
# the skip check, whether GPUPORT_MINGW_BUILD_DIR is relative (to the checkout) or absolute. Run
# on a copy of the script with cmake, ctest, the cross compiler, Wine, uname and the skip check
# stubbed (the real build and run under Wine take minutes).
set -u
src=$GPUPORT_SOURCE_DIR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() {
    echo "FAIL $*"
    fail=1
}
T=$tmp/tree
mkdir -p "$T/scripts" "$tmp/bin" "$tmp/wineprefix"
touch "$tmp/wineprefix/system.reg"
cp "$src/scripts/test-windows.sh" "$T/scripts/"
printf '#!/bin/sh\n' >"$T/scripts/mingw-deps.sh"
# the skip check: records the file it was given and whether it exists
printf 'import os, sys\nname, path = sys.argv[1].split("=", 1)\nprint("check-skips", path, os.path.isfile(path))\nsys.exit(0 if os.path.isfile(path) else 1)\n' \
    >"$T/scripts/check-skips.py"
cat >"$tmp/bin/cmake" <<SH
#!/bin/sh
# -S . -B DIR ...: writes the cache the script reads; --build: nothing
while [ \$# -gt 0 ]; do
    case \$1 in -B) mkdir -p "\$2" && echo "GPUPORT_WINEPREFIX:PATH=$tmp/wineprefix" >"\$2/CMakeCache.txt"; shift ;; esac
    shift
done
SH
cat >"$tmp/bin/ctest" <<'SH'
#!/bin/sh
# writes the JUnit file where --output-junit says, relative to --test-dir as ctest does
dir=. junit=
while [ $# -gt 0 ]; do
    case $1 in --test-dir) dir=$2; shift ;; --output-junit) junit=$2; shift ;; esac
    shift
done
case $junit in /*) ;; *) junit=$dir/$junit ;; esac
mkdir -p "$(dirname "$junit")" && echo '<testsuite/>' >"$junit"
SH
printf '#!/bin/sh\n' >"$tmp/bin/x86_64-w64-mingw32-gcc"
printf '#!/bin/sh\n' >"$tmp/bin/wine64"
printf '#!/bin/sh\necho Linux\n' >"$tmp/bin/uname" # the script runs on Linux only
chmod +x "$tmp/bin/"* "$T/scripts/"*.sh

for d in "$tmp/abs build" build-rel; do
    PATH="$tmp/bin:$PATH" GPUPORT_MINGW_BUILD_DIR=$d bash "$T/scripts/test-windows.sh" >"$tmp/out" 2>&1
    rc=$?
    case $d in /*) want=$d ;; *) want=$T/$d ;; esac
    if [ $rc = 0 ] && [ -f "$want/junit-ctest.xml" ] && grep -q "^check-skips .*junit-ctest.xml True$" "$tmp/out"; then
        ok "GPUPORT_MINGW_BUILD_DIR=$d: the JUnit file is in the build folder and the skip check reads it"
    else
        bad "GPUPORT_MINGW_BUILD_DIR=$d (exit $rc)"
        sed 's/^/    /' "$tmp/out"
        find "$tmp" -name junit-ctest.xml | sed 's/^/    found: /'
    fi
done
exit $fail
