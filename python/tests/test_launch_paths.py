"""The short launch path (a whole-number grid, gpuport or numpy arrays, numbers of the parameter's
kind) gives the same results and the same refusals as the full one, from several threads at once;
a numpy array's buffer is kept for its next launch and goes when the array does."""

import gc
import threading

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


def test_numbers_and_arrays_of_every_kind(device):
    k = device.program(SAXPY).saxpy
    x = device.array(np.arange(8, dtype=np.float32))
    for a, n in ((2.0, 8), (2, 8), (np.float32(2), np.int32(8)), (np.float64(2), np.int64(8))):
        y = device.array(np.ones(8, np.float32))
        k(8, y, x, a, n)
        np.testing.assert_array_equal(y.numpy(), 2 * np.arange(8, dtype=np.float32) + 1)
    q = device.queue()
    y = device.array(np.zeros(8, np.float32))
    k(8, y, x, 1.0, 8, queue=q)
    q.finish()
    np.testing.assert_array_equal(y.numpy(), np.arange(8, dtype=np.float32))


def test_the_same_refusals(device):
    k = device.program(SAXPY).saxpy
    x = device.array(np.ones(8, np.float32))
    y = device.array(np.ones(8, np.float32))
    with pytest.raises(TypeError, match="parameter 'n' is int, got a float"):
        k(8, y, x, 1.0, 8.0)
    with pytest.raises(TypeError, match="parameter 'n' is int, got a float"):
        k(8, y, x, 1.0, np.float32(8))
    with pytest.raises(OverflowError, match="parameter 'n'"):
        k(8, y, x, 1.0, 2**31)
    with pytest.raises(TypeError, match="'y' holds float"):
        k(8, device.array(np.ones(8, np.int32)), x, 1.0, 8)
    with pytest.raises(ValueError, match="grid size in dimension 0 is 0"):
        k(0, y, x, 1.0, 8)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        k(8, y, x, 1.0)
    np.testing.assert_array_equal(y.numpy(), np.ones(8, np.float32))  # nothing ran


def test_numpy_arrays_keep_their_buffer_while_they_live(device):
    if not device.host_memory_in_place:
        pytest.skip(f"{device.info.spec} does not use host memory in place")
    k = device.program(SAXPY).saxpy
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, np.float32)
    before = len(device._wraps)
    for i in range(3):
        k(16, y, x, 1.0, 16)
        np.testing.assert_array_equal(y, (i + 1) * x)  # in place, waited for
    assert len(device._wraps) == before + 2
    del y
    gc.collect()
    assert len(device._wraps) == before + 1  # the array's death released its buffer
    y2 = np.zeros(16, np.float32)  # may reuse the memory: a new buffer for a new array
    k(16, y2, x, 3.0, 16)
    np.testing.assert_array_equal(y2, 3 * x)
    ro = np.zeros(16, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="'y' is GP_BUF .*read-only"):
        k(16, ro, x, 1.0, 16)
    with pytest.raises(ValueError, match="not C-contiguous"):
        k(8, np.zeros(16, np.float32)[::2], x, 1.0, 8)


def test_one_kernel_from_many_threads(device):
    k = device.program(SAXPY).saxpy
    x = device.array(np.ones(256, np.float32))
    outs = [device.array(np.zeros(256, np.float32)) for _ in range(4)]
    errors = []

    def run(y, a):
        try:
            for _ in range(50):
                k(256, y, x, float(a), 256)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(y, i + 1)) for i, y in enumerate(outs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    device.synchronize()
    assert not errors
    for i, y in enumerate(outs):
        np.testing.assert_array_equal(y.numpy(), np.full(256, 50.0 * (i + 1), np.float32))


GRID2 = """
GP_KERNEL(ids, GP_BUF(int, out), GP_VAL(int, w), GP_VAL(int, h))
{
    int x = gp_global_id(0), y = gp_global_id(1);
    if (x < w && y < h) out[y * w + x] = y * 1000 + x;
}
"""


def test_grids_of_two_and_three_dimensions(device):
    k = device.program(GRID2).ids
    out = device.array(np.zeros(30 * 20, np.int32))
    k((30, 20), out, 30, 20)
    want = (np.arange(20)[:, None] * 1000 + np.arange(30)[None, :]).reshape(-1)
    np.testing.assert_array_equal(out.numpy(), want)
    out2 = device.array(np.zeros(30 * 20, np.int32))
    k((30, 20, 1), out2, 30, 20)
    np.testing.assert_array_equal(out2.numpy(), want)
    with pytest.raises(ValueError, match="dimension 1 is 0"):
        k((30, 0), out, 30, 20)
    with pytest.raises(ValueError, match="1, 2 or 3 dimensions"):
        k((1, 1, 1, 1), out, 30, 20)
