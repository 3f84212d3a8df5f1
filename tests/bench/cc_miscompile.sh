#!/bin/sh
# cc_miscompile.sh — a C compiler wrapper that breaks the benchmark's kernels on purpose (STREAM
# copy writes half the value, the SGEMM adds 1 to every element, in its plain and its work-group
# loops form) before compiling them with cc:
# the CPU backend's run-time compiler is $CC, so this checks that `gpuport bench` catches a fast
# wrong result end to end.
for a in "$@"; do
    case "$a" in
    *.c) sed -i -e 's/c\[i\] = a\[i\];/c[i] = a[i] * 0.5f;/' \
             -e 's/\(acc\[i\]\[j\]\(\[gp__li\]\)\{0,1\} = fmaf(av\[i\], bv\[j\], acc\[i\]\[j\]\(\[gp__li\]\)\{0,1\})\);/\1 + 1.0f;/' "$a" ;;
    esac
done
exec cc "$@"
