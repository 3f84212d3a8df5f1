"""PyTorch tensors and gpuport, on the CPU (the CUDA paths are in test_cuda.py): kernels on torch
tensors in place, DLPack both ways with a write through one side seen by the other, the refusals
(layout, dtype, device), and gpuport.torch's kernel functions and torch.library operators with
autograd out of the way. Skipped where torch is not installed."""

import gc
import weakref

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

import gpuport as gp  # noqa: E402
import gpuport.torch as gpt  # noqa: E402
from kernels import ALIAS  # noqa: E402


ADD = """
GP_KERNEL(add, GP_BUF(float, out), GP_CBUF(float, a), GP_CBUF(float, b), GP_VAL(float, scale),
          GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) out[i] = scale * (a[i] + b[i]);
}
"""

STATS = """
GP_KERNEL(minmax, GP_BUF(float, lo), GP_BUF(int, hi_index), GP_CBUF(float, x), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) { lo[i] = x[i] < 0.0f ? x[i] : 0.0f; hi_index[i] = x[i] > 0.0f ? i : -1; }
}
"""


@pytest.fixture(scope="module")
def cpu():
    with gp.Device("cpu") as d:
        yield d


def test_a_kernel_uses_cpu_tensors_in_place(device):
    if not device.host_memory_in_place:
        pytest.skip(f"{device.info.spec} does not use host memory in place")
    n = 50
    t = torch.arange(n, dtype=torch.float32)
    seen = torch.zeros(n)
    device.program(ALIAS).alias(n, t, t, seen, n)
    want = 100 + torch.arange(n, dtype=torch.float32)
    assert torch.equal(t, want)
    assert torch.equal(seen, want)  # x read y's writes: the kernel used the tensor itself


def test_dlpack_both_ways_share_memory(cpu):
    t = torch.arange(10, dtype=torch.int32)
    g = gp.from_dlpack(t, device=cpu)
    assert g.copied is None and g.buffer.native()[2] == t.data_ptr()
    t[2] = -5
    assert g.numpy()[2] == -5
    g.write(np.zeros(10, np.int32))
    assert int(t.sum()) == 0

    h = cpu.array(np.arange(6, dtype=np.float64))
    u = torch.from_dlpack(h)
    assert u.data_ptr() == h.buffer.native()[2]
    u[0] = 42
    assert h.numpy()[0] == 42
    h.write(np.full(6, 3.0))
    assert float(u.sum()) == 18.0


def test_tensor_lifetime(cpu):
    t = torch.ones(1000)
    gone = weakref.ref(t)
    g = gp.from_dlpack(t, device=cpu)
    del t
    gc.collect()
    assert g.numpy().sum() == 1000  # the tensor's memory is still there
    del g
    gc.collect()
    assert gone() is None


def test_refusals_name_the_parameter(cpu):
    k = cpu.program(ALIAS).alias
    x = torch.zeros(8)
    with pytest.raises(ValueError, match="'y' is GP_BUF, but the tensor is not contiguous"):
        k(4, torch.zeros(8)[::2], x, torch.zeros(4), 4)
    with pytest.raises(TypeError, match="'x' holds float .*float64"):
        k(4, x, x.double(), x, 4)
    with pytest.raises(TypeError, match="bfloat16 tensor has no type"):
        k(4, x, x.bfloat16(), x, 4)
    with pytest.raises(BufferError, match="bfloat16"):
        gp.from_dlpack(x.bfloat16(), device=cpu)
    y = torch.zeros(4)
    k(4, y, torch.arange(8, dtype=torch.float32)[::2], torch.zeros(4), 4)  # strided input: copied
    assert y.tolist() == [100, 101, 102, 103]


def test_kernel_function_allocates_outputs_like_inputs(cpu):
    add = gpt.kernel_function(ADD, "add", outputs=["out"], sizes={"n": lambda a, b, scale: a.numel()})
    a = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    b = torch.ones(3, 4)
    out = add(a, b, 2.0)
    assert out.shape == (3, 4) and out.dtype == torch.float32 and out.device.type == "cpu"
    assert torch.equal(out, 2.0 * (a + b))
    assert [p.name for p in add.inputs] == ["a", "b", "scale"]
    assert add.schema() == "(Tensor a, Tensor b, float scale) -> Tensor"
    with pytest.raises(TypeError, match="missing argument"):
        add(a, b)
    with pytest.raises(ValueError, match="output 'a' must name a GP_BUF"):
        gpt.kernel_function(ADD, "add", outputs=["a"])


def test_outputs_take_their_parameters_type():
    f = gpt.kernel_function(STATS, "minmax", outputs=["lo", "hi_index"], sizes={"n": lambda x: x.numel()})
    x = torch.tensor([-2.0, 3.0, 0.0, 5.0])
    lo, hi = f(x)
    assert lo.dtype == torch.float32 and hi.dtype == torch.int32
    assert lo.tolist() == [-2, 0, 0, 0] and hi.tolist() == [-1, 1, -1, 3]


def test_autograd_is_out_of_the_way():
    add = gpt.kernel_function(ADD, "add", outputs=["out"], sizes={"n": lambda a, b, s: a.numel()})
    a = torch.randn(100, requires_grad=True)
    out = add(a, a, 1.0)  # runs on the data; the output has no history
    assert not out.requires_grad
    torch.testing.assert_close(out, 2 * a.detach())
    with torch.no_grad():
        torch.testing.assert_close(add(a, a, 0.5), a.detach())


def test_custom_op_registered_with_torch_library():
    if not hasattr(torch.library, "custom_op"):
        pytest.skip(f"torch {torch.__version__} has no torch.library.custom_op")
    op = gpt.custom_op("gpuport_test::add", ADD, "add", outputs=["out"],
                       sizes={"n": lambda a, b, s: a.numel()})
    a, b = torch.arange(5, dtype=torch.float32), torch.full((5,), 10.0)
    assert torch.equal(torch.ops.gpuport_test.add(a, b, 1.0), a + b)
    assert torch.equal(op(a, b, 3.0), 3 * (a + b))
    # the fake implementation: shapes without running the kernel
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        fa = torch.empty(7, 2)
        r = torch.ops.gpuport_test.add(fa, fa, 1.0)
        assert r.shape == (7, 2)


def test_a_prebuilt_kernel_stays_on_its_device(cpu):
    k = cpu.program(ADD).kernel("add")
    add = gpt.kernel_function(k, outputs=["out"], sizes={"n": lambda a, b, s: a.numel()})
    a = torch.ones(3)
    assert torch.equal(add(a, a, 1.0), 2 * a)
