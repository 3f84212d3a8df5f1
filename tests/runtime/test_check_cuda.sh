#!/usr/bin/env bash
# test_check_cuda.sh — `gpuport run FILE.cu KERNEL --check`: CUDA kernels with one classic bug each
# (tests/runtime/check/cuda/bug_*.cu), translated in memory and run checked, each reported with
# the .cu file's line; a correct one without a report; one translate refuses, refused with its
# reason (exit 2).
exec bash "$(dirname "$0")/test_check_corpus.sh" "${GPUPORT_SOURCE_DIR:?}/tests/runtime/check/cuda" 9
