#!/usr/bin/env bash
# scripts/check-skips.py, the skip check at the end of scripts/test.sh: real ctest and pytest runs
# whose tests skip in every way the suite knows (exit 77 with and without "SKIP: <reason>", a
# "SKIP:" line of a test that passed, cmocka cases skipped with GP_TEST_SKIP and with a bare
# skip(), pytest.skip) are listed with their reasons; the check fails on each skip that the list
# does not expect, passes when the list expects them all, and refuses a pattern without its comment.
# The project's own list must load.
set -u
src=$GPUPORT_SOURCE_DIR
check="python3 $src/scripts/check-skips.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() {
    echo "FAIL $*"
    fail=1
}
command -v cc >/dev/null || { echo "FAIL no C compiler (scripts/deps/debian.txt has build-essential)"; exit 1; }
python3 -c 'import pytest' 2>/dev/null || { echo "FAIL no pytest (scripts/deps/python.txt)"; exit 1; }

# --- a ctest run: a hand-written CTestTestfile.cmake, no configure step needed ------------------
cat >"$tmp/cm.c" <<'C'
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "skip.h"
static void needs_mac(void **s) { (void)s; GP_TEST_SKIP("needs a Mac (Metal)"); }
static void silent(void **s) { (void)s; skip(); }
static void runs(void **s) { (void)s; assert_int_equal(1, 1); }
int main(void)
{
    const struct CMUnitTest t[] = {cmocka_unit_test(needs_mac), cmocka_unit_test(silent),
                                   cmocka_unit_test(runs)};
    return cmocka_run_group_tests(t, NULL, NULL);
}
C
cc -I"$src/tests" "$tmp/cm.c" -o "$tmp/cm" -lcmocka 2>"$tmp/cc.log" || { cat "$tmp/cc.log"; bad "the cmocka program does not build"; exit 1; }
mkdir -p "$tmp/ct"
cat >"$tmp/ct/CTestTestfile.cmake" <<CT
add_test(t_gpu bash -c "echo 'SKIP: no usable GPU here'; exit 77")
add_test(t_pkg bash -c "echo 'some output'; echo 'SKIP: libfoo is not installed'; exit 77")
add_test(t_silent bash -c "exit 77")
add_test(t_part bash -c "echo 'SKIP: the half that needs sshd did not run'; exit 0")
add_test(t_cmocka $tmp/cm)
add_test(t_ok bash -c "echo fine")
set_tests_properties(t_gpu t_pkg t_silent t_part t_cmocka t_ok PROPERTIES SKIP_RETURN_CODE 77)
CT
ctest --test-dir "$tmp/ct" --output-junit "$tmp/ct.xml" >"$tmp/ctest.log" 2>&1
[ -s "$tmp/ct.xml" ] && ok "ctest wrote its JUnit record" || { cat "$tmp/ctest.log"; bad "no JUnit from ctest"; exit 1; }

cat >"$tmp/some.txt" <<'EX'
# a list that expects only the GPU skip and the Mac case
ctest t_gpu: no usable GPU here  # no GPU on this machine
ctest t_cmocka/needs_mac: needs a Mac \(Metal\)  # not a Mac
EX
$check --expected "$tmp/some.txt" ctest="$tmp/ct.xml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && ok "unexpected skips fail the check (exit 1)" || bad "exit $rc with unexpected skips"
has() { # has WHAT FILE LINE
    grep -qF -- "$3" "$2" && ok "$1" || { bad "$1: no line '$3' in:"; cat "$2"; }
}
has "the expected GPU skip is listed" "$tmp/out" "expected    ctest t_gpu: no usable GPU here"
has "the expected cmocka case is listed" "$tmp/out" "expected    ctest t_cmocka/needs_mac: needs a Mac (Metal)"
has "a missing package is unexpected" "$tmp/out" "UNEXPECTED  ctest t_pkg: libfoo is not installed"
has "a skip without a reason is unexpected" "$tmp/out" "UNEXPECTED  ctest t_silent: (no reason given"
has "a partial skip is unexpected" "$tmp/out" "UNEXPECTED  ctest t_part (part): the half that needs sshd did not run"
has "a bare cmocka skip() is unexpected" "$tmp/out" "UNEXPECTED  ctest t_cmocka/silent: (no reason given"
has "the failure says what to do" "$tmp/err" "4 skips not expected on this machine"
grep -q 't_ok' "$tmp/out" && bad "a test that ran is listed as a skip" || ok "tests that ran are not listed"

cat >"$tmp/all.txt" <<'EX'
ctest t_(gpu|pkg|silent): .*  # all of them, for this test
ctest t_part \(part\): .*  # the partial one
ctest t_cmocka/\w+: .*  # the cmocka cases
EX
$check --expected "$tmp/all.txt" ctest="$tmp/ct.xml" >"$tmp/out" 2>&1
rc=$?
[ $rc = 0 ] && ok "every skip expected: the check passes" || { cat "$tmp/out"; bad "exit $rc with every skip expected"; }

printf 'ctest t_gpu: .*\n' >"$tmp/nocomment.txt"
$check --expected "$tmp/nocomment.txt" ctest="$tmp/ct.xml" >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'nocomment.txt:1: a pattern needs its reason as a comment' "$tmp/out" &&
    ok "a pattern without its comment is refused, naming the line" || { cat "$tmp/out"; bad "exit $rc for an uncommented pattern"; }

# --- a pytest run, judged by the project's own list ------------------------------------------------
mkdir -p "$tmp/py"
cat >"$tmp/py/test_skips.py" <<'PY'
import pytest

def test_cupy():
    pytest.skip("cupy is not installed")

def test_service():
    pytest.skip("redis did not start")

def test_runs():
    assert True
PY
# a whole module skipped, as pytest.importorskip does it: its reason is in the record's text
cat >"$tmp/py/test_module_skip.py" <<'PY'
import pytest

cupy = pytest.importorskip("no_such_module_here", reason="cupy is not installed")

def test_never():
    assert False
PY
(cd "$tmp/py" && python3 -m pytest -q -p no:cacheprovider test_skips.py test_module_skip.py --junitxml="$tmp/py.xml" >"$tmp/pytest.log" 2>&1)
[ -s "$tmp/py.xml" ] || { cat "$tmp/pytest.log"; bad "no JUnit from pytest"; exit 1; }
$check ctest="$tmp/ct.xml" pytest="$tmp/py.xml" --expected "$src/tests/expected-skips.txt" >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] && ok "the project's list loads and judges a pytest run" || { cat "$tmp/out"; bad "exit $rc"; }
has "cupy missing is expected on CI" "$tmp/out" "expected    pytest test_skips::test_cupy: cupy is not installed"
has "a service that did not start is not" "$tmp/out" "UNEXPECTED  pytest test_skips::test_service: redis did not start"
has "a module skipped by importorskip, with its reason" "$tmp/out" "expected    pytest ::test_module_skip: cupy is not installed"
exit $fail
