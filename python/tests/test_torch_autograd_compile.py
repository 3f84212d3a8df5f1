"""gpuport on the everyday PyTorch path: a raw launch that writes a tensor in place bumps its
autograd version as torch's own in-place operations do (so a backward through the old values
raises instead of using the new ones), a kernel_function under torch.compile runs (a graph break
with the same results), and a function or operator with no outputs returns None."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

import gpuport as gp  # noqa: E402
import gpuport.torch as gpt  # noqa: E402

DOUBLE = """
GP_KERNEL(double_it, GP_BUF(float, y), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) y[i] = 2.0f * y[i];
}
"""

ADD = """
GP_KERNEL(add, GP_BUF(float, out), GP_CBUF(float, a), GP_CBUF(float, b), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) out[i] = a[i] + b[i];
}
"""


def test_an_in_place_launch_is_seen_by_autograd(device):
    k = device.program(DOUBLE).double_it
    a = torch.ones(4, requires_grad=True)
    b = a * 3
    c = b.sin()  # autograd saves b for the backward
    v = b._version
    with torch.no_grad():
        k(4, b, 4)
    assert b._version > v
    np.testing.assert_array_equal(b.detach().numpy(), np.full(4, 6.0, np.float32))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


def test_a_read_only_parameter_leaves_the_version_alone():
    k = gp.Device("cpu").program(ADD).add
    a, b, out = torch.ones(4), torch.ones(4), torch.zeros(4)
    va, vo = a._version, out._version
    k(4, out, a, b, 4)
    assert a._version == va and out._version > vo


def test_a_kernel_function_that_changes_its_input_bumps_it():
    fn = gpt.kernel_function(DOUBLE, "double_it", sizes={"n": lambda y: y.numel()})
    y = torch.ones(8)
    v = y._version
    assert fn(y) is None  # no outputs: None, as a Python function that changes its argument
    assert y._version > v and (y == 2).all()


def test_kernel_function_under_torch_compile():
    add = gpt.kernel_function(ADD, "add", outputs=["out"], sizes={"n": lambda a, b: a.numel()})

    def f(x, y):
        return add(x, y) * 2 + 1

    x, y = torch.arange(8.0), torch.ones(8)
    got = torch.compile(f)(x, y)
    torch.testing.assert_close(got, (x + y) * 2 + 1)


def test_a_custom_op_with_no_outputs_returns_none():
    if not hasattr(torch.library, "custom_op"):
        pytest.skip(f"torch {torch.__version__} has no torch.library.custom_op")
    op = gpt.custom_op("gpuport_test_noout::double_it", DOUBLE, "double_it",
                       sizes={"n": lambda y: y.numel()})
    y = torch.ones(8)
    assert op(y) is None
    assert (y == 2).all()
    assert torch.ops.gpuport_test_noout.double_it(y) is None
    assert (y == 4).all()

    def f(t):
        op(t)
        return t + 1

    z = torch.ones(4)
    torch.testing.assert_close(torch.compile(f)(z), torch.full((4,), 3.0))


def test_fullgraph_refuses_with_the_reason_and_the_alternative():
    add = gpt.kernel_function(ADD, "add", outputs=["out"], sizes={"n": lambda a, b: a.numel()})
    f = torch.compile(lambda x, y: add(x, y) * 2, fullgraph=True)
    with pytest.raises(Exception, match="(?s)cannot trace.*custom_op"):
        f(torch.ones(4), torch.ones(4))
