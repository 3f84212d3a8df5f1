#!/usr/bin/env bash
# Builds, for the MinGW-w64 cross build, the two libraries Debian ships no Windows package of:
# cJSON (the tools) and cmocka (the unit tests), static, from Debian's own source packages (with
# Debian's patches), into $GPUPORT_MINGW_PREFIX (default build-mingw-deps/). zlib comes from
# libz-mingw-w64-dev; hashing on Windows is the system's CNG (bcrypt.dll), so no OpenSSL.
# The sources are fetched with apt-get source through a private apt state (a deb-src list of
# its own under the prefix), so the machine's apt configuration is left as it is.
# Does nothing when the libraries are there already.
set -euo pipefail
cd "$(dirname "$0")/.."
src_dir=$PWD
prefix=${GPUPORT_MINGW_PREFIX:-$PWD/build-mingw-deps}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
if [ -f "$prefix/lib/libcjson.a" ] && [ -f "$prefix/lib/libcmocka-static.a" ]; then
    exit 0
fi
work=$prefix/src
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial"
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
cat >"$work/apt/sources.list" <<EOF
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main
EOF
apt_opts=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
    -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o APT::Sandbox::User=root)
echo "mingw-deps: fetching the Debian sources of cJSON and cmocka" >&2
apt-get "${apt_opts[@]}" -qq update
(cd "$work" && apt-get "${apt_opts[@]}" -qq source --download-only cjson cmocka >/dev/null)

toolchain=$src_dir/cmake/mingw-w64.cmake
build_one() { # name, cmake options...
    local name=$1 dsc dir
    shift
    dsc=$(ls "$work"/"${name}"_*.dsc | head -1)
    dir=$work/$name
    rm -rf "$dir" "$dir-build"
    dpkg-source --no-check -x "$dsc" "$dir" >/dev/null
    echo "mingw-deps: building $name for Windows" >&2
    cmake -S "$dir" -B "$dir-build" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DGPUPORT_MINGW_PREFIX="$prefix" \
        -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release -Wno-dev -Wno-deprecated "$@" >/dev/null
    cmake --build "$dir-build" -j 2 >/dev/null
    cmake --install "$dir-build" >/dev/null
}
build_one cjson -DBUILD_SHARED_LIBS=OFF -DENABLE_CJSON_TEST=OFF -DENABLE_CUSTOM_COMPILER_FLAGS=OFF \
    -DENABLE_LOCALES=OFF
build_one cmocka -DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF
# cmocka installs a DLL and a static library; only the static one is wanted here
rm -f "$prefix"/lib/libcmocka.dll.a "$prefix"/bin/libcmocka.dll
sed -i 's/-lcmocka$/-lcmocka-static/; s/-lcmocka /-lcmocka-static /' "$prefix/lib/pkgconfig/cmocka.pc"
echo "mingw-deps: cJSON and cmocka for Windows are in $prefix" >&2
