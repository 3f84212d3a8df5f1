#!/usr/bin/env bash
# compare.sh — `gpuport compare` against what a user would otherwise run (numpy: np.load,
# np.allclose, max and mean absolute error) on two 1 GiB float32 .npy files, in the same run,
# next to a plain sequential read of the same files. Reports the median of RUNS runs (default 3)
# of wall time, throughput over both files and peak RSS (/usr/bin/time). The data is generated
# once under the build folder ($GPUPORT_BUILD_DIR/bench-compare, never committed); the page cache
# is warmed first, so every tool reads from memory.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUPORT_BUILD_DIR:-build}
data=$build/bench-compare
runs=${RUNS:-3}
mib=${MIB:-1024}
gpuport=$build/gpuport
[ -x "$gpuport" ] || { echo "build gpuport first (scripts/build.sh)" >&2; exit 2; }
if [ ! -f "$data/ref.npy" ] || [ "$(stat -c %s "$data/ref.npy")" -lt $((mib << 20)) ]; then
    python3 bench/compare_numpy.py make "$data" "$mib"
fi
a=$data/ref.npy
b=$data/port.npy
bytes=$(($(stat -c %s "$a") + $(stat -c %s "$b")))
cat "$a" "$b" >/dev/null
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# run LABEL CMD...: appends "wall_s rss_kib" of one run to $tmp.LABEL
run() {
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$tmp.one" "$@" >/dev/null || true
    cat "$tmp.one" >>"$tmp.$label"
}
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

for _ in $(seq "$runs"); do
    run read cat "$a" "$b"
    run gpuport "$gpuport" compare "$a" "$b" --worst 10
    run numpy python3 bench/compare_numpy.py run "$a" "$b"
done
echo "files: 2 x $((bytes / 2 >> 20)) MiB float32 .npy, $(nproc) CPUs, median of $runs runs"
printf '%-34s %9s %9s %12s\n' "tool" "wall s" "GB/s" "peak RSS MiB"
for label in read gpuport numpy; do
    wall=$(cut -d' ' -f1 "$tmp.$label" | median)
    rss=$(cut -d' ' -f2 "$tmp.$label" | median)
    name=$label
    [ "$label" = read ] && name="sequential read (cat)"
    [ "$label" = gpuport ] && name="gpuport compare"
    [ "$label" = numpy ] && name="numpy allclose + max/mean abs"
    printf '%-34s %9.2f %9.2f %12.1f\n' "$name" "$wall" "$(echo "$bytes / $wall / 1000000000" | bc -l)" \
        "$(echo "$rss / 1024" | bc -l)"
    eval "wall_$label=$wall rss_$label=$rss"
done
printf 'gpuport is %.1fx faster than numpy with %.3f of its peak RSS\n' \
    "$(echo "$wall_numpy / $wall_gpuport" | bc -l)" "$(echo "$rss_gpuport / $rss_numpy" | bc -l)"
rm -f "$tmp".*
