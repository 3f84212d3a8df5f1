#!/usr/bin/env bash
# gpu-check.sh — the whole verification on a machine with an NVIDIA GPU, in one call of a few
# minutes: builds gpuport (with nvcc's precompiled PTX when nvcc is there), runs the tests a GPU
# changes (runtime conformance and errors, translated kernels, bench, doctor, archcheck --device:
# the conformance suite then runs on the CUDA device as well as the CPU) and the Python package's
# tests (its CUDA interop with torch and CuPy where they are installed, verbose), the examples on
# `auto` and on `cuda`, the CUDA benchmarks (bench/cuda_bench.c) and `gpuport bench` on the GPU
# (bench/gpu-bench.sh), and writes everything to one log that starts with the GPU, the driver,
# the toolkit and the date.
#
#   scripts/gpu-check.sh [--log FILE] [--deps DIR] [--quick]
#   scripts/gpu-check.sh --fetch-deps DIR     (on a Debian/Ubuntu machine with network access)
#
# --deps DIR: .deb files (from --fetch-deps) of the build dependencies, unpacked under
# /tmp/gpuport-deps and used only where the machine lacks them (a GPU box without network).
# Every phase has a time limit; the script goes on after a failed phase and exits 1 if any
# failed, 77 when there is no NVIDIA GPU. Results go into docs/platforms.md and
# docs/benchmarks.md by hand, with the log's header.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$PWD
log=build-gpu/gpu-check.log
deps=
quick=
while [ $# -gt 0 ]; do
    case $1 in
    --log) log=$2; shift 2 ;;
    --deps) deps=$2; shift 2 ;;
    --quick) quick=--quick; shift ;;
    --fetch-deps)
        mkdir -p "$2" && cd "$2" || exit 2
        apt-get download libcjson1 libcjson-dev libcmocka0 libcmocka-dev libssl3 libssl-dev \
            zlib1g zlib1g-dev pkgconf pkgconf-bin libpkgconf3
        exit $?
        ;;
    -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "gpu-check.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$(dirname "$log")" build-gpu
exec > >(tee "$log") 2>&1
failed=()
phase() { echo; echo "== $* ($(date -u +%H:%M:%S))"; }
# run LIMIT NAME CMD...: runs a phase under a time limit, noting a failure.
run() {
    local limit=$1 name=$2
    shift 2
    timeout "$limit" "$@"
    local rc=$?
    [ $rc -eq 124 ] && echo "!! $name: stopped after ${limit}s"
    [ $rc -ne 0 ] && [ $rc -ne 77 ] && failed+=("$name (exit $rc)")
    return $rc
}

phase "gpuport gpu-check, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
echo "host: $(uname -srm), $(nproc) cores"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: no NVIDIA GPU here (nvidia-smi finds none): nothing to check"
    exit 77
fi
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,clocks.max.memory \
    --format=csv
nvidia-smi | sed -n '1,12p'
command -v nvcc >/dev/null && nvcc --version | tail -2

