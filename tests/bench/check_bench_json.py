"""check_bench_json.py — structural checks of a gpuport.bench/1 document for test_bench_cli.sh.

usage: check_bench_json.py FILE [--expect-prefix P]... [--only-prefix P] [--peak NAME=VALUE]...
Exits 1 with a message on the first violation."""
import json
import math
import sys

KEYS = ["name", "unit", "median", "min", "max", "cv", "peak", "peak_source", "fraction"]
PEAK_OF = {"memory.": "memory", "transfer.h2d.": "h2d", "transfer.d2h.": "d2h", "gemm.": "fp32"}


def fail(msg):
    print("check_bench_json: " + msg)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    expect, only, peaks = [], None, {}
    while args:
        a = args.pop(0)
        if a == "--expect-prefix":
            expect.append(args.pop(0))
        elif a == "--only-prefix":
            only = args.pop(0)
        elif a == "--peak":
            k, v = args.pop(0).split("=")
            peaks[k] = float(v)
    with open(path) as f:
        doc = json.load(f)
    if sorted(doc.keys()) != ["device", "results", "schema"]:
        fail("top-level keys %s" % sorted(doc.keys()))
    if doc["schema"] != "gpuport.bench/1":
        fail("schema %r" % doc["schema"])
    if not isinstance(doc["device"], dict) or not doc["device"].get("spec"):
        fail("device object without spec")
    names = [r.get("name") for r in doc["results"]]
    if len(set(names)) != len(names):
        fail("duplicate result names")
    for r in doc["results"]:
        if list(r.keys()) != KEYS:
            fail("%s: keys %s" % (r.get("name"), list(r.keys())))
        n = r["name"]
        if only and not n.startswith(only):
            fail("%s present with --only" % n)
        if r["median"] is None:  # a row that did not run says why
            if not r["peak_source"]:
                fail("%s: no value and no reason" % n)
            continue
        if not (r["min"] <= r["median"] <= r["max"]):
            fail("%s: min %g median %g max %g out of order" % (n, r["min"], r["median"], r["max"]))
        if r["median"] <= 0 or r["cv"] < 0:
            fail("%s: median %g cv %g" % (n, r["median"], r["cv"]))
        if (r["peak"] is None) != (r["fraction"] is None):
            fail("%s: peak %r but fraction %r" % (n, r["peak"], r["fraction"]))
        if r["peak"] is not None:
            if not math.isclose(r["fraction"], r["median"] / r["peak"], rel_tol=1e-9):
                fail("%s: fraction %g is not median/peak %g" % (n, r["fraction"],
                                                                  r["median"] / r["peak"]))
        elif r["unit"] != "us" and "unknown peak" not in r["peak_source"] \
                and "unified memory" not in r["peak_source"]:
            fail("%s: no peak and the source does not say why: %r" % (n, r["peak_source"]))
        for pre, pk in PEAK_OF.items():
            if n.startswith(pre) and pk in peaks:
                if r["peak"] != peaks[pk] or r["peak_source"] != "--peak %s=%s" % (
                        pk, fmt(peaks[pk])):
                    fail("%s: peak %r source %r, expected the --peak %s" % (
                        n, r["peak"], r["peak_source"], pk))
    for p in expect:
        if not any(n.startswith(p) and r["median"] is not None
                   for n, r in zip(names, doc["results"])):
            fail("no measured result named %s*" % p)
    print("ok: %d results" % len(names))


def fmt(v):
    return str(int(v)) if v == int(v) else str(v)


main()
