#!/usr/bin/env bash
# Benchmark: median wall time of `gpuport doctor` (default and --json) against what a user
# would otherwise run, in the same run: `python3 -m torch.utils.collect_env` where torch is
# installed, else bench/doctor_collect_env_commands.sh (the commands collect_env runs).
# Usage: bench/doctor.sh [path/to/gpuport]   (RUNS=N to change the number of runs; default 30)
# The target is a median under 10 ms for `gpuport doctor` without --deep. Also timed: doctor over
# the Jetson fixture tree (the Jetson probe's full path) and over one with 3,000 GPUs.
set -euo pipefail
cd "$(dirname "$0")/.."
gpuport=${1:-${GPUPORT:-build/gpuport}}
runs=${RUNS:-30}
command -v hyperfine >/dev/null || { echo "bench/doctor.sh needs hyperfine" >&2; exit 2; }
[ -x "$gpuport" ] || { echo "bench/doctor.sh: $gpuport is not built (scripts/build.sh)" >&2; exit 2; }
if python3 -c 'import torch' >/dev/null 2>&1; then
    other="python3 -m torch.utils.collect_env"
else
    other="bash bench/doctor_collect_env_commands.sh"
fi
json=$(mktemp)
many=$(mktemp -d)
trap 'rm -rf "$json" "$many"' EXIT
python3 - "$many" <<'PY'
import os, sys
for i in range(3000):
    d = os.path.join(sys.argv[1], "sys/bus/pci/devices/0000:%02x:%02x.%x" % (i // 256, i // 8 % 32, i % 8))
    os.makedirs(d)
    for name, text in (("vendor", "0x10de\n"), ("device", "0x2330\n"), ("class", "0x030200\n")):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
PY
# Both exit 0 or 1 (a failing check is not a benchmark error): -i ignores the exit code.
hyperfine -N -i --warmup 3 --runs "$runs" --export-json "$json" \
    -n "gpuport doctor" "$gpuport doctor" \
    -n "gpuport doctor --json" "$gpuport doctor --json" \
    -n "gpuport doctor --deep" "$gpuport doctor --deep" \
    -n "gpuport doctor --root <Jetson Orin tree>" "$gpuport doctor --root tests/doctor/fixtures/jetson-orin-jp62" \
    -n "gpuport doctor --root <3,000 GPUs>" "$gpuport doctor --root $many" \
    -n "$other" "$other" >/dev/null
python3 - "$json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
base = res[0]["median"]
print("| command | median | min | max | runs |")
print("|---|---|---|---|---|")
for r in res:
    print("| `%s` | %.1f ms | %.1f ms | %.1f ms | %d |" % (r["command"], r["median"] * 1e3,
          r["min"] * 1e3, r["max"] * 1e3, len(r["times"])))
other = res[-1]["median"]
print()
print("gpuport doctor: median %.1f ms (target < 10 ms: %s); %.0fx faster than `%s`"
      % (base * 1e3, "met" if base < 0.010 else "MISSED", other / base, res[-1]["command"]))
PY
