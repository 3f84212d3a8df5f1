#!/usr/bin/env bash
# The Debian packages (scripts/package-deb.sh): named and split as Debian splits a library, with
# Depends: that this machine satisfies; installed into a throwaway root with dpkg, a consumer built
# against them with CMake and with pkg-config runs a kernel, the CLI runs, and removing the
# packages leaves nothing behind.
set -u
. "$GPUPORT_SOURCE_DIR/tests/packaging/uninstrumented.bash"
for t in dpkg dpkg-deb dpkg-shlibdeps; do
    command -v "$t" >/dev/null || { echo "SKIP: not a Debian system (no $t)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
version=$(sed -n 's/^project(gpuport VERSION \([0-9.]*\).*/\1/p' "$GPUPORT_SOURCE_DIR/CMakeLists.txt")-1

GPUPORT_BUILD_DIR=$tmp/build "$GPUPORT_SOURCE_DIR/scripts/package-deb.sh" "$tmp/debs" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; echo "FAIL package-deb.sh"; exit 1; }
lib=$tmp/debs/libgpuport0_${version}_$arch.deb
dev=$tmp/debs/libgpuport-dev_${version}_$arch.deb
cli=$tmp/debs/gpuport_${version}_$arch.deb
for d in "$lib" "$dev" "$cli"; do [ -f "$d" ] || { bad "missing $(basename "$d")"; cat "$tmp/log"; exit 1; }; done
ok "three packages: $(cd "$tmp/debs" && echo *.deb)"

# the split: what each package holds
contents() { dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$' | sort; }
[ "$(contents "$lib")" = "/usr/lib/$multiarch/libgpuport.so.0
/usr/lib/$multiarch/libgpuport.so.0.1.0
/usr/share/doc/libgpuport0/copyright" ] || { bad "libgpuport0 holds:"; contents "$lib"; }
for f in /usr/include/gpuport/gpuport.h /usr/include/gpuport/kernel.h "/usr/lib/$multiarch/libgpuport.a" \
    "/usr/lib/$multiarch/libgpuport.so" "/usr/lib/$multiarch/pkgconfig/gpuport.pc" \
    "/usr/lib/$multiarch/cmake/gpuport/gpuportConfig.cmake"; do
    contents "$dev" | grep -qx "$f" || bad "libgpuport-dev lacks $f"
done
[ "$(contents "$cli")" = "/usr/bin/gpuport
/usr/share/doc/gpuport/copyright" ] || { bad "gpuport holds:"; contents "$cli"; }
ok "contents are split library / development files / CLI"
dpkg-deb --fsys-tarfile "$dev" | tar -xOf - "./usr/lib/$multiarch/pkgconfig/gpuport.pc" | grep -q rpath &&
    bad "the .pc of /usr sets a run-time path (the loader searches /usr/lib already)"

# each package's copyright file: the machine-readable format, the MIT (Expat) text of LICENSE
license_body=$(sed '1,/^Copyright/d' "$GPUPORT_SOURCE_DIR/LICENSE" | sed '/./,$!d')
for d in "$lib" "$dev" "$cli"; do
    p=$(dpkg-deb -f "$d" Package)
    dpkg-deb --fsys-tarfile "$d" | tar -xOf - "./usr/share/doc/$p/copyright" >"$tmp/copyright" 2>/dev/null ||
        { bad "$p lacks /usr/share/doc/$p/copyright"; continue; }
    head -1 "$tmp/copyright" | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
        bad "$p copyright: not the machine-readable format"
    grep -qx 'Copyright: the gpuport authors' "$tmp/copyright" && grep -qx 'License: Expat' "$tmp/copyright" ||
        bad "$p copyright: no MIT (Expat) licence of the gpuport authors"
    [ "$(sed '1,/^License:/d' "$tmp/copyright" | sed 's/^ //; s/^\.$//')" = "$license_body" ] ||
        { bad "$p copyright: the text differs from LICENSE"; cat "$tmp/copyright"; }
done
ok "each package carries the licence (/usr/share/doc/<package>/copyright)"

# Depends: from dpkg-shlibdeps, each satisfied by this machine's packages
field() { dpkg-deb -f "$1" "$2"; }
field "$lib" Depends | grep -q 'libssl3' || bad "libgpuport0 Depends lacks libssl3: $(field "$lib" Depends)"
field "$lib" Depends | grep -q 'libcjson' && bad "libgpuport0 depends on cJSON (a private dependency of the tools)"
[ "$(field "$dev" Depends)" = "libgpuport0 (= $version)" ] || bad "libgpuport-dev Depends: $(field "$dev" Depends)"
field "$cli" Depends | grep -q libcjson1 || bad "gpuport Depends lacks libcjson1: $(field "$cli" Depends)"
satisfied() { # "pkg (>= v), pkg2 ..." -> each installed here at that version
    local dep name rel ver have
    while read -r dep; do
        name=${dep%% *}
        have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null) || { bad "$(basename "$1"): $name is not installed here"; continue; }
        if [[ $dep =~ \((\>=|=|\<=|\>\>|\<\<)\ ([^\)]*)\) ]]; then
            rel=${BASH_REMATCH[1]} ver=${BASH_REMATCH[2]}
            case $rel in '>=') rel=ge ;; '<=') rel=le ;; '=') rel=eq ;; '>>') rel=gt ;; '<<') rel=lt ;; esac
            dpkg --compare-versions "$have" "$rel" "$ver" || bad "$(basename "$1"): $name $have is not $dep"
        fi
    done < <(field "$1" Depends | tr ',' '\n' | sed 's/^ *//' | grep -v '^libgpuport')
}
satisfied "$lib"
satisfied "$cli"
ok "Depends: $(field "$cli" Depends)"

