#!/usr/bin/env bash
# test_check_oclgrind.sh — Oclgrind's own regression tests for its checkers (the tests/kernels of
# its repository: atomics, barrier, data-race, memcheck, uninitialized), written again in the
# dialect line for line (tests/runtime/check/oclgrind/, one file per test, CATEGORY_NAME.gpk), run
# checked as the kernels of tests/runtime/check/ are: each bug reported with the right check on
# one of its lines, nothing on the look-alikes. Every one of the 49 must be right.
exec bash "$(dirname "$0")/test_check_corpus.sh" "${GPUPORT_SOURCE_DIR:?}/tests/runtime/check/oclgrind" 49
