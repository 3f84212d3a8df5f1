"""gp_printf's output from Python (docs/debugging.md): the CPU's and OpenCL's go to sys.stdout
when the launch ends (so notebooks see it), checked runs too; bad formats raise BuildError with
the line."""

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


def _device(spec):
    if spec == "opencl":
        opencl = [d for d in gp.devices() if d.backend == "opencl"]
        if not opencl:
            pytest.skip("no OpenCL device (PoCL is installed by scripts/install-deps.sh)")
        spec = opencl[0].spec
    return gp.Device(spec)


@pytest.mark.parametrize("spec,check", [("cpu", None), ("cpu", "memcheck"), ("opencl", None)])
def test_prints_go_to_sys_stdout(monkeypatch, spec, check):
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    _run_show(_device(spec), check)
    lines = buf.getvalue().splitlines()
    assert lines == [f"x[{i}] = {i / 2:.2f} (ok)" for i in range(0, 16, 4)]


@pytest.mark.parametrize("spec", ["cpu", "opencl"])
def test_print_limit_counts_what_it_drops(monkeypatch, spec):
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    gp.set_print_limit(2)
    try:
        _run_show(_device(spec))
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


# ---- the timeline ------------------------------------------------------------------------------

SAXPY = """\
GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


def _validate(doc, launches, copies):
    """The Trace Event Format as Perfetto reads it, and what the timeline promises."""
    assert doc["displayTimeUnit"] == "ms"
    events = doc["traceEvents"]
    assert isinstance(events, list)
    meta = [e for e in events if e["ph"] == "M"]
    assert any(e["name"] == "process_name" for e in meta)
    assert any(e["name"] == "thread_name" for e in meta)
    xs = [e for e in events if e["ph"] == "X"]
    for e in xs:
        for f in ("name", "cat", "ts", "dur", "pid", "tid", "args"):
            assert f in e, (f, e)
        assert isinstance(e["ts"], (int, float)) and isinstance(e["dur"], (int, float))
        assert e["ts"] >= 0 and e["dur"] > 0, e
        assert e["args"]["backend"] in ("cpu", "opencl", "cuda", "metal")
        assert e["args"]["device"]
        # microseconds: nothing in this test takes a minute, nothing takes a picosecond
        assert e["dur"] < 60e6 and e["ts"] < 600e6
        if e.get("args", {}).get("device_time") is not None:
            assert e["args"]["device_time"] == "unsupported"
    got_launches = [e for e in xs if e["cat"] == "launch"]
    got_copies = [e for e in xs if e["cat"] in ("write", "read", "copy", "fill")]
    assert len(got_launches) == launches and len(got_copies) == copies
    for e in got_launches:
        assert e["name"] == "saxpy" and e["args"]["kernel"] == "saxpy"
        assert e["args"]["grid"] == [1024, 1, 1] and e["args"]["group"] == [128, 1, 1]
    for e in got_copies:
        assert e["args"]["bytes"] == 4096
    assert any(e["cat"] == "build" for e in xs) and any(e["cat"] == "wait" for e in xs)
    # the commands of one queue never overlap
    by_track = {}
    for e in got_launches + got_copies:
        by_track.setdefault((e["pid"], e["tid"]), []).append(e)
    for track in by_track.values():
        track.sort(key=lambda e: e["ts"])
        for a, b in zip(track, track[1:]):
            assert a["ts"] + a["dur"] <= b["ts"] + 1e-3, (a, b)
    return xs


def test_trace_of_builds_copies_and_launches(device, tmp_path):
    import json

    path = tmp_path / "t.json"
    x = np.arange(1024, dtype=np.float32)
    with gp.trace(path) as t:
        k = device.program(SAXPY, name="saxpy.gpk").kernel("saxpy")
        xa = device.array(x)
        ya = device.array(np.ones(1024, np.float32))
        for _ in range(5):
            k(1024, ya, xa, 2.0, 1024, group=128)
        out = ya.numpy()
        device.synchronize()
        summary = t.summary()
    assert np.allclose(out, 1 + 5 * 2 * x)
    doc = json.loads(path.read_text())
    xs = _validate(doc, launches=5, copies=3)
    backend = device.info.backend
    clocks = {e["args"]["clock"] for e in xs if e["cat"] == "launch"}
    if backend == "cpu":
        assert all(c.startswith("cpu") for c in clocks)
    elif backend == "opencl":
        assert all(c.startswith("device (OpenCL profiling info)") for c in clocks)
    assert "saxpy" in summary and "5 launches" in summary
    assert "host to device" in summary and "device to host" in summary
    assert "idle" in summary


def test_trace_refuses_a_second_start_and_a_bad_path(tmp_path):
    with pytest.raises(gp.GpuportError):
        with gp.trace(tmp_path / "no" / "such" / "dir.json"):
            pass
    with gp.trace(None):
        with pytest.raises(gp.InvalidArgumentError):
            with gp.trace(None):
                pass
