"""No crash and no silent garbage: every misuse of the Python API is refused before anything
reaches the C library or a kernel, with a message that names the parameter and the problem —
sizes, shapes, grids and offsets that are negative or not whole numbers, Python objects where
numbers belong, strings for numbers, values that do not fit their C type, dtypes that would be
cast silently, buffers of the wrong kind or layout, and closed devices."""

import numpy as np
import pytest

import gpuport as gp
from kernels import SAXPY


TYPES = """
GP_KERNEL(types, GP_BUF(gp_float4, v), GP_VAL(gp_half, h), GP_VAL(uint32_t, u), GP_VAL(int8_t, c),
          GP_VAL(gp_float2, f2), GP_VAL(double, d))
{
    int i = gp_global_id(0);
    if (i == 0) { v[0].x = (float)u + (float)c + f2.y + (float)d; }
}
"""


@pytest.fixture(scope="module")
def cpu():
    with gp.Device("cpu") as d:
        yield d


@pytest.fixture(scope="module")
def saxpy(cpu):
    return cpu.program(SAXPY).saxpy


def test_sizes_and_shapes(cpu):
    with pytest.raises(ValueError, match="negative"):
        cpu.empty(-1)
    with pytest.raises(ValueError, match=r"dimension 1 of shape \(4, -2\) is negative"):
        cpu.empty((4, -2))
    with pytest.raises(TypeError, match="whole number"):
        cpu.empty(3.5)
    with pytest.raises(TypeError, match="whole number"):
        cpu.empty("2")
    with pytest.raises(TypeError, match="not a bool"):
        cpu.empty(True)
    with pytest.raises(ValueError, match="at least one byte"):
        gp.Buffer(cpu, 0)
    with pytest.raises(ValueError, match="at least one byte"):
        gp.Buffer(cpu, -4)
    with pytest.raises(ValueError, match="needs 400 bytes; the buffer has 4"):
        gp.Array(gp.Buffer(cpu, 4), (100,), np.float32)  # no view past the end of the memory
    with pytest.raises(ValueError, match="unknown buffer kind"):
        gp.Buffer(cpu, 4, kind="gpu")
    with pytest.raises(OverflowError, match="more than any device's memory"):
        cpu.empty((2**40, 2**40))  # 2^80 bytes: never wrapped round to a small size
    with pytest.raises(OverflowError, match="larger than any device's memory"):
        gp.Buffer(cpu, 2**64 + 8)
    assert cpu.empty(0).shape == (0,) and cpu.empty(()).shape == ()


def test_python_objects_are_not_data(cpu, saxpy):
    objs = np.array([object(), object()])
    with pytest.raises(TypeError, match="Python objects"):
        cpu.array(objs)
    with pytest.raises(TypeError, match="not object"):
        cpu.empty(3, object)
    with pytest.raises(TypeError, match="not a number"):
        cpu.array(["a", "b"])
    with pytest.raises(TypeError, match="pointers, not data"):
        gp.Buffer(cpu, 16).write(objs)
    arr = cpu.empty(2, np.float32)
    with pytest.raises(TypeError, match="not numbers"):
        arr.write(objs)
    y = np.zeros(2, np.float32)
    with pytest.raises(TypeError, match="'x': the numpy array holds Python objects"):
        saxpy(2, y, objs, 1.0, 2)
    with pytest.raises(TypeError, match="'x' is a buffer; pass"):
        saxpy(2, y, [1.0, 2.0], 1.0, 2)
    with pytest.raises(TypeError, match="'y' is a buffer; a number"):
        saxpy(1, np.float32(0), y, 1.0, 1)  # a numpy scalar: the kernel's writes would be lost


