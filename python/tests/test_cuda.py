"""The CUDA paths on a real NVIDIA GPU (run by scripts/gpu-check.sh; skipped elsewhere): the CUDA
Array Interface and DLPack between gpuport and itself, PyTorch and CuPy with real results; kernels
on another library's stream, ordered with its work; torch CUDA tensors in place on
torch.cuda.current_stream(). The same paths without a GPU, against the stand-in driver, are in
test_cuda_standin.py."""

import ctypes
import ctypes.util

import numpy as np
import pytest

import gpuport as gp
from kernels import ALIAS, SAXPY

CUDA = [d for d in gp.devices() if d.backend == "cuda"]
pytestmark = pytest.mark.skipif(
    not CUDA, reason="no CUDA device: these tests run on a GPU machine (scripts/gpu-check.sh)")


@pytest.fixture(scope="module")
def cuda():
    with gp.Device("cuda") as d:
        yield d


def _torch_cuda():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("this torch has no CUDA (a CPU-only build)")
    return torch


def test_interface_and_dlpack_between_gpuport_arrays(cuda):
    n = 1000
    x = cuda.array(np.arange(n, dtype=np.float32))
    y = cuda.array(np.ones(n, np.float32))
    k = cuda.program(SAXPY).saxpy
    k(n, gp.from_cuda_array_interface(y, cuda), gp.from_dlpack(x, cuda), 2.0, n)
    np.testing.assert_array_equal(y.numpy(), 2 * np.arange(n) + 1)
    assert gp.from_dlpack(x, cuda).buffer.native()[0] == x.buffer.native()[0]
    assert x.__dlpack_device__() == (2, cuda.info.index)


def test_a_kernel_on_another_librarys_stream(cuda):
    lib = ctypes.CDLL(ctypes.util.find_library("cuda") or "libcuda.so.1")
    s = ctypes.c_void_p()
    # the primary context is current in gpuport's calls; make it current for this one too
    ctx, cu_dev = ctypes.c_void_p(), ctypes.c_int()
    assert lib.cuDeviceGet(ctypes.byref(cu_dev), cuda.info.index) == 0
    assert lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), cu_dev) == 0
    assert lib.cuCtxPushCurrent_v2(ctx) == 0
    assert lib.cuStreamCreate(ctypes.byref(s), 1) == 0
    q = cuda.foreign_queue(s.value)
    assert q.native == s.value
    n = 1 << 20
    x = cuda.array(np.ones(n, np.float32))
    y = cuda.array(np.zeros(n, np.float32))
    k = cuda.program(SAXPY).saxpy
    for _ in range(5):
        k(n, y, x, 1.0, n, queue=q)
    q.finish()
    np.testing.assert_array_equal(y.numpy(), np.full(n, 5, np.float32))
    assert lib.cuStreamDestroy_v2(s) == 0  # released by gpuport without destroying it
    lib.cuCtxPopCurrent_v2(ctypes.byref(ctx))
    lib.cuDevicePrimaryCtxRelease_v2(cu_dev)


def test_torch_cuda_tensors_in_place_on_torchs_stream(cuda):
    torch = _torch_cuda()
    n = 1 << 16
    t = torch.arange(n, dtype=torch.float32, device=f"cuda:{cuda.info.index}")
    seen = torch.zeros_like(t)
    k = cuda.program(ALIAS).alias
    k(n, t, t, seen, n)
    torch.cuda.current_stream().synchronize()
    want = 100 + torch.arange(n, dtype=torch.float32, device=t.device)
    assert torch.equal(t, want) and torch.equal(seen, want)  # x read y's writes: in place
    # Ordered with torch's work: torch fills x on a side stream after a long sleep; the kernel,
    # launched while that stream is current, must see the fill.
    side = torch.cuda.Stream()
    x = torch.zeros(n, device=t.device)
    y = torch.zeros(n, device=t.device)
    with torch.cuda.stream(side):
        torch.cuda._sleep(100_000_000)
        x.fill_(3.0)
        cuda.program(SAXPY).saxpy(n, y, x, 1.0, n)
    side.synchronize()
    assert float(y.min()) == 3.0 and float(y.max()) == 3.0


def test_torch_dlpack_and_interface_both_ways(cuda):
    torch = _torch_cuda()
    g = cuda.array(np.arange(8, dtype=np.float32))
    t = torch.from_dlpack(g)
    assert t.device.type == "cuda" and t.data_ptr() == g.buffer.native()[0]
    t[0] = 42
    torch.cuda.synchronize()
    assert g.numpy()[0] == 42
    u = torch.as_tensor(g, device="cuda")  # through __cuda_array_interface__
    assert u.data_ptr() == g.buffer.native()[0]
    src = torch.arange(6, dtype=torch.int32, device="cuda")
    h = gp.from_dlpack(src, cuda)
    assert h.copied is None and h.buffer.native()[0] == src.data_ptr()
    assert h.numpy().tolist() == list(range(6))
    c = gp.from_cuda_array_interface(src, cuda)
    assert c.buffer.native()[0] == src.data_ptr()


def test_kernel_function_on_cuda_tensors(cuda):
    torch = _torch_cuda()
    import gpuport.torch as gpt
    add = gpt.kernel_function(SAXPY, "saxpy", outputs=[], sizes={"n": lambda y, x, a: x.numel()})
    y = torch.ones(1000, device="cuda")
    x = torch.arange(1000, dtype=torch.float32, device="cuda")
    add(y, x, 2.0)
    torch.cuda.synchronize()
    assert torch.equal(y, 2 * x + 1)


def test_cupy_arrays(cuda):
    cp = pytest.importorskip("cupy", reason="cupy is not installed")
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    cuda.program(SAXPY).saxpy(1000, y, x, 2.0, 1000)  # on CuPy's current stream
    assert bool((y == 2 * x + 1).all())
    g = cuda.array(np.arange(4, dtype=np.float32))
    z = cp.asarray(g)  # through __cuda_array_interface__
    assert z.data.ptr == g.buffer.native()[0]
    w = cp.from_dlpack(g)
    assert w.data.ptr == g.buffer.native()[0]