# install into a throwaway root (dpkg's own database there; the maintainer scripts' ldconfig acts
# on that root only)
R=$tmp/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$tmp/bin"
touch "$R/var/lib/dpkg/status"
printf '#!/bin/sh\nexec /sbin/ldconfig -n "%s/usr/lib/%s"\n' "$R" "$multiarch" >"$tmp/bin/ldconfig"
chmod +x "$tmp/bin/ldconfig"
dpkgr() { PATH=$tmp/bin:$PATH dpkg --root="$R" --force-not-root --force-script-chrootless --log=/dev/null "$@"; }
# --force-depends: the root has no libc6 or libssl3 of its own (the checks above cover Depends)
dpkgr --force-depends -i "$lib" "$dev" "$cli" >"$tmp/log" 2>&1 || { cat "$tmp/log"; bad "dpkg -i"; }
[ "$(dpkgr -l | awk '/^ii/{print $2}' | sort | tr '\n' ' ')" = "gpuport libgpuport-dev libgpuport0 " ] ||
    bad "not all three installed: $(dpkgr -l | tail -3)"

src=$GPUPORT_SOURCE_DIR/tests/packaging/consumer
if cmake -S "$src" -B "$tmp/c" -DCMAKE_PREFIX_PATH="$R/usr" >"$tmp/log" 2>&1 && cmake --build "$tmp/c" >>"$tmp/log" 2>&1 &&
    "$tmp/c/consumer" >"$tmp/out" 2>&1 && grep -qx 'ok 1000' "$tmp/out"; then
    ok "a CMake consumer of the installed packages runs a kernel"
else
    cat "$tmp/log" "$tmp/out" 2>/dev/null | tail -20
    bad "CMake consumer"
fi
pc=$R/usr/lib/$multiarch/pkgconfig
# shellcheck disable=SC2046
if cc -o "$tmp/pc" "$src/main.c" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs gpuport) \
    -Wl,-rpath,"$R/usr/lib/$multiarch" >"$tmp/log" 2>&1 && "$tmp/pc" >"$tmp/out" 2>&1 && grep -qx 'ok 1000' "$tmp/out"; then
    ok "a pkg-config consumer of the installed packages runs a kernel"
else
    cat "$tmp/log" "$tmp/out" 2>/dev/null | tail -20
    bad "pkg-config consumer"
fi
if "$R/usr/bin/gpuport" --version >"$tmp/out" 2>&1 && grep -q "${version%-1}" "$tmp/out" &&
    "$R/usr/bin/gpuport" devices >"$tmp/out" 2>&1 && grep -q cpu "$tmp/out"; then
    ok "the packaged CLI runs (--version, devices)"
else
    cat "$tmp/out"
    bad "packaged CLI"
fi

# removal leaves nothing of the packages behind
dpkgr --purge gpuport libgpuport-dev libgpuport0 >"$tmp/log" 2>&1 || { cat "$tmp/log"; bad "dpkg --purge"; }
left=$(find "$R/usr" ! -type d 2>/dev/null)
[ -z "$left" ] && ok "removed cleanly" || bad "left after removal: $left"
exit $fail