def test_strings_and_other_non_numbers_for_values(saxpy):
    y = np.zeros(4, np.float32)
    for bad, what in [("2", "got str '2'"), (None, "got NoneType"), (1 + 2j, "got complex"),
                      ([1.0], "got list"), (np.zeros(1, np.float32), "got an array of shape (1,)")]:
        with pytest.raises(TypeError) as e:
            saxpy(4, y, y, bad, 4)
        assert f"parameter 'a' is float, {what}" in str(e.value)
    # raw bytes are the C value itself: the library checks their size
    with pytest.raises(gp.InvalidArgumentError, match="'a' is float \\(4 bytes\\), the launch passed 1"):
        saxpy(4, y, y, b"x", 4)
    with pytest.raises(TypeError, match="parameter 'n' is int, got str"):
        saxpy(4, y, y, 1.0, "4")
    with pytest.raises(TypeError, match="parameter 'n' is int, got a float"):
        saxpy(4, y, y, 1.0, 4.0)
    with pytest.raises(TypeError, match="got a float"):
        saxpy(4, y, y, 1.0, np.float32(4))
    with pytest.raises(TypeError, match="got a bool"):
        saxpy(4, y, y, True, 4)
    saxpy(4, y, y, np.float64(2.0), np.int64(4))  # numpy numbers of the right kind are fine
    saxpy(4, y, y, np.array(2.0), 4)  # and 0-d arrays


def test_values_that_do_not_fit(cpu, saxpy):
    y = np.zeros(4, np.float32)
    with pytest.raises(OverflowError, match="does not fit parameter 'n'"):
        saxpy(4, y, y, 1.0, 2**31)
    with pytest.raises(OverflowError, match="does not fit parameter 'a'"):
        saxpy(4, y, y, 1e39, 4)
    k = cpu.program(TYPES).types
    v = np.zeros(8, np.float32)
    ok = (v, 1.5, 7, -3, (0.5, 2.0), 0.25)
    k(1, *ok)
    assert v[0] == 7 - 3 + 2.0 + 0.25
    for i, bad, exc, msg in [(1, 70000.0, OverflowError, "'h'"), (2, -1, OverflowError, "'u'"),
                             (3, 128, OverflowError, "'c'"), (4, (1.0, 2.0, 3.0), TypeError, "2 numbers"),
                             (4, 1.0, TypeError, "2 numbers")]:
        args = list(ok)
        args[i] = bad
        with pytest.raises(exc, match=msg):
            k(1, *args)
    with pytest.raises(TypeError, match="not a multiple of 4"):
        k(1, np.zeros(6, np.float32), *ok[1:])


def test_grids_and_groups(saxpy):
    y = np.zeros(4, np.float32)
    for grid in (-5, 0, (4, -1), 2**31):
        with pytest.raises(ValueError, match="1 to 2\\^31-1") as e:
            saxpy(grid, y, y, 1.0, 4)
        assert "18446744073709551" not in str(e.value)
    with pytest.raises(TypeError, match="whole number"):
        saxpy(4.0, y, y, 1.0, 4)
    with pytest.raises(ValueError, match="1, 2 or 3 dimensions"):
        saxpy((1, 1, 1, 1), y, y, 1.0, 4)
    with pytest.raises(ValueError, match="group size in dimension 0 is -1"):
        saxpy(4, y, y, 1.0, 4, group=-1)
    with pytest.raises(ValueError, match="the group has 2 dimensions, the grid 1"):
        saxpy(4, y, y, 1.0, 4, group=(2, 2))
    with pytest.raises(ValueError, match="gpuport.Shared"):
        gp.Shared(-1)


def test_writes_never_cast_silently(cpu, saxpy):
    a = cpu.empty(4, np.float32)
    with pytest.raises(TypeError, match="holds float32, the data is float64.*astype"):
        a.write(np.zeros(4, np.float64))  # as a launch refuses it:
    with pytest.raises(TypeError, match="float64"):
        saxpy(4, a, np.zeros(4, np.float64), 1.0, 4)
    a.write([1, 2, 3, 4])  # Python numbers that the dtype holds exactly are fine
    assert a.numpy().tolist() == [1, 2, 3, 4]
    with pytest.raises(OverflowError, match="do not fit float32"):
        a.write([1e40, 0, 0, 0])
    i = cpu.empty(2, np.uint8)
    with pytest.raises(OverflowError, match="do not fit uint8"):
        i.write([300, 1])
    with pytest.raises(OverflowError):
        i.write([-1, 1])
    with pytest.raises(TypeError, match="has floats"):
        i.write([1.5, 2])
    with pytest.raises(ValueError, match="has 4 elements, the data 3"):
        a.write([1, 2, 3])
    b = cpu.empty(2, np.bool_)
    with pytest.raises(OverflowError):
        b.write([2, 0])


