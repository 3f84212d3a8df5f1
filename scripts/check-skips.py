#!/usr/bin/env python3
"""check-skips.py — every test that skipped, with its reason, and whether that skip is expected.

scripts/test.sh runs it after the suite with the JUnit files of each run:

    check-skips.py [--expected FILE] RUN=JUNIT.xml...

RUN names the run ("ctest", "ctest-asan", "pytest"). A skip is one of
  - a ctest test that exited 77 (its reason: the first line "SKIP: <reason>" it printed),
  - a line "SKIP: <reason>" printed by a test that otherwise passed (a part of it did not run),
  - a cmocka case reported "[  SKIPPED ] name" (its reason: the "SKIP: <reason>" line printed
    just before, which tests/skip.h's GP_TEST_SKIP prints),
  - a pytest test skipped with pytest.skip(reason) or a skipif mark.
Each is written "RUN TEST: REASON" and must match, as a whole, one pattern of the expected-skips
file (tests/expected-skips.txt; its header says the format). Every skip is printed; the exit code
is 1 when one is not expected (or the file is malformed), else 0.
"""
import argparse
import os
import re
import sys
import xml.etree.ElementTree as ET

NO_REASON = "(no reason given: a skipping test prints 'SKIP: <reason>')"
SKIP_LINE = re.compile(r"^SKIP: ?(.*)$")
CMOCKA_RUN = re.compile(r"^\[ RUN      \] (.+)$")
CMOCKA_SKIPPED = re.compile(r"^\[  SKIPPED \] (\S+)$")


def load_expected(path):
    """[(regex, why, line number)]; raises ValueError naming the line when it is malformed."""
    patterns = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            pattern, sep, why = line.partition("  # ")
            if not sep or not why.strip():
                raise ValueError(f"{path}:{n}: a pattern needs its reason as a comment "
                                 f"after two spaces and '# ' (why is this skip expected?)")
            try:
                patterns.append((re.compile(pattern.strip()), why.strip(), n))
            except re.error as e:
                raise ValueError(f"{path}:{n}: not a regular expression: {e}") from None
    return patterns


def skips_in_output(text):
    """(whole-test reason or None, [(cmocka case, reason)], [partial reasons]) from a test's output."""
    first_reason = None
    cases, partial = [], []
    pending = None  # the last SKIP: line since the last cmocka "[ RUN ]"
    seen_cases = set()
    for line in (text or "").splitlines():
        m = SKIP_LINE.match(line.strip())
        if m:
            reason = m.group(1).strip() or NO_REASON
            if first_reason is None:
                first_reason = reason
            pending = reason
            partial.append(reason)
            continue
        if CMOCKA_RUN.match(line):
            pending = None
            continue
        m = CMOCKA_SKIPPED.match(line)
        if m and m.group(1) not in seen_cases:  # the summary lists the cases once more
            seen_cases.add(m.group(1))
            cases.append((m.group(1), pending or NO_REASON))
            if pending in partial:
                partial.remove(pending)
            pending = None
    return first_reason, cases, partial


def skips_of_ctest(run, root):
    for tc in root.iter("testcase"):
        name = tc.get("name", "?")
        out = tc.find("system-out")
        text = out.text if out is not None else ""
        first, cases, partial = skips_in_output(text)
        if tc.find("skipped") is not None:
            yield run, name, first or NO_REASON
            continue
        for case, reason in cases:
            yield run, f"{name}/{case}", reason
        for reason in partial:
            yield run, f"{name} (part)", reason


def skips_of_pytest(run, root):
    for tc in root.iter("testcase"):
        sk = tc.find("skipped")
        if sk is None:
            continue
        test = f"{tc.get('classname', '')}::{tc.get('name', '?')}"
        reason = sk.get("message") or (sk.text or "").strip() or NO_REASON
        if reason == "collection skipped":
            # a whole module skipped (pytest.importorskip, a module-level pytest.skip): the
            # reason is in the text, "('path', line, 'Skipped: why')"
            m = re.search(r", \d+, (['\"])(.*)\1\)\s*$", sk.text or "")
            reason = m.group(2) if m else NO_REASON
        # pytest writes skipif reasons as "reason" and pytest.skip ones the same; a
        # "Skipped: " prefix comes from older versions
        reason = re.sub(r"^Skipped: ", "", reason)
        yield run, test, reason


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--expected", default=os.path.join(here, "..", "tests", "expected-skips.txt"))
    ap.add_argument("runs", nargs="+", metavar="RUN=JUNIT.xml")
    a = ap.parse_args()
    try:
        expected = load_expected(a.expected)
    except (OSError, ValueError) as e:
        print(f"check-skips: {e}", file=sys.stderr)
        return 1
    found = []
    for spec in a.runs:
        run, sep, path = spec.partition("=")
        if not sep:
            print(f"check-skips: '{spec}' is not RUN=JUNIT.xml", file=sys.stderr)
            return 1
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            print(f"check-skips: {path}: {e}", file=sys.stderr)
            return 1
        pytest = root.tag == "testsuites" and any(
            s.get("name") == "pytest" for s in root.iter("testsuite"))
        found.extend((skips_of_pytest if pytest else skips_of_ctest)(run, root))
    unexpected = []
    used = set()
    print(f"== skipped tests ({len(found)})")
    for run, test, reason in found:
        line = f"{run} {test}: {reason}"
        match = next((p for p in expected if p[0].fullmatch(line)), None)
        if match:
            used.add(match[2])
            print(f"  expected    {line}")
        else:
            unexpected.append(line)
            print(f"  UNEXPECTED  {line}")
    for rx, why, n in expected:
        if n not in used:
            print(f"  (pattern on line {n} of {os.path.basename(a.expected)} matched nothing "
                  f"in these runs: {rx.pattern})")
    if unexpected:
        print(f"check-skips: {len(unexpected)} skip{'s' if len(unexpected) != 1 else ''} not "
              f"expected on this machine; install or start what the test needs "
              f"(scripts/deps/, the test's own setup), or, if the skip is right here, add a "
              f"commented pattern to {os.path.relpath(a.expected)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
