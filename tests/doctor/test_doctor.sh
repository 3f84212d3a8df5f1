#!/usr/bin/env bash
# The `gpuport doctor` command: options and exit codes, the human report on a fixture machine
# (summary first, each failure with its fix), --json, $GPUPORT_SYSROOT, and doctor run for real
# on this machine (its verdict asserted from what is installed here).
set -u
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fx=$GPUPORT_SOURCE_DIR/tests/doctor/fixtures
standins=$GPUPORT_BUILD_DIR/standins

check() { # check NAME EXPECTED_RC COMMAND...
    local name=$1 want=$2; shift 2
    "$@" >"$out" 2>&1
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL $name: exit $rc, expected $want"; sed 's/^/    /' "$out"; fail=1
    else
        echo "ok   $name"
    fi
}
has() { # has NAME PATTERN: the last output matches the extended regex
    if grep -Eq -- "$2" "$out"; then echo "ok   $1"; else echo "FAIL $1: no /$2/ in:"; sed 's/^/    /' "$out"; fail=1; fi
}
json() { # json NAME PYTHON-EXPRESSION over the report `r`: must be true
    if python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$out"; then
        echo "ok   $1"
    else
        echo "FAIL $1: ($2) is false for:"; head -c 3000 "$out" | sed 's/^/    /'; fail=1
    fi
}
machine() { # machine FIXTURE ARGS...: doctor over a fixture tree with a clean environment
    local f=$1; shift
    env -i PATH=/usr/local/cuda/bin:/usr/bin:/bin HOME=/root NO_COLOR=1 \
        GPUPORT_DRIVER_PATH="$standins" "${H100[@]}" "$GPUPORT" doctor --root "$fx/$f" "$@"
}
H100=(GPUPORT_STANDIN_GPUS="NVIDIA H100 80GB HBM3|9.0|81559|132|GPU-8f3b" GPUPORT_STANDIN_CUDA_VERSION=12020
      GPUPORT_STANDIN_NVML_DRIVER=535.129.03 CUDA_HOME=/usr/local/cuda-12.4)

# --- options and exit codes
check "--help" 0 "$GPUPORT" doctor --help
has "--help documents --root" '--root DIR'
check "--version" 0 "$GPUPORT" doctor --version
check "unknown option" 2 "$GPUPORT" doctor --bogus
check "unexpected argument" 2 "$GPUPORT" doctor extra
check "--root that does not exist" 2 "$GPUPORT" doctor --root /nonexistent/machine
has "the error names the root" '/nonexistent/machine: the root is not a directory'
check "GPUPORT_SYSROOT that is a file" 2 env GPUPORT_SYSROOT="$GPUPORT_SOURCE_DIR/README.md" "$GPUPORT" doctor

# --- a failing machine: exit 1, summary first, the fix printed
check "H100 on driver 535 with toolkit 12.4 fails" 1 machine h100-driver-535-toolkit-12.4
has "summary: CUDA compile" 'CUDA +compile: yes'
has "summary: the GPU and its CC" 'GPU 0: +NVIDIA H100 80GB HBM3, CC 9.0'
has "the failing check" '\[FAIL\] toolkit.driver'
has "its fix names the driver" 'fix: install NVIDIA driver >= 550.54.14'
if awk '/What this machine can do/{s=NR} /^Checks/{c=NR} END{exit !(s && c && s < c)}' "$out"; then
    echo "ok   summary comes before the checks"; else echo "FAIL summary order"; fail=1; fi
if grep -q $'\033' "$out"; then echo "FAIL colour codes without a terminal"; fail=1; else echo "ok   no colour off a terminal"; fi
check "skipped checks hidden by default" 1 machine h100-driver-535-toolkit-12.4
if grep -q '\[skip\]' "$out"; then echo "FAIL skip shown"; fail=1; else echo "ok   skip hidden"; fi
check "--verbose shows skipped checks" 1 machine h100-driver-535-toolkit-12.4 --verbose
has "--verbose lists skip" '\[skip\] cuinit'
check "--json" 1 machine h100-driver-535-toolkit-12.4 --json
json "schema" 'r["schema"] == "gpuport.doctor/1" and r["ok"] is False'
json "every check has id, status, observed, expected, fix" \
    'all(set(c) >= {"id","status","observed","expected","fix"} and c["status"] in ("pass","warn","fail","info","skip") for c in r["checks"])'
json "warn/fail checks all carry a fix" 'all(c["fix"] for c in r["checks"] if c["status"] in ("warn","fail"))'
json "capabilities" 'r["capabilities"]["cuda"]["compile"] and r["capabilities"]["cuda"]["run"] and r["capabilities"]["cuda"]["gpus"][0]["cc"] == "9.0"'
json "counts add up" 'sum(r["counts"].values()) == len(r["checks"]) and r["counts"]["fail"] == 1'

# --- a passing machine: exit 0; the root also comes from GPUPORT_SYSROOT
check "no-GPU machine passes" 0 env -i PATH=/usr/bin:/bin GPUPORT_SYSROOT="$fx/no-gpu" "$GPUPORT" doctor --json
json "no-GPU verdict" 'r["advice"]["way"] == "cpu" and not r["capabilities"]["cuda"]["run"] and r["root"].endswith("/no-gpu")'

