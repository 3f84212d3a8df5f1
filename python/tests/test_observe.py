"""gp_printf's output from Python (docs/debugging.md): the CPU's goes to sys.stdout when the
launch ends (so notebooks see it), checked runs too; bad formats raise BuildError with the line."""

import io
import sys

import numpy as np
import pytest

import gpuport as gp

PRINTS = """\
GP_KERNEL(show, GP_CBUF(float, x), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n && i % 4 == 0) gp_printf("x[%d] = %.2f (%s)\\n", i, x[i], "ok");
}
"""


def _run_show(dev, check=None):
    k = dev.program(PRINTS, name="show.gpk", check=check).kernel("show")
    x = dev.array(np.arange(16, dtype=np.float32) / 2)
    k(16, x, 16, group=8)
    dev.synchronize()


@pytest.mark.parametrize("check", [None, "memcheck"])
def test_cpu_prints_go_to_sys_stdout(monkeypatch, check):
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    _run_show(gp.Device("cpu"), check)
    lines = buf.getvalue().splitlines()
    assert lines == [f"x[{i}] = {i / 2:.2f} (ok)" for i in range(0, 16, 4)]


def test_print_limit_counts_what_it_drops(monkeypatch):
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    gp.set_print_limit(2)
    try:
        _run_show(gp.Device("cpu"))
    finally:
        gp.set_print_limit(None)
    lines = buf.getvalue().splitlines()
    assert lines[:2] == ["x[0] = 0.00 (ok)", "x[4] = 2.00 (ok)"]
    assert "2 lines of gp_printf output dropped" in lines[2]
    with pytest.raises(ValueError):
        gp.set_print_limit(-1)


def test_bad_format_is_a_build_error_with_the_line():
    src = PRINTS.replace("%.2f", "%p")
    with pytest.raises(gp.BuildError) as e:
        gp.Device("cpu").program(src, name="bad.gpk")
    assert "bad.gpk:4: gp_printf" in str(e.value) and "%p" in str(e.value)
