"""msl.py — the stand-in <metal_stdlib> (tests/runtime/metal/standin) against real MSL: the
kernel headers of the mlx-metal wheel, which Apple's compiler builds.

  1. MLX's atomics (atomic.h), instantiated for every type MLX uses them with
     (tests/runtime/metal/msl/mlx_atomics.metal), must compile through the stand-in: a function
     or overload the stand-in lacks is one Apple's library has.
  2. Each probe below quotes what MLX's headers do; the test finds the quote in the wheel (so a
     new MLX that stops doing it is noticed) and compiles the probe through the stand-in alone:
     "accept" probes are calls MLX makes of Apple's functions; "refuse" probes are calls MLX
     avoids by emulating them (its own 64-bit and bool shuffles, its compare-exchange loops),
     which the stand-in must refuse too, or it would pass kernels Apple's compiler rejects.
Only the functions the dialect's prelude uses are probed (shuffles, votes, barriers, atomics,
as_type); the rest of MSL is not modelled by the stand-in.
"""

import glob
import os
import subprocess
import sys
import tempfile

import sdk

STANDIN = os.path.join(sdk.SOURCE_DIR, "tests", "runtime", "metal", "standin")
DRIVER = os.path.join(sdk.SOURCE_DIR, "tests", "runtime", "metal", "msl", "mlx_atomics.metal")
METAL_VERSION = 300  # MLX's kernels need Metal 3 (atomic<float>)

# kind, the text MLX's headers contain, the probe (after #include <metal_stdlib>)
PROBES = [
    ("accept", "metal::simd_shuffle_down(as_type<uint2>(data), delta)",
     "uint2 f(ulong data, ushort delta) { return metal::simd_shuffle_down(as_type<uint2>(data), "
     "delta); }"),
    ("accept", "metal::simd_shuffle(as_type<uint2>(data), lane)",
     "uint2 f(long data, ushort lane) { return metal::simd_shuffle(as_type<uint2>(data), lane); }"),
    ("accept", "T qgr_reduce = simd_shuffle_xor(thr_reduce, ushort(1));",
     "half f(half thr_reduce) { return simd_shuffle_xor(thr_reduce, ushort(1)); }"),
    ("accept", "if (simd_any(val != val)) {",
     "bool f(float val) { return simd_any(val != val); }"),
    ("accept", "simdgroup_barrier(mem_flags::mem_none)",
     "void f() { simdgroup_barrier(mem_flags::mem_none); }"),
    ("accept", "threadgroup_barrier(mem_flags::mem_device)",
     "void f() { threadgroup_barrier(mem_flags::mem_device); }"),
    ("accept", "return (as_type<uint32_t>(val) & 0x7FFFFFFF) != 0;",
     "bool f(float val) { return (as_type<uint32_t>(val) & 0x7FFFFFFF) != 0; }"),
    ("refuse", "inline uint64_t simd_shuffle_down(uint64_t data, uint16_t delta) {",
     "ulong f(ulong data, ushort delta) { return metal::simd_shuffle_down(data, delta); }"),
    ("refuse", "inline int64_t simd_shuffle(int64_t data, uint16_t lane) {",
     "long f(long data, ushort lane) { return metal::simd_shuffle(data, lane); }"),
    ("refuse", "inline bool simd_shuffle_up(bool data, uint16_t delta) {",
     "bool f(bool data, ushort delta) { return metal::simd_shuffle_up(data, delta); }"),
    ("refuse", "// Specialization for float since it does not atomic_fetch_min_explicit",
     "void f(device atomic_float *p) { atomic_fetch_min_explicit(p, 1.0f, memory_order_relaxed); }"),
    ("refuse", "// Specialization for float since it does not atomic_fetch_max_explicit",
     "void f(device atomic_float *p) { atomic_fetch_max_explicit(p, 1.0f, memory_order_relaxed); }"),
    ("refuse", "struct mlx_atomic {\n  atomic<uint> val;\n};",
     "half f(device atomic<half> *p) { return atomic_load_explicit(p, memory_order_relaxed); }"),
]


def compile_msl(path, include=None):
    cmd = ["clang++", "-std=c++17", "-fsyntax-only", "-x", "c++", "-nostdinc", "-nostdinc++",
           "-isystem", STANDIN, f"-D__METAL_VERSION__={METAL_VERSION}",
           "-Wno-unknown-pragmas", "-Wno-instantiation-after-specialization"]
    if include:
        cmd += ["-I", include]
    p = subprocess.run(cmd + [path], capture_output=True, text=True)
    return p.returncode == 0, p.stderr


def find_quote(kernels, include, text):
    for path in sorted(glob.glob(os.path.join(kernels, "**", "*.h"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            body = f.read()
        if text in body:
            line = body[:body.index(text)].count("\n") + 1
            return f"{os.path.relpath(path, include)}:{line}"
    return None


def main():
    db = sdk.load_or_skip()
    kernels = sdk.msl_headers(db)
    include = os.path.abspath(os.path.join(kernels, "..", "..", "..", ".."))
    fail = 0
    ok, err = compile_msl(DRIVER, include)
    if ok:
        print("ok   MLX's atomics (atomic.h) for int, uint, float, half, short, ushort, char, "
              "uchar compile through the stand-in")
    else:
        print("FAIL MLX's atomics do not compile through the stand-in: it lacks what Apple's "
              "library has:\n" + err)
        fail = 1
    with tempfile.TemporaryDirectory() as work:
        for i, (kind, quote, probe) in enumerate(PROBES):
            where = find_quote(kernels, include, quote)
            if where is None:
                print(f"FAIL MLX's headers no longer contain {quote!r}: revisit this probe")
                fail = 1
                continue
            path = os.path.join(work, f"probe{i}.metal")
            with open(path, "w") as f:
                f.write("#include <metal_stdlib>\nusing namespace metal;\n" + probe + "\n")
            ok, err = compile_msl(path)
            if ok == (kind == "accept"):
                print(f"ok   {kind}: {probe}  (as {where})")
            else:
                said = "refused" if not ok else "accepted"
                print(f"FAIL the stand-in {said} {probe!r}, which MLX's {where} shows Apple's "
                      f"library {'has' if kind == 'accept' else 'lacks'}")
                if err:
                    print(err)
                fail = 1
    return fail


if __name__ == "__main__":
    sys.exit(main())
