#!/usr/bin/env bash
# archcheck benchmark: the full listing and a verdict of one large CUDA library (by default
# libcublasLt.so.13 of the CUDA toolkit, ~540 MB), wall time and peak RSS, side by side with
# `cuobjdump --list-elf --list-ptx` on the same file in the same run (when cuobjdump is there).
# usage: bench/archcheck.sh [LIBRARY] [GPUPORT]   (GPUPORT defaults to build/gpuport)
set -euo pipefail
lib=${1:-/usr/local/cuda/lib64/libcublasLt.so.13}
gp=${2:-$(dirname "$0")/../build/gpuport}
[ -f "$lib" ] || { echo "archcheck bench: $lib not found (pass a CUDA library)" >&2; exit 2; }
[ -x "$gp" ] || { echo "archcheck bench: $gp not built" >&2; exit 2; }
cuobjdump=$(command -v cuobjdump || true)
[ -z "$cuobjdump" ] && [ -x /usr/local/cuda/bin/cuobjdump ] && cuobjdump=/usr/local/cuda/bin/cuobjdump
command -v hyperfine >/dev/null || { echo "archcheck bench: hyperfine is needed" >&2; exit 2; }

echo "file: $lib ($(du -m "$lib" | cut -f1) MB)"
cat "$lib" >/dev/null # the page cache holds the file for every tool alike
"$gp" archcheck --json "$lib" | python3 -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
print("containers: %d %s; entries: %d" % (f["containers"], json.dumps(f["containers_by_section"]), len(f["entries"])))' 2>/dev/null || true

rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
echo "peak RSS (KB): gpuport --list $(rss "$gp" archcheck --list "$lib")," \
     "gpuport --summary --cc 8.6 --cc 12.0 $(rss "$gp" archcheck --summary --cc 8.6 --cc 12.0 "$lib" || true)"
cmds=("$gp archcheck --list $lib" "$gp archcheck --summary --cc 8.6 --cc 12.0 $lib")
if [ -n "$cuobjdump" ]; then
    echo "peak RSS (KB): cuobjdump --list-elf --list-ptx $(rss "$cuobjdump" --list-elf --list-ptx "$lib")"
    if cmp -s <("$gp" archcheck --list "$lib") <("$cuobjdump" --list-elf --list-ptx "$lib" 2>/dev/null); then
        echo "listing: identical to cuobjdump's"
    else
        echo "listing: DIFFERS from cuobjdump's"
    fi
    hyperfine -N -i --warmup 1 --runs "${RUNS:-10}" "${cmds[@]}" \
        --command-name cuobjdump --runs "${RUNS_CUOBJDUMP:-3}" "$cuobjdump --list-elf --list-ptx $lib" 2>/dev/null ||
    { hyperfine -N -i --warmup 1 --runs "${RUNS:-10}" "${cmds[@]}";
      hyperfine -N -i --runs "${RUNS_CUOBJDUMP:-3}" "$cuobjdump --list-elf --list-ptx $lib"; }
else
    echo "cuobjdump: not installed, no comparison"
    hyperfine -N -i --warmup 1 --runs "${RUNS:-10}" "${cmds[@]}"
fi
