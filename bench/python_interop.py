#!/usr/bin/env python3
"""python_interop.py — what the Python package costs where a user would otherwise reach for another
tool, side by side in one process:

  launch   a saxpy launch on arrays already on the device, through gpuport
           (``k(n, y, x, np.float32(a), np.int32(n))``) and through PyOpenCL
           (``knl(queue, (n,), None, y, x, np.float32(a), np.int32(n))``): the same numpy
           arguments, the same PoCL device, the same kernel (the dialect's and its OpenCL C), each
           launch followed by finishing the queue; enqueue-only (N launches, then one finish); and
           on numpy arrays: gpuport ``k(n, y_np, x_np, a, n)`` (used in place, waited for) against
           PyOpenCL over the same arrays (``cl.Buffer(..., USE_HOST_PTR, hostbuf=...)`` for each,
           the launch, finish)
  dlpack   gpuport.from_dlpack of a 1 GiB numpy array (in place: CPU backend, and PoCL through
           CL_MEM_USE_HOST_PTR) against copying it onto the device (Device.array), and
           np.from_dlpack of the gpuport array back

  python_interop.py [launch|dlpack|all] [--rounds R] [--launches N]

Rounds alternate which side goes first; each figure is the median over rounds of the per-round
median (launch) or of single timings (dlpack). Needs numpy, and pyopencl for the launch part.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import gpuport as gp  # noqa: E402

DIALECT = """
GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

OPENCL_C = """
__kernel void saxpy(__global float *y, __global const float *x, float a, int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


def median_us(samples):
    return statistics.median(samples) * 1e6


def per_launch(fn, launches):
    """The median time of one call of fn, over `launches` calls."""
    times = []
    for _ in range(launches):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def enqueue_only(fn, finish, launches):
    t0 = time.perf_counter()
    for _ in range(launches):
        fn()
    finish()
    return (time.perf_counter() - t0) / launches


def bench_launch(rounds, launches, n=4096):
    import pyopencl as cl

    info = next((d for d in gp.devices() if d.backend == "opencl"), None)
    if info is None:
        sys.exit("python_interop.py: no OpenCL device (PoCL: apt-get install pocl-opencl-icd)")
    dev = gp.Device(info.spec)
    k = dev.program(DIALECT).saxpy
    gx = dev.array(np.ones(n, np.float32), kind="device")
    gy = dev.array(np.zeros(n, np.float32), kind="device")
    gq = dev.default_queue()

    platform = next(p for p in cl.get_platforms() if "Portable Computing Language" in p.name)
    cdev = next(d for d in platform.get_devices() if d.name.strip() == info.name.strip())
    ctx = cl.Context([cdev])
    queue = cl.CommandQueue(ctx)
    knl = cl.Program(ctx, OPENCL_C).build().saxpy
    mf = cl.mem_flags
    cx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.ones(n, np.float32))
    cy = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(n, np.float32))
    a32, n32 = np.float32(2.0), np.int32(n)

    hx, hy = np.ones(n, np.float32), np.zeros(n, np.float32)

    def gp_launch():
        k(n, gy, gx, a32, n32)

    def cl_launch():
        knl(queue, (n,), None, cy, cx, a32, n32)

    def gp_sync():
        k(n, gy, gx, a32, n32)
        gq.finish()

    def cl_sync():
        knl(queue, (n,), None, cy, cx, a32, n32)
        queue.finish()

    def gp_numpy():
        k(n, hy, hx, 2.0, n)

    def cl_numpy():
        by = cl.Buffer(ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=hy)
        bx = cl.Buffer(ctx, mf.READ_ONLY | mf.USE_HOST_PTR, hostbuf=hx)
        knl(queue, (n,), None, by, bx, a32, n32)
        queue.finish()

    for f in (gp_sync, cl_sync, gp_numpy, cl_numpy):  # warm: builds, first launches
        for _ in range(50):
            f()
    res = {f"{s}_{m}": [] for s in ("gp", "cl") for m in ("sync", "enq", "numpy")}
    for r in range(rounds):
        order = [("gp", gp_sync, gp_launch, gq.finish, gp_numpy),
                 ("cl", cl_sync, cl_launch, queue.finish, cl_numpy)]
        if r % 2:
            order.reverse()
        for name, sync, enq, fin, host in order:
            res[f"{name}_sync"].append(per_launch(sync, launches))
            res[f"{name}_enq"].append(enqueue_only(enq, fin, launches))
            res[f"{name}_numpy"].append(per_launch(host, launches))
    print(f"device: {info.spec} {info.name} ({info.driver_version}); pyopencl {cl.VERSION_TEXT}; "
          f"{rounds} rounds x {launches} launches, {n} floats")
    print(f"{'':28s} {'gpuport':>10s} {'PyOpenCL':>10s} {'gpuport/PyOpenCL':>17s}")
    for key, label in (("sync", "launch + finish"), ("enq", "launch (enqueue only)"),
                       ("numpy", "on numpy arrays (+ finish)")):
        g, c = median_us(res[f"gp_{key}"]), median_us(res[f"cl_{key}"])
        ratios = [a / b for a, b in zip(res[f"gp_{key}"], res[f"cl_{key}"])]
        print(f"{label:28s} {g:8.2f} µs {c:8.2f} µs {statistics.median(ratios):17.3f}")
    ratios = [a / b for a, b in zip(res["gp_numpy"], res["cl_sync"])]
    print(f"{'gpuport on numpy arrays / PyOpenCL launch + finish on its buffers':68s} "
          f"{statistics.median(ratios):.3f}")


def bench_dlpack(rounds):
    size = 1 << 30
    a = np.ones(size // 4, np.float32)  # touched: resident
    cpu = gp.Device("cpu")
    devs = [cpu] + [gp.Device(d.spec) for d in gp.devices() if d.backend == "opencl" and d.unified_memory]

    def once(fn):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        del out
        return dt

    print(f"1 GiB float32 numpy array; median of {rounds} runs")
    for dev in devs:
        wrap = [once(lambda: gp.from_dlpack(a, device=dev)) for _ in range(rounds)]
        g = gp.from_dlpack(a, device=dev)
        assert g.copied is None and g.buffer.native()[2] == a.ctypes.data
        back = [once(lambda: np.from_dlpack(g)) for _ in range(rounds)]
        copy = [once(lambda: dev.array(a)) for _ in range(max(3, rounds // 10))]
        print(f"{dev.info.spec:10s} from_dlpack {median_us(wrap):9.1f} µs   np.from_dlpack back "
              f"{median_us(back):7.1f} µs   Device.array (a copy) {median_us(copy) / 1e3:8.1f} ms")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", nargs="?", default="all", choices=["launch", "dlpack", "all"])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--launches", type=int, default=2000)
    args = ap.parse_args()
    if args.what in ("launch", "all"):
        bench_launch(args.rounds, args.launches)
    if args.what in ("dlpack", "all"):
        bench_dlpack(max(args.rounds, 20))


if __name__ == "__main__":
    main()
