#!/usr/bin/env bash
# test_examples.sh — every C example (examples/c/*.c, built as example_*) runs to completion on
# every device of this machine, chosen through GPUPORT_DEVICE as a user would, and reports its
# own check as ok (each compares its result with a host computation and exits 1 when wrong).
set -u
build=${GPUPORT_BUILD_DIR:?}
# every device; only the CPU's in the checked run (GPUPORT_CHECK: checking is the CPU backend's).
# GPUPORT_TEST_DEVICES, where set, names the devices that can run them (a Windows build under
# Wine: not its CPU device, which has no C compiler there); GPUPORT_TEST_RUNNER, where set,
# starts each example (Wine, for a Windows build)
if [ -n "${GPUPORT_TEST_DEVICES:-}" ]; then
    specs=
    for s in $GPUPORT_TEST_DEVICES; do
        [ -z "${GPUPORT_CHECK:-}" ] || [ "${s%%:*}" = cpu ] && specs="$specs $s"
    done
    if [ -z "$specs" ]; then
        echo "SKIP: checked runs are the CPU device's, and the devices that run kernels here ($GPUPORT_TEST_DEVICES) have no CPU device"
        exit 77
    fi
else
    specs=$("$GPUPORT" devices --json | python3 -c 'import json,os,sys; print(" ".join(d["spec"] for d in json.load(sys.stdin)["devices"] if not os.environ.get("GPUPORT_CHECK") or d["backend"] == "cpu"))')
fi
[ -n "$specs" ] || { echo "FAIL: gpuport devices lists no device"; exit 1; }
shopt -s nullglob
examples=("$build"/example_*)
[ ${#examples[@]} -gt 0 ] || { echo "FAIL: no example_* in $build"; exit 1; }
fail=0
for ex in "${examples[@]}"; do
    for spec in $specs; do
        out=$(GPUPORT_DEVICE=$spec timeout 300 ${GPUPORT_TEST_RUNNER:-} "$ex" 2>&1)
        rc=$?
        out=${out//$'\r'/} # a Windows program's text ends its lines with CRLF
        if [ "$rc" = 0 ] &&
            grep -q "^device: $spec " <<<"$out" && grep -qE ': ok$|: ok ' <<<"$out"; then
            echo "ok   $(basename "$ex") on $spec"
        else
            echo "FAIL $(basename "$ex") on $spec"
            echo "$out" | tail -15
            fail=1
        fi
    done
done
exit $fail
