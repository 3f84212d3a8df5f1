#!/usr/bin/env bash
# A C project outside gpuport consumes libgpuport each way the README shows, and each program
# builds, links and runs a kernel: an installed package moved to another folder after the install
# (CMake and pkg-config; nothing may point back at the first folder), the static library through
# the package's `static` component, the build tree as a package, and the source as a subproject.
# The shared package must not make the consumer find gpuport's private dependencies.
set -u
. "$GPUPORT_SOURCE_DIR/tests/packaging/uninstrumented.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$GPUPORT_SOURCE_DIR/tests/packaging/consumer
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; [ -f "$tmp/log" ] && sed 's/^/    /' "$tmp/log" | tail -20; rm -f "$tmp/log"; fail=1; }
# configure + build + run one consumer: NAME BUILD-DIR cmake-args...
consume() {
    local name=$1 dir=$2
    shift 2
    if ! cmake -S "$src" -B "$dir" "$@" >"$tmp/log" 2>&1; then bad "$name: configure"; return 1; fi
    cp "$tmp/log" "$dir/configure.log"
    if ! cmake --build "$dir" >"$tmp/log" 2>&1; then bad "$name: build"; return 1; fi
    if ! "$dir/consumer" >"$tmp/log" 2>&1 || ! grep -qx 'ok 1000' "$tmp/log"; then
        bad "$name: run"
        return 1
    fi
    ok "$name"
}

# 1. installed, then moved: the package and the .pc are relative to where they lie
cmake --install "$GPUPORT_BUILD_DIR" --prefix "$tmp/first" >"$tmp/log" 2>&1 || { bad "install"; exit 1; }
mv "$tmp/first" "$tmp/moved"
if grep -rlF "$tmp/first" "$tmp/moved" >"$tmp/log" 2>/dev/null; then bad "installed files name the install folder"; fi
# the shared library needs nothing of the consumer: its private dependencies are not searched
consume "installed package (moved), shared" "$tmp/b-shared" -DCMAKE_PREFIX_PATH="$tmp/moved" \
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_Threads=ON
grep -q "gpuport from the installed package at $tmp/moved/" "$tmp/b-shared/configure.log" ||
    bad "the consumer did not use the moved package"
if consume "installed package (moved), static" "$tmp/b-static" -DCMAKE_PREFIX_PATH="$tmp/moved" -DLINK_STATIC=ON; then
    ldd "$tmp/b-static/consumer" | grep -q libgpuport && bad "the static consumer loads libgpuport.so"
fi
# the static component does ask for the private dependencies (and says which is missing)
if cmake -S "$src" -B "$tmp/b-static-nossl" -DCMAKE_PREFIX_PATH="$tmp/moved" -DLINK_STATIC=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON >"$tmp/log" 2>&1; then
    bad "COMPONENTS static configured without OpenSSL"
elif grep -q OpenSSL "$tmp/log"; then ok "COMPONENTS static needs OpenSSL and says so"; else bad "static: message"; fi
# an unknown component is refused by name
mkdir -p "$tmp/comp"
cat >"$tmp/comp/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(comp LANGUAGES C)
find_package(gpuport 0.1 REQUIRED COMPONENTS gpuless)
CM
if cmake -S "$tmp/comp" -B "$tmp/comp/b" -DCMAKE_PREFIX_PATH="$tmp/moved" >"$tmp/log" 2>&1; then
    bad "unknown component accepted"
elif grep -q "no component 'gpuless'" "$tmp/log"; then
    ok "an unknown component is refused by name"
else
    bad "component message"
fi

# pkg-config from the moved prefix, as a Makefile would use it
pc=$tmp/moved/lib/pkgconfig
if [ "$(PKG_CONFIG_PATH=$pc pkg-config --variable=includedir gpuport)" -ef "$tmp/moved/include" ]; then
    ok "pkg-config: includedir follows the moved prefix"
else
    bad "pkg-config includedir: $(PKG_CONFIG_PATH=$pc pkg-config --variable=includedir gpuport)"
fi
PKG_CONFIG_PATH=$pc pkg-config --static --libs gpuport | grep -q -- -lcrypto || bad "pkg-config --static lacks -lcrypto"
PKG_CONFIG_PATH=$pc pkg-config --libs gpuport | grep -q -- -lcrypto && bad "pkg-config --libs names a private library"
# shellcheck disable=SC2046
# no -Wl,-rpath and no LD_LIBRARY_PATH of our own: outside /usr, the .pc gives the program the
# run-time path to the (moved) library folder
if cc -o "$tmp/pc-consumer" "$src/main.c" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs gpuport) \
    >"$tmp/log" 2>&1 && env -u LD_LIBRARY_PATH -u DYLD_LIBRARY_PATH "$tmp/pc-consumer" >"$tmp/log" 2>&1 &&
    grep -qx 'ok 1000' "$tmp/log"; then
    ok "pkg-config consumer builds and runs (the .pc gives it the run-time library path)"
else
    bad "pkg-config consumer"
fi

# 2. the build tree as a package
consume "build tree (gpuport_DIR)" "$tmp/b-tree" -Dgpuport_DIR="$GPUPORT_BUILD_DIR"
grep -q "gpuport from the build tree at $GPUPORT_BUILD_DIR" "$tmp/b-tree/configure.log" ||
    bad "the consumer did not use the build tree"

# 3. the source as a subproject: only the library is built, nothing of gpuport's tests or CLI
if consume "subproject (add_subdirectory)" "$tmp/b-sub" -DGPUPORT_CHECKOUT="$GPUPORT_SOURCE_DIR"; then
    [ -e "$tmp/b-sub/gpuport/gpuport" ] && bad "the subproject built gpuport's CLI"
    [ -e "$tmp/b-sub/gpuport/tests" ] && bad "the subproject configured gpuport's tests"
fi

# the README shows these same lines
for line in 'find_package(gpuport 0.1 REQUIRED)' 'target_link_libraries(consumer PRIVATE gpuport::gpuport)' \
    'find_package(gpuport 0.1 REQUIRED COMPONENTS static)' 'add_subdirectory(' 'pkg-config --cflags --libs gpuport' \
    '-Dgpuport_DIR=' '-DCMAKE_PREFIX_PATH='; do
    grep -qF -- "$line" "$GPUPORT_SOURCE_DIR/README.md" || bad "README does not show: $line"
done
exit $fail
