#!/usr/bin/env bash
# test_examples.sh — every C example (examples/c/*.c, built as example_*) runs to completion on
# every device of this machine, chosen through GPUPORT_DEVICE as a user would, and reports its
# own check as ok (each compares its result with a host computation and exits 1 when wrong).
set -u
build=${GPUPORT_BUILD_DIR:?}
# every device; only the CPU's in the checked run (GPUPORT_CHECK: checking is the CPU backend's)
specs=$("$GPUPORT" devices --json | python3 -c 'import json,os,sys; print(" ".join(d["spec"] for d in json.load(sys.stdin)["devices"] if not os.environ.get("GPUPORT_CHECK") or d["backend"] == "cpu"))')
[ -n "$specs" ] || { echo "FAIL: gpuport devices lists no device"; exit 1; }
shopt -s nullglob
examples=("$build"/example_*)
[ ${#examples[@]} -gt 0 ] || { echo "FAIL: no example_* in $build"; exit 1; }
fail=0
for ex in "${examples[@]}"; do
    for spec in $specs; do
        if out=$(GPUPORT_DEVICE=$spec timeout 300 "$ex" 2>&1) &&
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
