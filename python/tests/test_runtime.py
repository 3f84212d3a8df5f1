"""The runtime from Python: every kernel result compared with numpy on every available device
(the CPU backend, and PoCL's OpenCL device in CI), and every misuse refused with a clear error."""

import numpy as np
import pytest

import gpuport as gp

SAXPY = """
GP_KERNEL(saxpy, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

REDUCE = """
#ifndef GROUP
#error GROUP must be defined
#endif
GP_KERNEL(block_sum, GP_BUF(float, out), GP_CBUF(float, in), GP_VAL(int, n))
{
    GP_SHARED_DECL float part[GROUP];
    int lid = gp_local_id(0);
    int i = gp_global_id(0);
    part[lid] = i < n ? in[i] : 0.0f;
    gp_barrier();
    for (int s = GROUP / 2; s > 0; s >>= 1) {
        if (lid < s) part[lid] += part[lid + s];
        gp_barrier();
    }
    if (lid == 0) out[gp_group_id(0)] = part[0];
}
"""

TRANSPOSE_2D = """
GP_KERNEL(transpose, GP_BUF(int32_t, out), GP_CBUF(int32_t, in), GP_VAL(int, w), GP_VAL(int, h))
{
    int x = gp_global_id(0), y = gp_global_id(1);
    if (x < w && y < h) out[x * h + y] = in[y * w + x];
}
"""


def test_devices_include_the_cpu():
    devs = gp.devices()
    assert any(d.backend == "cpu" for d in devs)
    for d in devs:
        assert d.backend in gp.BACKENDS
        assert d.name
        assert d.max_group_size >= 1
        # SIMD-group operations: emulated in groups of 32 on the CPU, none on OpenCL (the field
        # sits after fp16 in gp_device_info: a wrong ctypes layout reads something else here)
        if d.backend in ("cpu", "opencl"):
            assert d.simd_group_width == (32 if d.backend == "cpu" else 0), d


def test_auto_records_every_backend():
    with gp.Device("auto") as dev:
        sel = dev.selection
        assert [s.backend for s in sel] == ["cuda", "metal", "opencl", "cpu"]
        chosen = [s for s in sel if s.outcome == "chosen"]
        assert len(chosen) == 1 and chosen[0].backend == dev.info.backend
        # Every backend before the chosen one says why it was skipped.
        for s in sel[: [s.backend for s in sel].index(dev.info.backend)]:
            assert s.outcome != "chosen" and s.detail
        assert dev.info.backend in dev.selection_text


def test_saxpy_matches_numpy(device):
    n = 10007  # not a multiple of any group size
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    want = np.float32(2.5) * x + y
    prog = device.program(SAXPY, name="saxpy.gpk")
    prog.saxpy(n, y, x, 2.5, n)  # numpy arrays in; y copied back
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)


def test_arrays_stay_on_the_device(device):
    n = 4096
    x = device.array(np.arange(n, dtype=np.float32))
    y = device.array(np.zeros(n, dtype=np.float32))
    k = device.program(SAXPY).kernel("saxpy")
    for _ in range(3):
        k(n, y, x, 1.0, n)
    device.synchronize()
    np.testing.assert_array_equal(y.numpy(), 3 * np.arange(n, dtype=np.float32))


def test_block_reduction_with_barriers(device):
    group = 64
    n = 64 * 37 + 5
    data = np.random.default_rng(2).random(n).astype(np.float32)
    groups = (n + group - 1) // group
    out = np.zeros(groups, dtype=np.float32)
    prog = device.program(REDUCE, defines={"GROUP": group})
    prog.block_sum(groups * group, out, data, n, group=group)
    want = np.add.reduceat(np.pad(data, (0, groups * group - n)), np.arange(0, groups * group, group))
    np.testing.assert_allclose(out, want, rtol=1e-5)


def test_two_dimensional_grid(device):
    w, h = 37, 19
    a = np.arange(w * h, dtype=np.int32).reshape(h, w)
    out = np.zeros(w * h, dtype=np.int32)
    device.program(TRANSPOSE_2D).transpose((w, h), out, a, w, h, group=(8, 4))
    np.testing.assert_array_equal(out.reshape(w, h), a.T)


def test_zero_copy_view_on_unified_memory():
    with gp.Device("cpu") as dev:
        assert dev.info.unified_memory
        arr = dev.empty(16, np.float32, kind="shared")
        v = arr.view()
        v[:] = np.arange(16, dtype=np.float32)
        arr.unview()
        y = dev.empty(16, np.float32, kind="shared")
        y.write(np.zeros(16, np.float32))
        dev.program(SAXPY).saxpy(16, y, arr, 2.0, 16)
        dev.synchronize()
        v = y.view()
        np.testing.assert_array_equal(v, 2 * np.arange(16, dtype=np.float32))
        y.unview()


def test_queues_and_events(device):
    q = device.queue()
    n = 1 << 16
    x = device.array(np.ones(n, np.float32))
    y = device.array(np.zeros(n, np.float32))
    k = device.program(SAXPY).kernel("saxpy")
    start = q.record()
    k(n, y, x, 1.0, n, queue=q)
    end = q.record()
    q.finish()
    assert start.elapsed_ms(end) >= 0.0
    np.testing.assert_array_equal(y.numpy(), np.ones(n, np.float32))


def test_async_copies_on_a_queue(device):
    q = device.queue()
    n = 1 << 15
    x = device.array(np.zeros(n, np.float32))
    src = np.arange(n, dtype=np.float32)
    x.buffer.write_async(src, queue=q)
    out = np.empty(n, np.float32)
    x.buffer.read_async(out, queue=q)
    q.finish()
    np.testing.assert_array_equal(out, src)
    # the default queue too
    x.buffer.write_async(src * 2)
    device.synchronize()
    np.testing.assert_array_equal(x.numpy(), src * 2)


def test_signature_is_read_from_the_source(device):
    k = device.program(SAXPY).kernel("saxpy")
    assert [(p.kind, p.type_name, p.name) for p in k.signature] == [
        ("buffer", "float", "y"),
        ("const_buffer", "float", "x"),
        ("value", "float", "a"),
        ("value", "int", "n"),
    ]
    assert k.max_group_size >= 1


def test_wrong_arguments_are_refused_before_launch(device):
    k = device.program(SAXPY).kernel("saxpy")
    y = np.zeros(8, np.float32)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        k(8, y, y, 1.0)
    with pytest.raises(TypeError, match="float64"):
        k(8, y, np.zeros(8, np.float64), 1.0, 8)
    with pytest.raises(TypeError, match="got a float"):
        k(8, y, y, 1.0, 8.5)
    with pytest.raises(OverflowError):
        k(8, y, y, 1.0, 2**40)
    with pytest.raises(TypeError, match="is a buffer"):
        k(8, 3, y, 1.0, 8)
    # Checked by the C library too: a value of the wrong size.
    with pytest.raises(gp.GpuportError) as e:
        k(8, y, y, b"\x00" * 8, 8)
    assert e.value.status == "GP_ERR_INVALID_ARGUMENT"
    assert "a" in e.value.message


def test_unknown_kernel_and_build_errors(device):
    prog = device.program(SAXPY)
    with pytest.raises(gp.GpuportError) as e:
        prog.kernel("no_such_kernel")
    assert e.value.status == "GP_ERR_NOT_FOUND"
    assert "saxpy" in e.value.message  # lists the kernels there are
    bad = SAXPY.replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] + undefined_name;")
    with pytest.raises(gp.GpuportError) as e:
        device.program(bad, name="broken.gpk")
    assert e.value.status == "GP_ERR_BUILD"
    assert "broken.gpk:5" in e.value.message  # the user's file and line


def test_group_size_above_the_limit(device):
    k = device.program(SAXPY).kernel("saxpy")
    too_big = device.info.max_group_size * 2
    y = device.array(np.zeros(too_big, np.float32))
    with pytest.raises(gp.GpuportError) as e:
        k(too_big, y, y, 1.0, too_big, group=too_big)
    assert e.value.status in ("GP_ERR_LAUNCH", "GP_ERR_INVALID_ARGUMENT")


def test_named_backend_never_falls_back():
    if any(d.backend == "cuda" for d in gp.devices()):
        pytest.skip("this machine has CUDA")
    with pytest.raises(gp.GpuportError) as e:
        gp.Device("cuda")
    assert "cuda" in e.value.message.lower()


def test_cache_dir_follows_the_environment(tmp_path, monkeypatch):
    gp.set_cache_dir(str(tmp_path))
    try:
        assert gp.cache_dir() == str(tmp_path)
        with gp.Device("cpu") as dev:  # a source this process has not built yet
            dev.program(SAXPY + f"\n/* {tmp_path} */\n")
        entries, size = gp.cache_stats()
        assert entries >= 1 and size > 0
        gp.clear_cache()
        assert gp.cache_stats()[0] == 0
    finally:
        gp.set_cache_dir(None)
