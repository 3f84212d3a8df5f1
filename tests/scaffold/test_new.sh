#!/usr/bin/env bash
# `gpuport new`: the generated project configures against an installed gpuport, builds, runs on the
# best device and on the CPU, passes its own tests (and its Python test where numpy and pytest are
# installed); bad names and existing folders are refused with nothing written.
set -u
if ldd "$GPUPORT" 2>/dev/null | grep -q libasan; then
    echo "skip: this gpuport is built with AddressSanitizer; an installed copy cannot be linked into"
    echo "      an uninstrumented project (the regular build runs this test)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { if [ "$2" != "$3" ]; then echo "FAIL $1: exit $3, expected $2"; fail=1; else echo "ok   $1"; fi; }

cmake --install "$GPUPORT_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null || { echo "FAIL install"; exit 1; }
cd "$tmp"
"$GPUPORT" new demo --python >/dev/null
expect "new demo --python" 0 $?
for f in CMakeLists.txt kernels/saxpy.gpk src/main.c .gitignore README.md python/run.py python/test_run.py; do
    [ -f "demo/$f" ] || { echo "FAIL demo/$f missing"; fail=1; }
done
grep -q 'cmake -S . -B build && cmake --build build && ./build/demo' demo/README.md || { echo "FAIL README commands"; fail=1; }

cmake -S demo -B demo/build -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null 2>"$tmp/err" || { echo "FAIL configure"; cat "$tmp/err"; exit 1; }
cmake --build demo/build >"$tmp/out" 2>&1 || { echo "FAIL build"; cat "$tmp/out"; exit 1; }
demo/build/demo --check >"$tmp/out" 2>&1
expect "demo runs on the auto device and checks its result" 0 $?
grep -q '^saxpy on 1048576 floats on .*: ok$' "$tmp/out" || { echo "FAIL run output"; cat "$tmp/out"; fail=1; }
grep -q '^cpu ' "$tmp/out" || { echo "FAIL no selection record"; cat "$tmp/out"; fail=1; }
ctest --test-dir demo/build >"$tmp/out" 2>&1
expect "the project's own tests" 0 $?

if python3 -c 'import numpy, pytest' 2>/dev/null && [ -d "$GPUPORT_SOURCE_DIR/python/gpuport" ]; then
    PYTHONPATH="$GPUPORT_SOURCE_DIR/python" python3 -m pytest -q -p no:cacheprovider demo/python >"$tmp/out" 2>&1
    expect "the project's Python test" 0 $?
    [ $? = 0 ] || cat "$tmp/out"
else
    echo "skip: numpy or pytest missing, the generated Python test is not run"
fi

mkdir exists
"$GPUPORT" new exists >"$tmp/out" 2>&1
expect "an existing folder is refused" 2 $?
grep -q "exists: already exists" "$tmp/out" || { echo "FAIL message"; cat "$tmp/out"; fail=1; }
[ -z "$(ls exists)" ] || { echo "FAIL something was written into the existing folder"; fail=1; }
"$GPUPORT" new "9lives" >/dev/null 2>&1
expect "a name starting with a digit" 2 $?
"$GPUPORT" new "../escape" >/dev/null 2>&1
expect "a name with a slash" 2 $?
[ ! -e ../escape ] || { echo "FAIL ../escape was written"; fail=1; }
exit $fail
