#!/usr/bin/env bash
# docs/workflow.md cannot rot: every `$ command` in its console blocks runs here, in order, in a
# copy of examples/workflow/ made a git work tree, and every output line the guide shows must
# appear in what the command printed (`...` = lines left out, `<...>` = text that differs per
# machine, and so does a device's name: `cpu:0 (AMD EPYC)` matches whatever CPU or OpenCL device
# this machine has), with the exit code it shows (`[exit N]`, default 0). The server `gpubox` is a
# throwaway sshd on loopback (tests/remote/sshd.bash). Substitutions, because the guide speaks of
# a real server: /srv/demo -> a temporary folder, /opt/gpuport/bin/gpuport -> the gpuport
# under test, and `remote run` also passes PYTHONPATH and GPUPORT_BUILD_DIR so the server side
# imports this checkout's Python package (a real server has it installed).
set -u
if ldd "$GPUPORT" 2>/dev/null | grep -q libasan; then
    echo "SKIP: this gpuport is built with AddressSanitizer; the guide's Python steps cannot load an"
    echo "      instrumented libgpuport into an uninstrumented python3 (the regular build runs this)"
    exit 77
fi
src=$GPUPORT_SOURCE_DIR
. "$src/tests/remote/sshd.bash"
command -v python3 >/dev/null || gp_skip "python3 is needed"
python3 -c 'import numpy' 2>/dev/null || gp_skip "numpy is needed by the guide's example"
gp_sshd_start
tmp=$GP_SSH_DIR/workflow
mkdir -p "$tmp"
cp "$GP_SSH_CONFIG" "$tmp/ssh_config"
printf 'Host gpubox\n  HostName 127.0.0.1\n  Port %s\n  IdentityFile %s/user_key\n' \
    "$GP_SSHD_PORT" "$GP_SSH_DIR" >> "$tmp/ssh_config"
export GPUPORT_SSH_CONFIG=$tmp/ssh_config GPUPORT_CONFIG_DIR=$tmp/config
bindir=$(dirname "$GPUPORT")
export PATH="$bindir:$PATH" PYTHONPATH="$src/python${PYTHONPATH:+:$PYTHONPATH}"
export GPUPORT_BUILD_DIR GPUPORT_CACHE_DIR="$tmp/cache"
cp -r "$src/examples/workflow" "$tmp/demo"
(cd "$tmp/demo" && git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm demo) ||
    { echo "FAIL: cannot make the example a git work tree"; exit 1; }
# The outputs in the guide were recorded on the build machine: Linux, CUDA 13.0 toolkit, no GPU,
# PoCL. Elsewhere only the exit codes are checked.
exact=1
[ "$(uname -s)" = Linux ] && [ -d /usr/local/cuda-13.0 ] && [ ! -e /dev/nvidia0 ] &&
    "$GPUPORT" devices 2>/dev/null | grep -q '^  opencl:0' || exact=0
python3 - "$src/docs/workflow.md" "$tmp/demo" "$tmp/remote-demo" "$GPUPORT" "$exact" <<'PY'
import os, re, shutil, subprocess, sys
doc, demo, remote_dir, gpuport, exact = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] == "1"
text = open(doc).read()
steps = []  # (command, expected lines, exit code)
for block in re.findall(r"```console\n(.*?)```", text, re.S):
    for chunk in re.split(r"(?m)^\$ ", block)[1:]:
        lines = chunk.rstrip("\n").split("\n")
        cmd, out = lines[0], lines[1:]
        code = 0
        if out and re.fullmatch(r"\[exit (\d+)\]", out[-1]):
            code = int(re.fullmatch(r"\[exit (\d+)\]", out[-1]).group(1))
            out = out[:-1]
        steps.append((cmd, out, code))
assert len(steps) >= 10, f"only {len(steps)} commands found in {doc}"
has_nvcc = shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")
fail = 0
for cmd, expected, code in steps:
    run = cmd.replace("/srv/demo", remote_dir).replace("/opt/gpuport/bin/gpuport", gpuport)
    if "gpuport remote run " in run:
        run = run.replace(" --sync ", " --sync --env PYTHONPATH --env GPUPORT_BUILD_DIR ", 1)
    if not has_nvcc and ("nvcc" in run or "kernels.o" in run):
        print(f"SKIP: no nvcc here: $ {cmd}")
        continue
    env = dict(os.environ)
    if not shutil.which("nvcc"):
        env["PATH"] = env["PATH"] + ":/usr/local/cuda/bin"
    p = subprocess.run(["bash", "-c", run], cwd=demo, capture_output=True, text=True, env=env)
    got = p.stdout + p.stderr
    problems = []
    if p.returncode != code:
        problems.append(f"exit {p.returncode}, the guide says {code}")
    if exact:
        at = 0
        lines = got.split("\n")
        for want in expected:
            if want.strip() == "...":
                continue
            # the device name after a device spec is the machine's: "cpu:0 (<...>)"
            want = re.sub(r"\b((?:cpu|opencl|cuda|metal):\d+) \([^)]*\)", r"\1 (<...>)", want)
            pat = re.compile("^" + ".*".join(re.escape(x) for x in want.rstrip().split("<...>")))
            while at < len(lines) and not pat.match(lines[at].rstrip()):
                at += 1
            if at == len(lines):
                problems.append(f"missing (in order): {want!r}")
                break
            at += 1
    if problems:
        fail = 1
        print(f"FAIL $ {cmd}\n  " + "\n  ".join(problems) + "\n--- output ---\n" + got)
    else:
        print(f"ok   $ {cmd}")
if not exact:
    print("note: outputs not compared: this is not the kind of machine the guide was recorded on")
sys.exit(fail)
PY
