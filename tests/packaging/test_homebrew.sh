#!/usr/bin/env bash
# packaging/homebrew/gpuport.rb: Ruby accepts its syntax, and formula_check.rb (a stand-in of the
# part of Homebrew's DSL it uses) checks its metadata, the commands its install would run, and runs
# its `test do` block for real against an install of this build. Homebrew itself does not run here.
set -u
command -v ruby >/dev/null || { echo "SKIP: ruby is not installed (scripts/deps/debian.txt lists it)"; exit 77; }
. "$GPUPORT_SOURCE_DIR/tests/packaging/uninstrumented.bash"
formula=$GPUPORT_SOURCE_DIR/packaging/homebrew/gpuport.rb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ruby -c "$formula" >/dev/null || { echo "FAIL ruby -c $formula"; exit 1; }
echo "ok   ruby -c: syntax"
cmake --install "$GPUPORT_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null || { echo "FAIL install"; exit 1; }
# Homebrew links programs with the keg's library folder on their run path (install names on
# macOS, an rpath on Linux); here the loader is told instead.
PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig LD_LIBRARY_PATH=$tmp/prefix/lib ruby "$GPUPORT_SOURCE_DIR/tests/packaging/formula_check.rb" \
    "$formula" "$GPUPORT_SOURCE_DIR" "$tmp/prefix"
