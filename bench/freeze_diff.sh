#!/usr/bin/env bash
# `gpuport freeze --diff` of two manifests of 300,000 data entries each (a data folder of that many
# files; 3,000 hashes changed, 1,000 files only in A, 1,000 only in B), wall time and peak RSS,
# beside what a user would otherwise run: Python's json.load of both and a dict comparison.
# Usage: bench/freeze_diff.sh [BUILD_DIR] [ENTRIES]   (defaults: build, 300000)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-300000}
work=$build/bench-data
mkdir -p "$work"
a=$work/freeze-diff-a-$n.json
b=$work/freeze-diff-b-$n.json
if [ ! -f "$a" ] || [ ! -f "$b" ]; then
    python3 - "$a" "$b" "$n" <<'PY'
import hashlib, json, sys
a_path, b_path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def entry(i, salt=""):
    h = hashlib.sha256(f"{i}{salt}".encode()).hexdigest()
    return {"path": f"data/shard_{i // 1000:04d}/sample_{i:07d}.npy", "size": 4096 + i % 977,
            "sha256": h}
base = {"schema": "gpuport.freeze/1", "gpuport": "0.1.0", "created": "2026-12-01T00:00:00Z",
        "host": {"os": "Linux", "hostname": "box"}, "environment": {"CUDA_VISIBLE_DEVICES": "0"},
        "seeds": {"numpy": "1"}}
A = dict(base, data=[entry(i) for i in range(n - 1000)])
B = dict(base, data=[entry(i, "x" if i % 100 == 7 else "") for i in range(1000, n)])
for path, m in ((a_path, A), (b_path, B)):
    with open(path, "w") as f:
        json.dump(m, f, indent="\t")
PY
fi
ls -l "$a" "$b"
measure() { # measure LABEL COMMAND...: wall seconds and peak RSS of one run (warm cache)
    local label=$1
    shift
    "$@" >/dev/null 2>&1 || true # warm the page cache and the binary
    /usr/bin/time -f "%e %M" -o "$work/freeze-diff.time" "$@" >/dev/null 2>&1 || true
    read -r secs kib < <(tail -1 "$work/freeze-diff.time")
    printf '| %s | %s s | %d MB |\n' "$label" "$secs" $((kib / 1024))
}
echo "| command | wall | peak RSS |"
echo "|---|---:|---:|"
measure "gpuport freeze --diff A B" "$build/gpuport" freeze --diff "$a" "$b"
measure "gpuport freeze --diff --json A B" "$build/gpuport" freeze --diff --json "$a" "$b"
measure "python3: json.load both, compare dicts" python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
da = {d["path"]: (d["sha256"], d["size"]) for d in a["data"]}
db = {d["path"]: (d["sha256"], d["size"]) for d in b["data"]}
print(sum(1 for k in da.keys() | db.keys() if da.get(k) != db.get(k)))' "$a" "$b"
