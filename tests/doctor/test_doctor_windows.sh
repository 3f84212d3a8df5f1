#!/usr/bin/env bash
# `gpuport doctor --root` over the Windows fixture trees (tests/doctor/fixtures/win-*): the exit
# code, the human report (summary first, each warning and failure with its fix in Windows' terms)
# and --json, as a user sees them; on any host, and under Wine.
set -u
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fx=$GPUPORT_SOURCE_DIR/tests/doctor/fixtures

check() { # check NAME EXPECTED_RC TREE ARGS...
    local name=$1 want=$2 tree=$3; shift 3
    env -i PATH=/usr/bin:/bin HOME=/root NO_COLOR=1 ${WINEPREFIX:+WINEPREFIX=$WINEPREFIX} \
        ${WINEDEBUG:+WINEDEBUG=$WINEDEBUG} ${WINEDLLOVERRIDES:+WINEDLLOVERRIDES=$WINEDLLOVERRIDES} \
        $GPUPORT doctor --root "$fx/$tree" "$@" >"$out" 2>&1
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL $name: exit $rc, expected $want"; sed 's/^/    /' "$out"; fail=1
    else
        echo "ok   $name"
    fi
}
has() { # has NAME PATTERN: the last output matches the extended regex
    if tr -d '\r' <"$out" | grep -Eq -- "$2"; then echo "ok   $1"; else echo "FAIL $1: no /$2/ in:"; sed 's/^/    /' "$out"; fail=1; fi
}
lacks() {
    if tr -d '\r' <"$out" | grep -Eq -- "$2"; then echo "FAIL $1: /$2/ in:"; sed 's/^/    /' "$out"; fail=1; else echo "ok   $1"; fi
}
json() { # json NAME PYTHON-EXPRESSION over the report `r`
    if tr -d '\r' <"$out" | python3 -c "import json,sys; r=json.load(sys.stdin); c={x['id']:x for x in reversed(r['checks'])}; sys.exit(0 if ($2) else 1)"; then
        echo "ok   $1"
    else
        echo "FAIL $1: ($2) is false for:"; head -c 3000 "$out" | sed 's/^/    /'; fail=1
    fi
}

check "workstation passes" 0 win-rtx4090-workstation
has "the tree is a Windows machine" '^gpuport doctor: Windows 11 Pro 23H2 \(build 22631\) \(machine tree at '
has "summary: compile with the toolkit" 'compile: yes - nvcc from CUDA 12.4.1 at C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4'
has "summary: the GPU, its CC" 'GPU 0: +NVIDIA GeForce RTX 4090, CC 8.9 \(from PCI id table \(10de:2684\)\)'
has "msvc passes" '\[pass\] msvc +cl.exe at C:\\Program Files\\Microsoft Visual Studio'
lacks "no Linux check" 'kmod|ldpath|nouveau|devnodes'
check "workstation --json" 0 win-rtx4090-workstation --json
json "schema, platform, Windows facts" 'r["schema"] == "gpuport.doctor/1" and r["platform"] == "windows" and r["machine"]["windows"]["driver_from"] == "nvidia-smi -q" and r["machine"]["torch"][0]["version"] == "2.5.1+cu124"'
json "every warn/fail has a fix" 'all(x["fix"] for x in r["checks"] if x["status"] in ("warn", "fail"))'

check "laptop with a CPU-only torch fails" 1 win-laptop-cpu-torch
has "the failing check and its fix" '\[FAIL\] torch.build'
has "the wheel index for this driver" 'fix: pip install --force-reinstall torch==2.4.0 --index-url https://download.pytorch.org/whl/cu124'

check "toolkit newer than the driver fails" 1 win-toolkit-newer
has "toolkit.driver fails" '\[FAIL\] toolkit.driver +toolkit CUDA 12.6 is newer than driver 531.79'
has "the Windows fix" 'fix: install an NVIDIA driver for Windows that runs CUDA 12.6 \(branch R560 or newer\)'
lacks "no Linux commands" 'apt-get|dnf|ubuntu-drivers|reboot; sudo'
check "toolkit newer --json" 1 win-toolkit-newer --json
json "ok is false, one failure" 'not r["ok"] and r["counts"]["fail"] == 1 and c["toolkit.driver"]["status"] == "fail"'

check "Tesla T4 in TCC with Build Tools off PATH" 0 win-server-t4-tcc
has "the TCC GPU" '\[pass\] win.driver_model GPU 0 \(Tesla T4\): TCC'
has "cl.exe not on PATH, with the way to get it" 'fix: build in the "x64 Native Tools Command Prompt"'

check "A10 in WDDM, CUDA without Visual Studio" 1 win-a10-wddm
has "msvc fails" '\[FAIL\] msvc +no cl.exe on PATH and no Visual Studio'
has "compile only through NVRTC" 'compile: yes - NVRTC of CUDA 12.4.1 at .*nvcc needs Visual Studio'"'"'s C\+\+ compiler \(see msvc\)'
has "datacenter GPU in WDDM: the switch to TCC" 'fix: `nvidia-smi -i 0 -dm 1` as administrator \(TCC\), then reboot'

check "WSL, a TITAN in TCC, Visual Studio without C++" 1 win-wsl
has "the TITAN in TCC" '\[WARN\] win.driver_model GPU 1 \(NVIDIA TITAN RTX\) is in TCC'
has "the C++ workload" 'fix: Visual Studio Installer > Modify > add the "Desktop development with C\+\+" workload'
has "the distributions" '\[WARN\] wsl +WSL distributions: Ubuntu-22.04 \(WSL 2\), docker-desktop \(WSL 2\), Debian \(WSL 1\)'

check "no NVIDIA GPU" 0 win-no-nvidia --json
json "no GPU: CPU advice, the bad export named" 'r["advice"]["way"] == "cpu" and not r["capabilities"]["cuda"]["run"] and "captured/broken.reg: line 4" in c["win.driver"]["observed"]'

check "driver from the registry" 0 win-registry-only
has "the registry's driver" '\[WARN\] win.driver +NVIDIA driver 560.94 \(from registry \(display adapter\), DriverVersion 32.0.15.6094\)'
exit $fail
