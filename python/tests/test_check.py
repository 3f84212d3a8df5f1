"""Checked runs from Python (docs/check.md): a bug in a kernel raises gpuport.CheckError, whose
reports name the check, the file the program was built as, the line and the work-item."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import gpuport as gp

PKG = Path(__file__).resolve().parents[1]  # the package of this checkout

# no size guard: the last group writes past the end of `out`
OOB = """\
GP_KERNEL(scale, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(float, a))
{
    size_t i = gp_global_id(0);
    out[i] = a * in[i];
}
"""

# a tiled sum that forgets the barrier between the writes and the reads of the tile
RACE = """\
GP_KERNEL(sum2, GP_BUF(float, out), GP_CBUF(float, in))
{
    GP_SHARED_DECL float tile[64];
    size_t l = gp_local_id(0);
    tile[l] = in[gp_global_id(0)];
    out[gp_global_id(0)] = tile[l] + tile[(l + 1) % 64];
}
"""

CLEAN = """\
GP_KERNEL(scale, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(float, a), GP_VAL(uint32_t, n))
{
    size_t i = gp_global_id(0);
    if (i < n) out[i] = a * in[i];
}
"""

# an optional buffer: a null one is tested before it is touched
BIAS = """\
GP_KERNEL(addb, GP_BUF(float, out), GP_CBUF(float, bias), GP_VAL(uint32_t, n))
{
    size_t i = gp_global_id(0);
    if (i < n) out[i] = out[i] + (bias != 0 ? bias[i] : 1.0f);
}
"""


def test_out_of_bounds_write_raises_with_the_line():
    dev = gp.Device("cpu", check="memcheck")
    assert dev.checks == ("memcheck",)
    k = dev.program(OOB, name="scale.gpk").kernel("scale")
    inp = dev.array(np.ones(128, np.float32))  # only `out` is too short
    out = dev.empty(100, np.float32)
    with pytest.raises(gp.CheckError) as e:
        k(128, out, inp, 2.0, group=64)
    reports = e.value.reports
    assert reports, "a CheckError carries its reports"
    writes = [r for r in reports if "write of 4 bytes at out[100]" in r.message]
    assert writes and writes[0].check == "memcheck"
    assert writes[0].file == "scale.gpk" and writes[0].line == 4
    assert writes[0].kernel == "scale"
    assert writes[0].count == 28  # work-items 100..127
    assert writes[0].group == (1, 0, 0) and writes[0].local is not None
    assert str(writes[0]).startswith("scale.gpk:4:")
    assert "scale.gpk:4" in str(e.value)
    assert isinstance(e.value, gp.GpuportError) and e.value.status == "GP_ERR_CHECK"
    # the writes outside the buffer were not performed; the ones inside were
    assert np.array_equal(out.numpy(), np.full(100, 2.0, np.float32))
    assert gp.check_reports() == reports


def test_race_names_both_sides():
    dev = gp.Device("cpu")
    k = dev.program(RACE, name="sum2.gpk", check="racecheck").kernel("sum2")
    inp = dev.array(np.arange(128, dtype=np.float32))
    out = dev.empty(128, np.float32)
    with pytest.raises(gp.CheckError) as e:
        k(128, out, inp, group=64)
    races = [r for r in e.value.reports if r.check == "racecheck"]
    assert races
    lines = {races[0].line, races[0].other_line}
    assert lines == {5, 6}, races[0]


def test_a_correct_kernel_runs_clean_and_checked():
    dev = gp.Device("cpu", check=True)
    assert dev.checks == gp.CHECKS
    k = dev.program(CLEAN).kernel("scale")
    x = np.linspace(0, 1, 1000, dtype=np.float32)
    out = dev.empty(1000, np.float32)
    k(1024, out, dev.array(x), 3.0, 1000, group=128)
    assert np.allclose(out.numpy(), 3.0 * x)
    assert gp.check_reports() == []


def test_checks_are_set_and_refused_by_name():
    dev = gp.Device("cpu")
    assert dev.checks == ()
    dev.checks = "initcheck,synccheck"
    assert dev.checks == ("synccheck", "initcheck")
    dev.checks = ["racecheck"]
    assert dev.checks == ("racecheck",)
    dev.checks = None
    assert dev.checks == ()
    with pytest.raises(gp.InvalidArgumentError, match="leakcheck"):
        dev.checks = "memcheck,leakcheck"
    with pytest.raises(TypeError):
        dev.checks = 3


def test_auto_with_checks_opens_the_cpu():
    dev = gp.Device("auto", check="all")
    assert dev.info.backend == "cpu"


def test_an_optional_buffer_may_be_none():
    dev = gp.Device("cpu")
    k = dev.program(BIAS).kernel("addb")
    out = dev.array(np.zeros(10, np.float32))
    k(16, out, None, 10, group=16)
    assert np.array_equal(out.numpy(), np.ones(10, np.float32))
    k(16, out, dev.array(np.full(10, 2.0, np.float32)), 10, group=16)
    assert np.array_equal(out.numpy(), np.full(10, 3.0, np.float32))


def test_gpuport_check_in_the_environment():
    """GPUPORT_CHECK=all checks a program that asked for nothing, as in C."""
    child = textwrap.dedent(f"""
        import numpy as np, gpuport as gp
        dev = gp.Device("auto")
        k = dev.program({OOB!r}, name="env.gpk").kernel("scale")
        try:
            k(128, dev.empty(100, np.float32), dev.array(np.ones(100, np.float32)), 1.0, group=64)
        except gp.CheckError as e:
            print(dev.info.backend, e.reports[0].check, e.reports[0].file, e.reports[0].line)
    """)
    env = dict(os.environ, GPUPORT_CHECK="all", PYTHONPATH=str(PKG))
    env.pop("GPUPORT_DEVICE", None)
    p = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["cpu", "memcheck", "env.gpk", "4"], p.stdout + p.stderr


def test_the_dialect_prelude():
    text = gp.dialect_prelude()
    assert "GP_KERNEL" in text and len(text) > 1000


# ---- CUDA source, checked -------------------------------------------------------------------
CUDA_SRC = """__global__ void scale(float *y, const float *x, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i];
}
__global__ void timed(long long *y)
{
    y[0] = clock64();
}
"""


def test_cuda_source_checked(tmp_path):
    """A .cu source (text named *.cu, or a path) is translated and checked: the report names the
    .cu line and column and speaks of threads and blocks; a refused kernel says why."""
    dev = gp.Device("cpu", check="all")
    for src, name in ((CUDA_SRC, "scale.cu"), (None, None)):
        if src is None:
            path = tmp_path / "scale.cu"
            path.write_text(CUDA_SRC)
            prog = dev.program(path)
            want_file = str(path)
        else:
            prog = dev.program(src, name=name)
            want_file = name
        y = dev.array(np.zeros(100, np.float32))
        x = dev.array(np.ones(100, np.float32))
        with pytest.raises(gp.CheckError) as e:
            prog.scale(128, y, x, 2.0, group=64)
        r = [r for r in e.value.reports if r.check == "memcheck" and r.column == 16]
        assert r and r[0].file == want_file and r[0].line == 4, e.value.reports
        assert "work-item" not in r[0].text and r[0].local == (36, 0, 0)
        with pytest.raises(gp.TranslateError) as t:
            prog.timed
        assert ":8: clock: " in str(t.value)