def test_buffer_ranges(cpu):
    b = gp.Buffer(cpu, 16)
    for call in (lambda: b.read(offset=-1), lambda: b.read(nbytes=-2), lambda: b.read(8, offset=12),
                 lambda: b.write(np.zeros(5, np.float32)), lambda: b.fill(b"\0", offset=20),
                 lambda: b.write(np.zeros(1, np.float32), offset=-4)):
        with pytest.raises(ValueError, match="outside the 16-byte buffer") as e:
            call()
        assert "18446744073709551" not in str(e.value)
    with pytest.raises(TypeError, match="whole number"):
        b.read(offset=1.5)


def test_buffer_layout_for_written_parameters(cpu, saxpy):
    x = np.zeros(8, np.float32)
    with pytest.raises(ValueError, match="'y' is GP_BUF, but the numpy array is not C-contiguous"):
        saxpy(4, np.zeros(8, np.float32)[::2], x, 1.0, 4)
    ro = np.zeros(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="'y' is GP_BUF .*read-only"):
        saxpy(4, ro, x, 1.0, 4)
    y = np.zeros(4, np.float32)
    saxpy(4, y, np.arange(8, dtype=np.float32)[::2], 1.0, 4)  # a strided input is copied to read
    assert y.tolist() == [0, 2, 4, 6]
    saxpy(4, y, ro, 1.0, 4)  # a read-only input is fine for GP_CBUF


def test_closed_devices_and_released_buffers(saxpy):
    d = gp.Device("cpu")
    b = gp.Buffer(d, 8)
    d.close()
    with pytest.raises(ValueError, match="closed"):
        d.empty(4)
    with pytest.raises(ValueError, match="closed"):
        d.program(SAXPY)
    assert b.read() is not None  # a buffer keeps its device alive
    b.release()
    with pytest.raises(ValueError, match="released"):
        b.read()
    with pytest.raises(TypeError, match="spec is a string"):
        gp.Device(0)


def test_arrays_of_another_device(saxpy):
    opencl = [d for d in gp.devices() if d.backend == "opencl"]
    if not opencl:
        pytest.skip("no OpenCL device (PoCL is installed by scripts/install-deps.sh)")
    with gp.Device(opencl[0].spec) as other:
        y = other.empty(4, np.float32)
        with pytest.raises(gp.InvalidArgumentError, match="argument 0 'y': the buffer is on opencl"):
            saxpy(4, y, y, 1.0, 4)


def test_streams_on_devices_without_them(cpu):
    g = cpu.empty(4, np.float32)
    with pytest.raises(BufferError, match="no streams"):
        g.__dlpack__(stream=5)
    with pytest.raises(gp.UnsupportedError, match="cpu"):
        cpu.foreign_queue(1)
    with pytest.raises(AttributeError):
        g.__cuda_array_interface__
    assert not hasattr(g, "__cuda_array_interface__")


def test_error_classes_carry_the_status():
    with pytest.raises(gp.NotFoundError) as e:
        with gp.Device("cpu") as d:
            d.program(SAXPY).kernel("nope")
    assert isinstance(e.value, gp.GpuportError) and e.value.status == "GP_ERR_NOT_FOUND"
    with pytest.raises(gp.BuildError) as e:
        with gp.Device("cpu") as d:
            d.program("GP_KERNEL(k, GP_BUF(float, y)) { y[0] = nope; }", name="bad.gpk")
    assert e.value.status == "GP_ERR_BUILD" and "bad.gpk" in e.value.message
