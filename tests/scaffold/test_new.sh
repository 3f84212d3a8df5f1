#!/usr/bin/env bash
# `gpuport new`: the generated project finds gpuport as an installed package, a build tree (the
# "next:" commands it prints) or a source checkout, says which, builds, runs on the best device and
# on the CPU, passes its own tests (and its Python test where numpy and pytest are installed), and
# rebuilds with an edited kernel; bad names and existing folders are refused with nothing written.
set -u
. "$GPUPORT_SOURCE_DIR/tests/packaging/uninstrumented.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { if [ "$2" != "$3" ]; then echo "FAIL $1: exit $3, expected $2"; fail=1; else echo "ok   $1"; fi; }

cmake --install "$GPUPORT_BUILD_DIR" --prefix "$tmp/prefix" >/dev/null || { echo "FAIL install"; exit 1; }
cd "$tmp"
"$GPUPORT" new demo --python >/dev/null
expect "new demo --python" 0 $?
for f in CMakeLists.txt cmake/embed-kernels.cmake kernels/saxpy.gpk src/main.c .gitignore README.md python/run.py python/test_run.py; do
    [ -f "demo/$f" ] || { echo "FAIL demo/$f missing"; fail=1; }
done
grep -q 'cmake -S . -B build && cmake --build build && ./build/demo' demo/README.md || { echo "FAIL README commands"; fail=1; }

cmake -S demo -B demo/build -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL configure"; cat "$tmp/err"; exit 1; }
grep -q "gpuport .*: the installed package found at $tmp/prefix/" "$tmp/out" ||
    { echo "FAIL configure does not say which gpuport it used"; cat "$tmp/out"; fail=1; }
cmake --build demo/build >"$tmp/out" 2>&1 || { echo "FAIL build"; cat "$tmp/out"; exit 1; }
demo/build/demo --check >"$tmp/out" 2>&1
expect "demo runs on the auto device and checks its result" 0 $?
grep -q '^saxpy on 1048576 floats on .*: ok$' "$tmp/out" || { echo "FAIL run output"; cat "$tmp/out"; fail=1; }
grep -q '^cpu ' "$tmp/out" || { echo "FAIL no selection record"; cat "$tmp/out"; fail=1; }
ctest --test-dir demo/build >"$tmp/out" 2>&1
expect "the project's own tests" 0 $?
demo/build/demo --help >"$tmp/out" 2>&1
expect "demo --help" 0 $?
grep -q '^usage: demo' "$tmp/out" || { echo "FAIL --help text"; cat "$tmp/out"; fail=1; }
demo/build/demo --bogus >/dev/null 2>&1
expect "demo with an unknown argument" 2 $?

# an edited kernel is what runs after the next build: kernels.h is a real build product
sed -i.orig 's/y\[i\] = a \* x\[i\] + y\[i\]/y[i] = a * x[i] - y[i]/' demo/kernels/saxpy.gpk
cmp -s demo/kernels/saxpy.gpk demo/kernels/saxpy.gpk.orig && { echo "FAIL the kernel edit did not apply"; fail=1; }
cmake --build demo/build >"$tmp/out" 2>&1 || { echo "FAIL rebuild"; cat "$tmp/out"; fail=1; }
demo/build/demo --device cpu --check >"$tmp/out" 2>&1
expect "after editing the kernel, the new kernel runs (and --check sees it differ)" 1 $?
grep -q ': WRONG$' "$tmp/out" || { echo "FAIL the old kernel ran after the edit"; cat "$tmp/out"; fail=1; }
cat demo/kernels/saxpy.gpk.orig >demo/kernels/saxpy.gpk  # as an editor saves it (a new mtime)
rm demo/kernels/saxpy.gpk.orig
cmake --build demo/build >/dev/null 2>&1 && demo/build/demo --device cpu --check >/dev/null 2>&1
expect "and the original kernel again after undoing the edit" 0 $?

# the "next:" commands work where gpuport is not installed: this CLI names its build tree
"$GPUPORT" new fresh >"$tmp/next" 2>&1
next=$(sed -n 's/^  \(cmake -S \. -B build.*\) && cmake --build build && .*/\1/p' "$tmp/next")
case $next in *"-Dgpuport_DIR=$GPUPORT_BUILD_DIR"*) echo "ok   next: names the build tree" ;;
*) echo "FAIL next: does not name the build tree: $next"; fail=1 ;; esac
(cd fresh && eval "$next" >"$tmp/out" 2>&1 && cmake --build build >>"$tmp/out" 2>&1 && ./build/fresh --device cpu --check >>"$tmp/out" 2>&1)
expect "the printed next: commands configure, build and run" 0 $?
grep -q 'gpuport .*: the build tree found at' "$tmp/out" || { echo "FAIL build tree message"; cat "$tmp/out"; fail=1; }

# no package at all: the configure error says the three ways
cmake -S fresh -B fresh/b2 -DGPUPORT_FROM=package -Dgpuport_DIR="$tmp/nowhere" >"$tmp/out" 2>&1
expect "configure without any gpuport fails" 1 $?
for w in CMAKE_PREFIX_PATH gpuport_DIR GPUPORT_SOURCE_DIR; do
    grep -q -- "-D$w=" "$tmp/out" || { echo "FAIL the configure error does not name -D$w"; cat "$tmp/out"; fail=1; }
done
# a source checkout as a subproject
cmake -S fresh -B fresh/b3 -DGPUPORT_FROM=source -DGPUPORT_SOURCE_DIR="$GPUPORT_SOURCE_DIR" >"$tmp/out" 2>&1 &&
    cmake --build fresh/b3 >>"$tmp/out" 2>&1 && fresh/b3/fresh --device cpu --check >>"$tmp/out" 2>&1
expect "GPUPORT_FROM=source builds gpuport's checkout as a subproject and runs" 0 $?
grep -q "gpuport: built here from the source checkout $GPUPORT_SOURCE_DIR" "$tmp/out" || { echo "FAIL subproject message"; fail=1; }

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