phase "build dependencies"
if [ -n "$deps" ]; then
    prefix=/tmp/gpuport-deps
    mkdir -p "$prefix"
    for f in "$deps"/*.deb; do dpkg -x "$f" "$prefix"; done
    multi=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
    lib=$prefix/usr/lib/$multi
    # One copy of each runtime library in the process: where the machine has libcrypto, libssl
    # or libz itself, the unpacked ones go and their link-time names point at the machine's.
    for so in libcrypto.so.3 libssl.so.3 libz.so.1; do
        if [ -e "/usr/lib/$multi/$so" ] || [ -e "/lib/$multi/$so" ]; then
            sys=/usr/lib/$multi/$so
            [ -e "$sys" ] || sys=/lib/$multi/$so
            rm -f "$lib/$so"*
            ln -sf "$sys" "$lib/${so%.*}"
        fi
    done
    export PKG_CONFIG_PATH=$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    export PKG_CONFIG_SYSROOT_DIR=$prefix
    export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    command -v pkg-config >/dev/null || export PATH=$PATH:$prefix/usr/bin
    extra=(-DCMAKE_PREFIX_PATH="$prefix/usr")
    # OpenSSL and zlib: the machine's own when it has their headers.
    [ -f /usr/include/openssl/evp.h ] || extra+=(-DOPENSSL_ROOT_DIR="$prefix/usr")
    [ -f /usr/include/zlib.h ] || extra+=(-DZLIB_ROOT="$prefix/usr")
    echo "unpacked the packages of $deps into $prefix"
else
    extra=()
    echo "using the machine's own packages"
fi
for tool in cmake cc pkg-config; do
    command -v "$tool" >/dev/null || echo "!! $tool is not on PATH: the build will fail"
done

phase "configure and build (build-gpu)"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
# Warnings are shown but not fatal here: this machine's compiler is not CI's, and a new warning
# must not cost the GPU run (CI builds with -Werror).
run 120 configure cmake -S . -B build-gpu "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DGPUPORT_WERROR=OFF "${extra[@]}" || { echo "configure failed"; exit 1; }
run 300 build cmake --build build-gpu -j "$(nproc)" || { echo "build failed"; exit 1; }

export GPUPORT_CACHE_DIR=$root/build-gpu/cache
rm -rf "$GPUPORT_CACHE_DIR"
unset GPUPORT_DEVICE

phase "devices and the selection record"
if [ -x build-gpu/gpuport ]; then
    run 60 devices build-gpu/gpuport devices
    run 60 devices-json env GPUPORT_LOG=info build-gpu/gpuport devices --json
fi

# What the machine looks like to `gpuport doctor` (informational: findings are not failures).
if [ -x build-gpu/gpuport ] && build-gpu/gpuport doctor --help >/dev/null 2>&1; then
    phase "gpuport doctor"
    timeout 120 build-gpu/gpuport doctor || echo "(doctor exit $?)"
fi

# The tests that exercise a GPU when there is one (the runtime's conformance and error suites, the
# translated kernels, bench, doctor, archcheck --device, the Python package); the rest of the suite
# does not change with a GPU and runs in CI. Kept to the labels so the whole script fits one
# 10-minute call.
phase "GPU-relevant tests (the conformance suite runs on every device found)"
run 360 ctest ctest --test-dir build-gpu --output-on-failure --timeout 180 -j "$(nproc)" \
    -R 'runtime|translate|bench|doctor|archcheck_test_device'
if [ -d python/tests ] && python3 -c 'import numpy, pytest' 2>/dev/null; then
    phase "Python package on this machine's devices"
    interop=(python/tests/test_cuda.py python/tests/test_torch.py python/tests/test_docs.py)
    GPUPORT_BUILD_DIR=$PWD/build-gpu run 180 pytest python3 -m pytest -q python/tests -k 'not install' \
        "${interop[@]/#/--ignore=}"
    phase "Python CUDA interop: CUDA Array Interface, DLPack, streams; torch and CuPy where installed"
    GPUPORT_BUILD_DIR=$PWD/build-gpu run 120 pytest-cuda python3 -m pytest -v -rs "${interop[@]}"
fi
phase "CUDA tests, verbose"
run 180 ctest-cuda ctest --test-dir build-gpu -R 'cuda|conformance' -V --timeout 180 \
    >build-gpu/ctest-cuda.txt 2>&1
grep -E 'ok |SKIP|cuda|FAIL|Passed|Failed|NVRTC' build-gpu/ctest-cuda.txt | head -200

phase "examples"
for ex in build-gpu/example_*; do
    [ -x "$ex" ] || continue
    echo "-- $(basename "$ex") on auto"
    run 60 "$(basename "$ex") auto" env -u GPUPORT_DEVICE GPUPORT_LOG=info "$ex"
    echo "-- $(basename "$ex") on cuda"
    run 60 "$(basename "$ex") cuda" env GPUPORT_DEVICE=cuda GPUPORT_LOG=info "$ex"
done

phase "CUDA benchmarks (bench/cuda_bench.c)"
bench=build-gpu/cuda_bench
if [ ! -x "$bench" ]; then
    run 120 bench-build cc -std=c11 -O2 -I include bench/cuda_bench.c -o "$bench" \
        -L build-gpu -lgpuport -Wl,-rpath,"$root/build-gpu" -ldl
fi
peak=()
# The datasheet peak for the GPUs named in the project's targets (H200: 4.8 TB/s).
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && peak=(--peak-gbs 4800)
run 240 bench "$bench" $quick "${peak[@]}"

phase "gpuport bench on the GPU (bench/gpu-bench.sh: STREAM vs the HBM peak, pinned copies vs the driver, SGEMM vs cuBLAS)"
run 300 gpuport-bench bench/gpu-bench.sh "$root/build-gpu" "$(dirname "$log")/gpu-bench"

phase "summary"
if [ ${#failed[@]} -eq 0 ]; then
    echo "all phases passed; log: $log"
    exit 0
fi
printf 'FAILED: %s\n' "${failed[@]}"
exit 1
