#!/usr/bin/env bash
# Every test: installs what is missing; builds with -Werror and runs the suite (ctest, then the
# Python tests); builds again with AddressSanitizer + UndefinedBehaviorSanitizer and runs the
# suite again; then runs every fuzz target briefly. GPUPORT_TEST_QUICK=1 stops after the first run.
# The fuzz run starts from a fixed seed (GPUPORT_FUZZ_SEED, default 1; 0 = a new one each time) so
# that a failure here is the same on the next run; longer exploration: GPUPORT_FUZZ_SECONDS=600
# GPUPORT_FUZZ_SEED=0.
# At the end it lists every skipped test with its reason and fails when one is not expected on
# this machine (tests/expected-skips.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
# JUnit records of each run, for the skip check (whole outputs: a "SKIP:" line may come late)
runs=()
ctest_run() { # ctest_run RUN BUILD_DIR [ctest options...]
    local run=$1 dir=$2
    shift 2
    ctest --test-dir "$dir" --output-on-failure -j "$jobs" --output-junit "$PWD/$dir/junit-ctest.xml" \
        --test-output-size-passed 4000000 --test-output-size-failed 4000000 "$@"
    runs+=("$run=$dir/junit-ctest.xml")
}
check_skips() {
    python3 scripts/check-skips.py ${runs[@]+"${runs[@]}"}
}

echo "== build (-Werror) and test"
scripts/build.sh
ctest_run ctest build
if [ -d python/tests ]; then
    echo "== Python tests"
    GPUPORT_BUILD_DIR=$PWD/build python3 -m pytest -q -rs python/tests --junitxml=build/junit-pytest.xml
    runs+=("pytest=build/junit-pytest.xml")
fi
if [ "${GPUPORT_TEST_QUICK:-0}" = 1 ]; then
    check_skips
    exit 0
fi

echo "== build and test under AddressSanitizer + UndefinedBehaviorSanitizer"
GPUPORT_BUILD_DIR=build-asan scripts/build.sh -DCMAKE_BUILD_TYPE=Debug -DGPUPORT_SANITIZE=ON
# LeakSanitizer on Linux only: AddressSanitizer on macOS does not support detect_leaks
leaks=0
[ "$(uname -s)" = Linux ] && leaks=1
ASAN_OPTIONS=detect_leaks=$leaks:abort_on_error=0 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest_run ctest-asan build-asan -LE nosanitize

# libFuzzer comes with LLVM's clang (Debian's; on macOS Homebrew's llvm, not Apple's clang)
fuzz_cc=clang
if [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null && [ -x "$(brew --prefix llvm 2>/dev/null)/bin/clang" ]; then
    fuzz_cc=$(brew --prefix llvm)/bin/clang
fi
probe=$(mktemp -d)
if command -v "$fuzz_cc" >/dev/null &&
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return (int)(d && n) * 0; }\n' |
    "$fuzz_cc" -x c -fsanitize=fuzzer,address - -o "$probe/p" 2>/dev/null; then
    rm -rf "$probe"
    echo "== fuzz targets, ${GPUPORT_FUZZ_SECONDS:-10} s each, seed ${GPUPORT_FUZZ_SEED:-1}"
    CC=$fuzz_cc GPUPORT_BUILD_DIR=build-fuzz scripts/build.sh -DGPUPORT_FUZZ=ON -DGPUPORT_TESTS=OFF
    for t in build-fuzz/fuzz/fuzz_*; do
        [ -x "$t" ] || continue
        name=$(basename "$t"); name=${name#fuzz_}
        work=$(mktemp -d)
        seeds=fuzz/corpus/$name
        [ -d "$seeds" ] || seeds=
        echo "-- fuzz_$name"
        "$t" -max_total_time="${GPUPORT_FUZZ_SECONDS:-10}" -rss_limit_mb=2048 -print_final_stats=0 \
            -seed="${GPUPORT_FUZZ_SEED:-1}" \
            "$work" $seeds 2>"$work.log" || { tail -50 "$work.log"; exit 1; }
        tail -1 "$work.log"
        rm -rf "$work" "$work.log"
    done
else
    rm -rf "$probe"
    echo "== fuzz targets skipped: no clang with libFuzzer ($fuzz_cc; on macOS: brew install llvm)"
fi
# the MinGW-w64 cross build and its suite under Wine, where both are installed (it checks its
# own skips)
scripts/test-windows.sh
check_skips
echo "== all tests passed"
