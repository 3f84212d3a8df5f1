"""The CUDA paths of the Python package against the STAND-IN libcuda.so.1 of tests/standins/ (built
with the library; it keeps "device" memory in host memory, records launches and logs which
stream each launch, event and wait went on, and runs no kernel): the CUDA Array Interface out
and in with its stream, DLPack's stream protocol, a kernel given another library's CUDA array
launched in place on that library's stream, and the refusals of host data on a CUDA device.
What a real GPU must show (results, torch and CuPy) is in test_cuda.py, run by
scripts/gpu-check.sh."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1]
BUILD = os.environ.get("GPUPORT_BUILD_DIR", "")
STANDIN = Path(BUILD) / "standins" / "libcuda.so.1" if BUILD else None

CHILD = r"""
import ctypes, os, sys
import numpy as np
import gpuport as gp
from gpuport import _dlpack as D

drv = ctypes.CDLL(os.environ["GPUPORT_CUDA_LIBRARY"])
def log():
    out = (ctypes.c_void_p * 5)()
    drv.gp_standin_cuda_stream_log(out)
    return [v or 0 for v in out]   # launch stream, recorded event, its stream, waiting stream, event
def new_stream():
    s = ctypes.c_void_p()
    assert drv.cuStreamCreate(ctypes.byref(s), 0) == 0
    return s.value
def alloc(n):
    p = ctypes.c_uint64()
    assert drv.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(n)) == 0
    return p.value

try:
    dev = gp.Device("cuda")
except gp.GpuportError as e:
    print("NO-CUDA", e.message)
    sys.exit(0)
mine = dev.default_queue().native
assert mine not in (None, 0, 1, 2)

# -- out: a gpuport CUDA array's interface and DLPack
a = dev.empty(16, np.float32)
a.write(np.arange(16, dtype=np.float32))
cai = a.__cuda_array_interface__
native = a.buffer.native()[0]
assert cai["version"] == 3 and cai["shape"] == (16,) and cai["typestr"] == "<f4"
assert cai["data"] == (native, False) and cai["strides"] is None and cai["stream"] == mine
assert a.__dlpack_device__() == (D.CUDA, 0)
theirs = new_stream()
cap = a.__dlpack__(stream=theirs, max_version=(1, 0))
l = log()
assert l[3] == theirs and l[4] == l[1] and l[2] == mine, l     # their stream waits for ours
t = D.Taken(cap)
assert t.device == (D.CUDA, 0) and t.data == native and t.shape == (16,)
t.release()
print("ok export")

# -- in: another library's CUDA memory with a stream, used in place
ptr = alloc(64)
class Foreign:                       # what CuPy or Numba hand over
    def __init__(self, ptr, stream, ro=False, strides=None):
        self.__cuda_array_interface__ = {"shape": (16,), "typestr": "<f4", "data": (ptr, ro),
                                         "version": 3, "strides": strides, "stream": stream}
producer_stream = new_stream()
g = gp.from_cuda_array_interface(Foreign(ptr, producer_stream), dev)
l = log()
assert g.buffer.native()[0] == ptr                              # the same memory
assert l[2] == producer_stream and l[3] == mine and l[4] == l[1], l   # we wait for their stream
(ctypes.c_float * 16).from_address(ptr)[3] = 7.5                # their write (host memory here)
assert g.numpy()[3] == 7.5
print("ok import")

# -- a kernel on it goes on the producer's stream, with its pointer
k = dev.program('''
GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))
{ int i = gp_global_id(0); if (i < n) y[i] = a * x[i] + y[i]; }''').saxpy
k(16, Foreign(ptr, producer_stream), a, 2.0, 16)
l = log()
param = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int)(("gp_standin_cuda_last_param", drv))
assert ctypes.c_uint64.from_address(param(0)).value == ptr      # y: their memory, in place
assert ctypes.c_uint64.from_address(param(1)).value == native   # x: gpuport's
assert l[0] == producer_stream, l                               # on their stream
# gpuport's own array was written on gpuport's queue: their stream waited for it first
assert l[3] == producer_stream and l[2] == mine, l
k(16, a, a, 2.0, 16)
assert log()[0] == mine                                         # gpuport arrays only: our queue
print("ok launch")

# -- refusals
for bad, msg in [(Foreign(ptr, producer_stream, ro=True), "read-only"),
                 (Foreign(ptr, 0), "stream 0 is not allowed"),
                 (Foreign(ptr, None, strides=(8,)), "not dense")]:
    try:
        k(8, bad, a, 1.0, 8)
    except (ValueError, BufferError) as e:
        assert msg in str(e), e
    else:
        raise AssertionError(f"accepted: {msg}")
x = np.arange(16, dtype=np.float32)
y = np.zeros(16, np.float32)
k(16, y, x, 1.0, 16)          # numpy on a CUDA device: copied in and back (the stand-in runs nothing)
try:
    gp.from_dlpack(x, device=dev, copy=False)
except BufferError as e:
    assert "does not use host memory in place" in str(e)
else:
    raise AssertionError("host memory wrapped on CUDA")
assert gp.from_dlpack(x, device=dev).copied
print("ok refusals")
"""


def test_cuda_interop_against_the_standin(tmp_path):
    if STANDIN is None or not STANDIN.is_file():
        pytest.skip("the stand-in libcuda.so.1 is built with the tests (set GPUPORT_BUILD_DIR)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPUPORT_STANDIN")}
    env.update(GPUPORT_CUDA_LIBRARY=str(STANDIN),
               GPUPORT_STANDIN_GPUS="gpuport stand-in GPU 0|9.0|81920|132|GPU-standin-0",
               GPUPORT_STANDIN_CUDA_VERSION="13000", GPUPORT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(PKG))
    env.pop("GPUPORT_DEVICE", None)
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(CHILD)], capture_output=True,
                       text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    if p.stdout.startswith("NO-CUDA"):
        # Without NVRTC (and no precompiled PTX) the CUDA backend cannot open: it must say so.
        assert "NVRTC" in p.stdout, p.stdout
        return
    for step in ("ok export", "ok import", "ok launch", "ok refusals"):
        assert step in p.stdout, p.stdout + p.stderr
