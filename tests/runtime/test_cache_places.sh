#!/usr/bin/env bash
# test_cache_places.sh — the kernel cache's folder is each platform's per-user cache folder
# ($XDG_CACHE_HOME/gpuport on Linux; %LOCALAPPDATA%\gpuport on Windows, where a Windows build runs
# here under Wine), a kernel built through the library lands there, and a folder that others may
# write is not used (said with the reason: mode bits on POSIX, the access list on Windows, which
# Wine derives from the mode bits).
set -euo pipefail
: "${GPUPORT:?}" "${GPUPORT_BUILD_DIR:?}"
# below the build: not in /tmp, which others may write. Windows has no sticky bit, so there a
# folder below one that anyone may write (the build in /tmp, under Wine) is refused whatever its
# own access list: then the folders are made in the home folder.
base=$GPUPORT_BUILD_DIR
if [ "${GPUPORT_TARGET_OS:-}" = windows ]; then
    d=$(cd "$GPUPORT_BUILD_DIR" && pwd)
    while [ "$d" != / ]; do
        [ -z "$(find "$d" -maxdepth 0 -perm -0002)" ] || { base=$HOME; break; }
        d=$(dirname "$d")
    done
fi
tmp=$(mktemp -d -p "$base" cache-places.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 700 "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
ex=$GPUPORT_BUILD_DIR/example_saxpy
[ -f "$ex.exe" ] && ex=$ex.exe
# the first device that runs kernels here (under Wine: OpenCL); else the CPU device, whose
# builds go through the cache without running a compiler in this process (PoCL's LLVM, building
# in-process from an empty cache, leaves allocations the sanitizer build reports at exit)
dev=${GPUPORT_TEST_DEVICES:-cpu}
dev=${dev%% *}
run_example() {
    env ${dev:+GPUPORT_DEVICE=$dev} GPUPORT_LOG=info ${GPUPORT_TEST_RUNNER:-} "$ex" >"$tmp/ex.out" 2>&1 ||
        { cat "$tmp/ex.out"; fail "example_saxpy on ${dev:-auto}"; }
}
cache_info() { "$GPUPORT" cache info --json | tr -d '\r' >"$tmp/info.json"; }
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$tmp/info.json" "$1"; }

# the default folder
unset GPUPORT_CACHE_DIR
if [ "${GPUPORT_TARGET_OS:-}" = windows ]; then
    cache_info
    dir=$(field dir)
    [[ $dir =~ ^[A-Za-z]:/users/[^/]+/AppData/Local/gpuport$ ]] || fail "the cache is not in %LOCALAPPDATA%: $dir"
else
    export XDG_CACHE_HOME=$tmp/xdg
    cache_info
    dir=$(field dir)
    [ "$dir" = "$tmp/xdg/gpuport" ] || fail "the cache is not in \$XDG_CACHE_HOME: $dir"
fi
before=$(field entries)
"$GPUPORT" cache clear >/dev/null
run_example
cache_info
after=$(field entries)
[ "$after" -gt 0 ] || { cat "$tmp/ex.out"; fail "no kernel was cached in $dir (entries: $before before the clear, $after after the run)"; }
echo "ok   a kernel built on ${dev:-the auto device} is cached in $dir"

# a folder that everyone may write: not used, and why is said
mkdir "$tmp/open"
chmod 777 "$tmp/open"
GPUPORT_CACHE_DIR=$tmp/open run_example
if [ "${GPUPORT_TARGET_OS:-}" = windows ]; then why='lets Everyone write there'; else why='is writable by group and others'; fi
grep -q "kernel cache: not using $tmp/open: .*$why" "$tmp/ex.out" || { cat "$tmp/ex.out"; fail "the open folder was not refused with its reason"; }
[ -z "$(ls -A "$tmp/open")" ] || fail "something was written to the refused folder: $(ls -A "$tmp/open")"
echo "ok   a folder everyone may write is not used ($why)"

# the same folder, private: used
chmod 700 "$tmp/open"
GPUPORT_CACHE_DIR=$tmp/open run_example
! grep -q "kernel cache: not using" "$tmp/ex.out" || { cat "$tmp/ex.out"; fail "the private folder was refused"; }
[ -n "$(ls -A "$tmp/open")" ] || fail "nothing was cached in the private folder"
echo "ok   the folder made private is used"
