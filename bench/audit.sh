#!/usr/bin/env bash
# Benchmark of `gpuport audit` against what people run today on the same tree, same run, warm page
# cache: grep -RInE and ripgrep with the same pattern, single-thread and all cores, plus peak RSS,
# and the read floor (ripgrep looking for a literal found nowhere). The tree: the CUDA toolkit's
# include/ plus the Python and C++ sources of the torch and transformers wheels from PyPI
# (downloaded with pip, unpacked under the build folder, shared libraries left out, never
# committed).
# usage: bench/audit.sh [BUILD_DIR]   (default build; needs hyperfine, ripgrep, pip)
#        BEFORE=/path/to/an/older/gpuport bench/audit.sh ...   adds that build's runs (same run)
#        ROUNDS=8 bench/audit.sh ...   each command once per round, in turn (/usr/bin/time means)
#        INSTRUCTIONS=1 bench/audit.sh ...   user-space instruction counts of the single-thread
#            commands (valgrind --tool=callgrind; steady where a shared machine's clock is not)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
gp="$PWD/$build/gpuport"
[ -x "$gp" ] || { echo "build gpuport first ($gp not found)"; exit 2; }
work="$PWD/$build/bench-audit"
tree="$work/tree"
if [ ! -d "$tree" ]; then
    mkdir -p "$work/src" "$tree"
    pip download --no-deps --only-binary :all: --python-version 3.11 torch transformers -d "$work/src"
    python3 - "$work/src" "$tree" <<'PY'
import sys, zipfile, glob, os
src, tree = sys.argv[1], sys.argv[2]
for w in sorted(glob.glob(os.path.join(src, "*.whl"))):
    z = zipfile.ZipFile(w)
    for n in z.namelist():
        if n.endswith((".so", ".a")) or ".so." in n:
            continue
        z.extract(n, tree)
PY
    cp -r "${CUDA_INCLUDE:-/usr/local/cuda/include}" "$tree/cuda-include"
fi
pattern='cuda|CUDAExtension|nvcc|\.cu|cudnn|nccl|cublas'
# the read floor: ripgrep looking for one literal that occurs nowhere still opens and reads every
# file; no search of the tree can take less
# Every command's output goes to a file: GNU grep writing to /dev/null stops at each file's first
# match (nothing reads what it would print), which is not the job of printing every matching line.
out="$work/out"
never='qZjX_never_in_any_source_Xjq'
cores=$(getconf _NPROCESSORS_ONLN)
echo "tree: $(du -sh "$tree/" | cut -f1), $(find "$tree/" -type f | wc -l) files; $cores cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
cd "$tree"
before=()
if [ -n "${BEFORE:-}" ]; then
    before=(-n "before: gpuport audit -j 1" "$BEFORE audit --fail-on never -j 1 ."
            -n "before: gpuport audit -j $cores" "$BEFORE audit --fail-on never -j $cores .")
