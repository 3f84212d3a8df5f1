#!/usr/bin/env bash
# test_run_observe.sh — `gpuport run` shows what a kernel prints (gp_printf) and records its
# timeline: the printed lines on stdout, in --json's "printed" on every device, a bad format
# refused at build time with exit 2 and the line; --trace writes a Trace Event Format file that
# parses as JSON with microsecond complete events, --trace-summary prints the summary.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; cat out err 2>/dev/null | head -20; fail=1; }

cat >p.gpk <<'GPK'
GP_KERNEL(show, GP_BUF(float, y), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) {
        y[i] = 0.5f * i;
        if (i % 3 == 0) gp_printf("item %d: %.2f %s\n", i, y[i], "ok");
    }
}
GPK
printf 'GP_KERNEL(k, GP_BUF(int, v))\n{\n    gp_printf("%%p\\n", v);\n}\n' >bad.gpk

devices="cpu"
"$GPUPORT" devices 2>/dev/null | grep -q "opencl:0" && devices="cpu opencl"
want=$'item 0: 0.00 ok\nitem 3: 1.50 ok\nitem 6: 3.00 ok\nitem 9: 4.50 ok'
for d in $devices; do
    if "$GPUPORT" run p.gpk show --global 10 y=zeros:10 n=10 --device "$d" >out 2>err &&
        [ "$(sort out)" = "$want" ]; then ok "$d: printed lines on stdout"; else bad "$d: stdout"; fi
    if "$GPUPORT" run p.gpk show --global 10 y=zeros:10 n=10 --device "$d" --json >out 2>err &&
        python3 -c "
import json, sys
d = json.load(open('out'))
assert sorted(d['printed'].splitlines()) == sys.argv[1].splitlines(), d['printed']
" "$want"; then ok "$d: --json has them in \"printed\""; else bad "$d: --json printed"; fi
    if "$GPUPORT" run p.gpk show --global 10 y=zeros:10 n=10 --device "$d" --trace t.json \
        --trace-summary >out 2>err && grep -q "1 launches" err && python3 -c "
import json
d = json.load(open('t.json'))
xs = [e for e in d['traceEvents'] if e['ph'] == 'X']
launch = [e for e in xs if e['cat'] == 'launch']
assert len(launch) == 1 and launch[0]['args']['kernel'] == 'show', launch
assert launch[0]['args']['grid'] == [10, 1, 1]
for e in xs:
    assert e['dur'] > 0 and e['ts'] >= 0 and e['dur'] < 60e6, e
assert {e['cat'] for e in xs} >= {'launch', 'build', 'fill', 'wait'}, xs
"; then ok "$d: --trace file and --trace-summary"; else bad "$d: --trace"; fi
done
"$GPUPORT" run p.gpk show --global 10 y=zeros:10 n=10 --check >out 2>err &&
    [ "$(sort out)" = "$want" ] && ok "checked: printed lines" || bad "checked: printed lines"
"$GPUPORT" run bad.gpk k --global 1 v=zeros:1 --device cpu >out 2>err
rc=$?
[ "$rc" = 2 ] && grep -q 'bad.gpk:3: gp_printf: "%p"' err && ok "bad format: exit 2 with the line" ||
    bad "bad format (exit $rc)"
"$GPUPORT" run p.gpk show --global 10 y=zeros:10 n=10 --trace "$tmp/no/dir/t.json" >out 2>err
rc=$?
[ "$rc" = 2 ] && grep -q "cannot write the trace" err && ok "unwritable trace: exit 2" ||
    bad "unwritable trace (exit $rc)"
exit $fail
