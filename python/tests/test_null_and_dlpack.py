"""None for a buffer parameter and DLPack capsules on the everyday path: a clear error or a check
report, never a crash; host-shared OpenCL memory goes to torch and numpy as CPU memory."""

import numpy as np
import pytest

import gpuport as gp
from gpuport import _dlpack as D

UNTESTED = """
GP_KERNEL(scale, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) y[i] = 2.0f * x[i];
}
"""

# tests the pointer, but reads it anyway for one work-item
MISTESTED = """
GP_KERNEL(addb, GP_BUF(float, y), GP_CBUF(float, b), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i >= n) return;
    y[i] += 1.0f;
    if (b != 0 || i == 3) y[i] += b[i];
}
"""


def test_none_for_a_buffer_the_kernel_never_tests_is_refused(device):
    k = device.program(UNTESTED, name="scale.gpk").kernel("scale")
    x = device.array(np.ones(16, np.float32))
    with pytest.raises(gp.InvalidArgumentError, match=r"argument 0 'y'.*never tests 'y'"):
        k(16, None, x, 16)
    y = device.array(np.zeros(16, np.float32))
    with pytest.raises(gp.InvalidArgumentError, match=r"argument 1 'x'"):
        k(16, y, None, 16)
    k(16, y, x, 16)  # the device still works
    np.testing.assert_array_equal(y.numpy(), np.full(16, 2.0, np.float32))


def test_none_in_a_checked_run_is_a_report_not_a_crash():
    dev = gp.Device("cpu", check="all")
    k = dev.program(UNTESTED, name="scale.gpk").kernel("scale")
    with pytest.raises(gp.CheckError) as e:
        k(16, None, dev.array(np.ones(16, np.float32)), 16)
    (r,) = e.value.reports
    assert r.check == "memcheck" and "null buffer" in r.message and "'y'" in r.message


def test_a_checked_run_reports_the_use_of_a_null_buffer():
    dev = gp.Device("cpu", check="memcheck")
    k = dev.program(MISTESTED, name="addb.gpk").kernel("addb")
    y = dev.array(np.zeros(16, np.float32))
    with pytest.raises(gp.CheckError) as e:
        k(16, y, None, 16)
    (r,) = e.value.reports
    assert r.check == "memcheck" and r.line == 7
    assert "b[3]" in r.message and "null buffer" in r.message
    np.testing.assert_array_equal(y.numpy(), np.ones(16, np.float32))  # the rest ran


def test_a_capsule_taken_twice_says_so():
    torch = pytest.importorskip("torch")
    cap = torch.arange(4.0).__dlpack__()
    np.testing.assert_array_equal(gp.from_dlpack(cap).numpy(), np.arange(4.0))
    with pytest.raises(BufferError, match="already consumed.*taken once"):
        gp.from_dlpack(cap)

    class Same:  # a producer that hands out the same capsule twice
        def __init__(self, c):
            self.c = c

        def __dlpack__(self, **kw):
            return self.c

        def __dlpack_device__(self):
            return (D.CPU, 0)

    same = Same(np.arange(3.0).__dlpack__())
    gp.from_dlpack(same)
    with pytest.raises(BufferError, match="already consumed"):
        gp.from_dlpack(same)
    with pytest.raises(TypeError, match="not a DLPack capsule"):
        D.Taken(3)


def test_shared_opencl_arrays_go_to_torch_and_numpy_as_cpu_memory():
    torch = pytest.importorskip("torch")
    opencl = [d for d in gp.devices() if d.backend == "opencl" and d.unified_memory]
    if not opencl:
        pytest.skip("no OpenCL device that shares memory with the host (PoCL does)")
    with gp.Device(opencl[0].spec) as dev:
        a = dev.array(np.arange(8, dtype=np.float32))  # "shared" by default there
        assert a.buffer.kind == "shared"
        dev.program(UNTESTED).scale(8, a, a, 8)
        assert a.__dlpack_device__() == (D.CPU, 0)
        t = torch.from_dlpack(a)
        n = np.from_dlpack(a)
        np.testing.assert_array_equal(t.numpy(), 2 * np.arange(8, dtype=np.float32))
        assert t.data_ptr() == n.ctypes.data == a.buffer.native()[2]  # in place, no copy
        t[0] = 5.0  # the kernel sees the host's write
        dev.program(UNTESTED).scale(8, a, a, 8)
        assert a.numpy()[0] == 10.0