fi
if [ -n "${INSTRUCTIONS:-}" ]; then
    cmds=("gpuport audit -j 1|$gp audit --fail-on never -j 1 ." "grep -RInE|grep -RInE $pattern ."
          "rg -j 1|rg -n -j 1 $pattern ." "read floor: rg -j 1, a literal found nowhere|rg -n -j 1 $never .")
    [ -n "${BEFORE:-}" ] && cmds+=("before: gpuport audit -j 1|$BEFORE audit --fail-on never -j 1 .")
    echo "| command | instructions |"
    echo "|---|---:|"
    for c in "${cmds[@]}"; do
        IFS=' ' read -r -a argv <<<"${c#*|}"
        # (exit 1 is "nothing found" for rg and grep)
        n=$({ valgrind --tool=callgrind --callgrind-out-file=/dev/null "${argv[@]}" 2>&1 >"$out" ||
              true; } | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
        echo "| \`${c%%|*}\` | $n |"
    done
    exit 0
fi
if [ -n "${ROUNDS:-}" ]; then
    # every command once per round, in turn, so that a shared machine's drift hits all alike
    cmds=("gpuport audit -j 1|$gp audit --fail-on never -j 1 ."
          "gpuport audit -j $cores|$gp audit --fail-on never -j $cores ."
          "grep -RInE|grep -RInE '$pattern' ." "rg -j 1|rg -n -j 1 '$pattern' ."
          "rg -j $cores|rg -n -j $cores '$pattern' ."
          "read floor: rg -j 1, a literal found nowhere|rg -n -j 1 '$never' ."
          "read floor: rg -j $cores, a literal found nowhere|rg -n -j $cores '$never' .")
    if [ -n "${BEFORE:-}" ]; then
        cmds+=("before: gpuport audit -j 1|$BEFORE audit --fail-on never -j 1 ."
               "before: gpuport audit -j $cores|$BEFORE audit --fail-on never -j $cores .")
    fi
    for ((r = 0; r < ROUNDS; r++)); do
        for c in "${cmds[@]}"; do
            # exit 1 is "nothing found" for rg and grep: not a failed run
            /usr/bin/time -f "${c%%|*}|%e|%U|%S|%M" -a -o "$work/rounds" bash -c "${c#*|} >'$out' || test \$? -eq 1" || true
        done
    done
    echo "| command | wall mean [s] | user [s] | system [s] | peak RSS [MB] |"
    echo "|---|---:|---:|---:|---:|"
    awk -F'|' '{e[$1]+=$2; u[$1]+=$3; s[$1]+=$4; m[$1]+=$5; n[$1]++; if (!($1 in o)) o[$1]=++k}
        END {for (c in o) l[o[c]]=c; for (i = 1; i <= k; i++) {c=l[i];
        printf "| `%s` | %.3f | %.3f | %.3f | %.1f |\n", c, e[c]/n[c], u[c]/n[c], s[c]/n[c], m[c]/n[c]/1024}}' \
        "$work/rounds"
    rm -f "$work/rounds" "$out"
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
hyperfine --warmup 1 --runs "${RUNS:-5}" --output="$out" --export-markdown "$work/audit.md" \
    --export-json "$work/audit.json" \
    -n "gpuport audit -j 1" "$gp audit --fail-on never -j 1 ." \
    -n "gpuport audit -j $cores" "$gp audit --fail-on never -j $cores ." \
    -n "grep -RInE" "grep -RInE '$pattern' ." \
    -n "rg -j 1" "rg -n -j 1 '$pattern' ." \
    -n "rg -j $cores" "rg -n -j $cores '$pattern' ." \
    -n "read floor: rg -j 1, a literal found nowhere" "rg -n -j 1 '$never' . || true" \
    -n "read floor: rg -j $cores, a literal found nowhere" "rg -n -j $cores '$never' . || true" \
    ${before[@]+"${before[@]}"}
cat "$work/audit.md"
# CPU time is the steadier figure on a shared machine: wall clock, user and system side by side
python3 - "$work/audit.json" <<'PY'
import json, sys
print("| command | wall mean ± sd [s] | user [s] | system [s] | user+system [s] |")
print("|---|---:|---:|---:|---:|")
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"| `{r['command']}` | {r['mean']:.3f} ± {r['stddev']:.3f} | {r['user']:.3f} | "
          f"{r['system']:.3f} | {r['user'] + r['system']:.3f} |")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for j in 1 "$cores"; do
    /usr/bin/time -f "peak RSS gpuport audit -j $j: %M KiB (user %U s, sys %S s)" "$gp" audit --fail-on never -j "$j" . >"$out"
done
/usr/bin/time -f "peak RSS grep -RInE: %M KiB" grep -RInE "$pattern" . >"$out" || true
/usr/bin/time -f "peak RSS rg: %M KiB" rg -n "$pattern" . >"$out" || true
echo "lines printed: gpuport findings $("$gp" audit --fail-on never . | grep -cE ': (error|warning|note) '), grep $(grep -RInE "$pattern" . | wc -l), rg $(rg -n "$pattern" . | wc -l)"
