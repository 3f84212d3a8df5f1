#!/usr/bin/env python3
"""How much of a tree of real CUDA `gpuport translate` takes, as a new user would run it.

    bench/translate_coverage.py build/gpuport DIR... [--verify] [--files]

Every .cu file under the DIRs that holds a __global__ function is translated with --partial and
-I its own folder (and a CUDA/utilities folder above it, where PolyBench keeps polybench.h, and
a Common folder above it, where the CUDA samples keep helper_math.h, as their builds do).
Printed: the files whose kernels all translate ("whole"), the kernels translated, and the
constructs refused, most frequent first. With --verify the translation is also built for this
machine's targets, a kernel counts as translated only where its output builds on the CPU
backend and OpenCL (OpenCL is no target of a kernel with SIMD-group operations, nor of one with
double precision on a device without fp64), a file is whole only when all its kernels count,
and every such kernel whose output does not build there for another reason is listed. Exit 1 if
any file crashed the translator (an exit code other than 0, 1 or 2) or hung.
"""
import collections
import json
import os
import subprocess
import sys


def builds(kernel):
    """With --verify, a translated kernel counts only where its output built on the CPU backend
    and OpenCL, each where it is a target: a kernel with SIMD-group operations is none on
    OpenCL, and one with double precision is none on a device without fp64."""
    b = kernel.get("builds") or {}
    for target in ("cpu", "opencl"):
        r = b.get(target, {})
        if r.get("result") == "failed":
            detail = r.get("detail", "")
            if not (kernel.get("fp64") and "no double precision" in detail):
                return False
    return True


def common_dir(f):
    """The CUDA samples' Common folder above f (helper_math.h's), which their builds pass with -I."""
    d = os.path.dirname(os.path.abspath(f))
    while d != os.path.dirname(d):
        d = os.path.dirname(d)
        if os.path.isfile(os.path.join(d, "Common", "helper_math.h")):
            return os.path.join(d, "Common")
    return None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    verify = "--verify" in sys.argv
    listing = "--files" in sys.argv
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    gp, roots = args[0], args[1:]
    files = sorted(
        os.path.join(d, f) for r in roots for d, _, fs in os.walk(r) for f in fs if f.endswith(".cu")
    )
    nfiles = whole = nkernels = translated = 0
    crashes, unbuilt, per_file = [], [], []
    refused = collections.Counter()
    for f in files:
        with open(f, errors="replace") as fh:
            if "__global__" not in fh.read():
                continue
        inc = ["-I", os.path.dirname(f)]
        if "/CUDA/" in f:
            inc += ["-I", f.split("/CUDA/")[0] + "/CUDA/utilities"]
        common = common_dir(f)
        if common:
            inc += ["-I", common]
        cmd = [gp, "translate", f, "--partial", "--json"] + inc + ([] if verify else ["--no-verify"])
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=300)
        except subprocess.TimeoutExpired:
            crashes.append((f, "timeout"))
            continue
        if p.returncode not in (0, 1, 2):
            crashes.append((f, p.returncode))
            continue
        if p.returncode == 2:  # malformed input: counted, nothing translated
            nfiles += 1
            continue
        try:
            rep = json.loads(p.stdout)
        except ValueError:
            crashes.append((f, "report is not JSON"))
            continue
        ks = rep.get("kernels", [])
        if not ks:
            continue
        nfiles += 1
        t = sum(1 for k in ks if k.get("translated") and (not verify or builds(k)))
        nkernels += len(ks)
        translated += t
        whole += p.returncode == 0 and t == len(ks)
        per_file.append((f, p.returncode, "%d/%d" % (t, len(ks))))
        for r in rep.get("refusals", []):
            refused[r.get("construct")] += 1
        for k in ks if verify else ():
            if k.get("translated") and not builds(k):
                bad = [x for x in ("cpu", "opencl") if k["builds"][x].get("result") == "failed"]
                unbuilt.append((f, "/".join(bad), "kernel %s does not build there" % k["name"]))
    def pct(a, b):
        return 100.0 * a / b if b else 0.0

    print("files with kernels %d, translated whole %d (%.0f%%), kernels translated %d of %d (%.0f%%)"
          % (nfiles, whole, pct(whole, nfiles), translated, nkernels, pct(translated, nkernels)))
    for c, n in refused.most_common(25):
        print("  %5d  %s" % (n, c))
    for x in unbuilt:
        print("does not build: %s on %s: %s" % x)
    for x in crashes:
        print("CRASH: %s (%s)" % x)
    if listing:
        for x in per_file:
            print("%s: exit %d, %s kernels" % x)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