# --- a Jetson tree, read as a user would: Jetson's verdict and fixes, no desktop driver
check "Jetson Orin tree with a CPU-only torch fails" 1 env -i PATH=/usr/bin:/bin NO_COLOR=1 "$GPUPORT" doctor --root "$fx/jetson-orin-jp62"
has "Jetson: the GPU and its CC" 'GPU 0: +NVIDIA Jetson AGX Orin Developer Kit \(integrated Ampere GPU\), CC 8.7'
has "Jetson: L4T, JetPack, CUDA" 'L4T R36.4.3 \(JetPack 6.2, CUDA 12.6\)'
has "Jetson: the tree's CPUs and architecture" 'CPU +12 logical cores, aarch64'
has "Jetson: NVIDIA's wheel index" 'fix: install NVIDIA.s PyTorch for JetPack 6.2'
if grep -q 'nvidia-driver-' "$out"; then echo "FAIL a desktop driver offered on a Jetson"; fail=1; else echo "ok   no desktop driver on a Jetson"; fi

# --- unreadable folders and device nodes, read by an unprivileged user (root reads anything)
runas=()
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv >/dev/null; then runas=(setpriv --reuid=65534 --regid=65534 --clear-groups); else runas=(skip); fi
fi
if [ "${runas[0]:-}" = skip ]; then
    echo "SKIP: unreadable-folder checks: running as root without setpriv to drop privileges"
else
    tmp=$(mktemp -d)
    chmod 755 "$tmp"
    cp -a "$fx/h100-driver-535-toolkit-12.4" "$tmp/m"
    chmod 000 "$tmp/m/usr/local/lib/python3.10/dist-packages" "$tmp/m/proc/driver/nvidia/gpus" "$tmp/m/etc"
    chmod 600 "$tmp/m/dev/nvidiactl"
    [ "$(id -u)" = 0 ] && chown 0:0 "$tmp/m/dev/nvidiactl"
    env -i PATH=/usr/local/cuda/bin:/usr/bin:/bin HOME=/nonexistent NO_COLOR=1 GPUPORT_DRIVER_PATH="$standins" \
        "${H100[@]}" "${runas[@]}" "$GPUPORT" doctor --json --root "$tmp/m" >"$out" 2>&1
    rc=$?
    if [ $rc = 1 ]; then echo "ok   unreadable machine: exit 1"; else echo "FAIL unreadable machine: exit $rc"; cat "$out"; fail=1; fi
    json "unreadable /dev/nvidiactl: devnodes fails with the group fix" \
        '[c for c in r["checks"] if c["id"] == "devnodes"][0]["status"] == "fail" and "usermod -aG video,render" in [c for c in r["checks"] if c["id"] == "devnodes"][0]["fix"]'
    json "unreadable site-packages: torch warns and names the folder" \
        '[c for c in r["checks"] if c["id"] == "torch"][0]["status"] == "warn" and "Permission denied" in [c for c in r["checks"] if c["id"] == "torch"][0]["observed"] and "/usr/local/lib/python3.10/dist-packages" in [c for c in r["checks"] if c["id"] == "torch"][0]["fix"]'
    json "unreadable /etc: os says why" '"Permission denied" in [c for c in r["checks"] if c["id"] == "os"][0]["observed"]'
    json "unreadable /proc/driver/nvidia/gpus: NVML still lists the GPU" 'r["capabilities"]["cuda"]["gpus"][0]["name"] == "NVIDIA H100 80GB HBM3"'
    chmod -R u+rwX "$tmp"
    rm -rf "$tmp"
fi

# --- for real, on this machine
check "doctor on this machine (exit 0 or 1, not 2/3)" 0 bash -c '"$0" doctor --json >/dev/null; rc=$?; [ $rc -le 1 ]' "$GPUPORT"
"$GPUPORT" doctor --json >"$out" 2>&1
json "this machine: valid report" 'r["schema"] == "gpuport.doctor/1" and r["root"] == "/"'
json "this machine: no subprocess started" 'r["machine"]["subprocesses"] == 0 or not any(t["version"] for t in r["machine"]["toolkits"])'
if command -v strace >/dev/null; then
    # seen from outside: the default run executes nothing and starts no process or thread
    # (leak checking is off for this one run: LeakSanitizer itself clones a tracer at exit)
    ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=execve,fork,vfork,clone,clone3 -o "$out.strace" "$GPUPORT" doctor >/dev/null 2>&1
    n=$(grep -cE 'execve\(|fork\(|clone3?\(' "$out.strace")
    if [ "$n" = 1 ]; then echo "ok   strace: no subprocess, no thread (only gpuport's own execve)"
    else echo "FAIL strace saw $n process calls:"; cat "$out.strace"; fail=1; fi
    rm -f "$out.strace"
fi
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    json "this machine: a CUDA toolkit is installed, so CUDA can compile" 'r["capabilities"]["cuda"]["compile"]'
fi
if [ "$(uname -s)" = Linux ] && ! ls /dev/nvidia[0-9]* >/dev/null 2>&1 &&
   [ ! -e /proc/driver/nvidia/version ] && [ ! -e /dev/dxg ]; then
    json "this machine: no NVIDIA GPU, so CUDA cannot run" 'not r["capabilities"]["cuda"]["run"] and "no NVIDIA GPU" in r["capabilities"]["cuda"]["reason"]'
    if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
        json "this machine: can compile CUDA, cannot run it" 'r["advice"]["way"] == "remote-cuda" and r["ok"]'
        "$GPUPORT" doctor >"$out" 2>&1
        has "human: compile yes, run no" 'run: +no - no NVIDIA GPU'
    fi
fi
if [ -e /etc/OpenCL/vendors/pocl.icd ]; then
    "$GPUPORT" doctor --deep --json >"$out" 2>&1
    json "this machine --deep: PoCL enumerated through the ICD loader" \
        'r["capabilities"]["opencl"]["enumerated"] and any(d["platform"] == "Portable Computing Language" and d["type"] == "cpu" for d in r["capabilities"]["opencl"]["devices"])'
fi
exit $fail
