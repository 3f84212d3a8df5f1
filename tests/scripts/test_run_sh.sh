#!/usr/bin/env bash
# scripts/run.sh, the first command a new user runs, says what it does as it goes: a line before
# each step (checking and installing what is missing, configuring and building, doctor, the
# example) and how long the slow ones took; at a terminal the build's progress shows on one line,
# elsewhere the build is quiet. Run on a copy of the script with its helpers stubbed (the real
# ones install and build for minutes); install-deps.sh says what it finds, checked on the real one
# with a python3 that lacks a module.
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
has() { if grep -q -- "$2" "$3"; then ok "$1"; else bad "$1: '$2' not in"; sed 's/^/    /' "$3"; fi; }
hasnt() { if grep -q -- "$2" "$3"; then bad "$1: '$2' in"; sed 's/^/    /' "$3"; else ok "$1"; fi; }

T=$tmp/tree
mkdir -p "$T/scripts"
cp "$src/scripts/run.sh" "$T/scripts/"
printf '#!/bin/sh\necho "install-deps: the Debian packages of scripts/deps/debian.txt are installed"\n' \
    >"$T/scripts/install-deps.sh"
cat >"$T/scripts/build.sh" <<'SH'
#!/bin/sh
mkdir -p build
touch build/CMakeCache.txt
echo "[ 10%] Building C object CMakeFiles/gpuport.dir/src/a.c.o"
echo "[ 99%] Linking C executable gpuport"
printf '#!/bin/sh\necho "doctor ran"\n' >build/gpuport
printf '#!/bin/sh\necho "saxpy ran"\n' >build/example_saxpy
chmod +x build/gpuport build/example_saxpy
SH
chmod +x "$T/scripts/"*.sh

# not a terminal: the steps are said, the build's own lines are not
bash "$T/scripts/run.sh" >"$tmp/out" 2>&1 </dev/null
rc=$?
[ $rc = 0 ] && ok "run.sh runs (not a terminal)" || { bad "run.sh exited $rc"; cat "$tmp/out"; }
has "it says it checks and installs what is missing" "== checking what gpuport needs and installing what is missing" "$tmp/out"
has "install-deps says what it found" "install-deps: the Debian packages" "$tmp/out"
has "it says it configures and builds, and how long that takes" "== configuring and building gpuport into build/ (scripts/build.sh; a few minutes the first time)" "$tmp/out"
has "each slow step says how long it took" "done in [0-9]* s" "$tmp/out"
has "it says what was built" "built build/gpuport" "$tmp/out"
hasnt "the build's own lines stay quiet" "Building C object" "$tmp/out"
has "doctor runs" "doctor ran" "$tmp/out"
has "the example runs" "saxpy ran" "$tmp/out"
# again: the build is incremental now, and it says so
bash "$T/scripts/run.sh" >"$tmp/out" 2>&1 </dev/null
has "a rebuild says it builds only what changed" "== building gpuport into build/ (scripts/build.sh; only what changed)" "$tmp/out"

# at a terminal (script(1) gives it one): the build's progress, each line over the last
if command -v script >/dev/null && script -qec true /dev/null >/dev/null 2>&1; then
    rm -rf "$T/build"
    script -qec "bash '$T/scripts/run.sh'" /dev/null >"$tmp/tty" 2>&1 </dev/null
    has "at a terminal the build shows its progress" "Building C object" "$tmp/tty"
    grep -q $'\r   \\[ 99%\\] Linking' "$tmp/tty" && ok "progress lines overwrite each other (carriage return)" ||
        { bad "no carriage-return progress"; od -c "$tmp/tty" | head -20; }
else
    echo "NOTE script(1) cannot give a terminal here; the progress line is not checked"
fi

# install-deps.sh itself says what it installs: a python3 that lacks a module, pip stubbed (and
# dpkg-query, which says every Debian package is there: the test never installs any)
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nprintf "install ok installed"\n' >"$tmp/bin/dpkg-query"
chmod +x "$tmp/bin/dpkg-query"
cat >"$tmp/bin/python3" <<'SH'
#!/bin/sh
case "$*" in
"-c import "*) exit 1 ;;      # a module is missing
"-m pip show "*) exit 0 ;;    # the test tools are there
"-m pip install "*) echo "pip-install $*" >>"$PIP_LOG"; exit 0 ;;
esac
exit 0
SH
chmod +x "$tmp/bin/python3"
PIP_LOG=$tmp/pip.log PATH="$tmp/bin:$PATH" bash "$src/scripts/install-deps.sh" >"$tmp/deps" 2>&1
has "install-deps names the Python packages it installs" "install-deps: installing Python packages for $tmp/bin/python3: numpy" "$tmp/deps"
has "and pip is asked for them" "pip-install -m pip install" "$tmp/pip.log"
if command -v apt-get >/dev/null; then
    has "install-deps says the Debian packages are there" "install-deps: the Debian packages of scripts/deps/debian.txt are installed" "$tmp/deps"
fi
exit $fail
