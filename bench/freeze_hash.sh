#!/usr/bin/env bash
# Hashing speed of `gpuport freeze --data` against sha256sum on the same 1 GiB file, same run,
# warm page cache. Usage: bench/freeze_hash.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$build/bench-data
mkdir -p "$work"
f=$work/freeze-1g.bin
[ -f "$f" ] || head -c $((1 << 30)) /dev/urandom > "$f"
cat "$f" > /dev/null # warm the page cache
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)"; exit 2; }
hyperfine --warmup 1 --runs 5 --export-markdown "$work/freeze-hash.md" \
    "sha256sum $f" \
    "$build/gpuport freeze --no-python --data $f"
cat "$work/freeze-hash.md"
