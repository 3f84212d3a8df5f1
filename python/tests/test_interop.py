"""numpy and gpuport share memory: DLPack both ways (a write through one side is seen by the other,
which proves no copy was made), the producer deleted first, capsule rules (versioned and older
names, taken once, freed when never taken), every element type of the dialect, the refusals and
copies where memory cannot be shared, ``__array__`` with numpy 2's copy rules, and kernels that
take numpy arrays in place."""

import gc
import sys
import weakref

import numpy as np
import pytest

import gpuport as gp
from gpuport import _dlpack as D
from kernels import ALIAS

# Every scalar type of the dialect, and its numpy type.
DIALECT_TYPES = {
    "float": np.float32, "double": np.float64, "gp_half": np.float16,
    "int8_t": np.int8, "uint8_t": np.uint8, "int16_t": np.int16, "uint16_t": np.uint16,
    "int": np.int32, "uint32_t": np.uint32, "int64_t": np.int64, "uint64_t": np.uint64,
}

COPY = """
GP_KERNEL(copy, GP_BUF(T, out), GP_CBUF(T, in), GP_VAL(int, n))
{
    int i = gp_global_id(0);
    if (i < n) out[i] = in[i];
}
"""


@pytest.fixture
def cpu():
    with gp.Device("cpu") as d:
        yield d


def test_numpy_to_gpuport_shares_memory(cpu):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    g = gp.from_dlpack(a, device=cpu)
    assert g.copied is None and not g.readonly
    assert (g.shape, g.dtype, g.strides, g.nbytes, len(g), g.ndim) == ((3, 4), np.float32, (16, 4), 48, 3, 2)
    assert g.buffer.native()[2] == a.ctypes.data  # the very same memory
    a[1, 2] = -7  # numpy writes: gpuport sees it
    assert g.numpy()[1, 2] == -7
    g.write(np.full((3, 4), 5, np.float32))  # gpuport writes: numpy sees it
    assert (a == 5).all()


def test_gpuport_to_numpy_shares_memory(cpu):
    g = cpu.array(np.arange(8, dtype=np.int64))
    n = np.from_dlpack(g)
    assert n.ctypes.data == g.buffer.native()[2]
    n[3] = 42
    assert g.numpy()[3] == 42
    g.write(np.zeros(8, np.int64))
    assert n[3] == 0


def test_round_trip_keeps_the_same_memory(cpu):
    a = np.arange(5, dtype=np.float64)
    back = np.from_dlpack(gp.from_dlpack(a, device=cpu))
    assert back.ctypes.data == a.ctypes.data
    back[0] = 9
    assert a[0] == 9


def test_the_producer_may_go_first(cpu):
    a = np.arange(1 << 16, dtype=np.float32)
    gone = weakref.ref(a)
    g = gp.from_dlpack(a, device=cpu)
    del a
    gc.collect()
    assert gone() is not None  # kept alive by the gpuport array
    np.testing.assert_array_equal(g.numpy(), np.arange(1 << 16, dtype=np.float32))
    del g
    gc.collect()
    assert gone() is None  # and let go with it


def test_a_gpuport_array_outlives_its_name(cpu):
    g = cpu.array(np.arange(100, dtype=np.int32))
    gone = weakref.ref(g)
    n = np.from_dlpack(g)
    del g
    gc.collect()
    assert gone() is not None  # the numpy array keeps it
    assert n.sum() == sum(range(100))
    del n
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize("type_name", sorted(DIALECT_TYPES))
def test_every_dialect_type_through_dlpack_and_a_kernel(cpu, type_name):
    dt = np.dtype(DIALECT_TYPES[type_name])
    n = 37
    src = (np.arange(n) % 50).astype(dt)
    dst = np.zeros(n, dt)
    gsrc, gdst = gp.from_dlpack(src, device=cpu), gp.from_dlpack(dst, device=cpu)
    assert gsrc.dtype == dt and gsrc.__dlpack_device__() == (D.CPU, 0)
    k = cpu.program(COPY, defines={"T": type_name}).copy
    k(n, gdst, gsrc, n)  # gpuport arrays over numpy's memory
    np.testing.assert_array_equal(dst, src)  # written in place: nothing copied back
    back = np.from_dlpack(gdst)
    assert back.dtype == dt and back.ctypes.data == dst.ctypes.data


@pytest.mark.parametrize("dt", [np.bool_, np.complex64, np.complex128])
def test_types_beyond_the_dialect_still_share(cpu, dt):
    a = np.ones(6, dt)
    g = gp.from_dlpack(a, device=cpu)
    assert g.dtype == dt and g.buffer.native()[2] == a.ctypes.data


def test_capsule_names_versions_and_single_use(cpu):
    g = cpu.array(np.arange(4, dtype=np.float32))
    cap = g.__dlpack__(max_version=(1, 0))
    assert 'dltensor_versioned' in repr(cap)
    old = g.__dlpack__()
    assert '"dltensor"' in repr(old)
    x = np.from_dlpack(_Capsule(cap))
    assert 'used_dltensor_versioned' in repr(cap)  # renamed by the consumer that took it
    with pytest.raises(BufferError, match="already consumed"):
        gp.from_dlpack(_Capsule(cap), device=cpu)
    assert x.tolist() == [0, 1, 2, 3]


def test_a_capsule_nobody_takes_lets_go(cpu):
    g = cpu.array(np.arange(4, dtype=np.float32))
    gone = weakref.ref(g)
    cap = g.__dlpack__(max_version=(1, 0))
    del g
    gc.collect()
    assert gone() is not None  # the capsule holds it
    del cap
    gc.collect()
    assert gone() is None  # freed by the capsule's destructor


class _Capsule:
    """A producer that hands out one capsule it was given (to test consumers on it)."""

    def __init__(self, cap, device=(D.CPU, 0)):
        self.cap, self.device = cap, device

    def __dlpack__(self, **kw):
        return self.cap

    def __dlpack_device__(self):
        return self.device


def test_read_only_producer(cpu):
    a = np.arange(6, dtype=np.float32)
    a.flags.writeable = False
    g = gp.from_dlpack(a, device=cpu)
    assert g.readonly and g.copied is None
    view = np.asarray(g)
    assert not view.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        g.write(np.zeros(6, np.float32))
    k = cpu.program(ALIAS).alias
    seen = np.zeros(6, np.float32)
    with pytest.raises(ValueError, match="'y' is GP_BUF.*read-only"):
        k(6, g, g, seen, 6)
    with pytest.raises(ValueError, match="'y' is GP_BUF.*read-only"):
        k(6, a, a, seen, 6)
    # the old form of DLPack cannot say read-only: refused rather than handed out writable
    with pytest.raises(BufferError, match="read-only"):
        g.__dlpack__()
    assert not np.from_dlpack(g).flags.writeable


def test_strides_that_are_not_dense(cpu):
    a = np.arange(20, dtype=np.float32)[::2]
    with pytest.raises(BufferError, match="not dense.*copy=False forbids"):
        gp.from_dlpack(a, device=cpu, copy=False)
    g = gp.from_dlpack(a, device=cpu)  # copy=None: a copy, and why
    assert g.copied and "not dense" in g.copied
    np.testing.assert_array_equal(g.numpy(), a)
    a[0] = 99  # a copy: not seen
    assert g.numpy()[0] == 0
    t = np.arange(12, dtype=np.int32).reshape(3, 4).T
    np.testing.assert_array_equal(gp.from_dlpack(t, device=cpu).numpy(), t)
    # dimensions of size 1 may have any stride
    one = np.arange(4, dtype=np.float32).reshape(4, 1)[:, ::1]
    assert gp.from_dlpack(one, device=cpu).copied is None


def test_copy_true_copies(cpu):
    a = np.arange(4, dtype=np.float32)
    g = gp.from_dlpack(a, device=cpu, copy=True)
    assert g.copied == "copy=True"
    a[0] = 5
    assert g.numpy()[0] == 0


def test_zero_size_and_zero_dimensions(cpu):
    z = gp.from_dlpack(np.zeros((0, 3), np.float32), device=cpu)
    assert z.shape == (0, 3) and z.nbytes == 0 and np.asarray(z).shape == (0, 3)
    s = cpu.array(np.float64(2.5))
    assert s.shape == () and s.ndim == 0 and s.size == 1 and s.strides == ()
    assert np.asarray(s).shape == () and float(np.asarray(s)) == 2.5
    assert np.from_dlpack(s).shape == ()
    with pytest.raises(TypeError, match="0-d"):
        len(s)
    assert gp.from_dlpack(np.array(7, np.int16), device=cpu).shape == ()


def test_array_protocol_follows_numpy2_copy_rules(cpu):
    g = cpu.array(np.arange(6, dtype=np.float32))
    v = np.asarray(g)  # host memory: a view
    v[0] = 3
    assert g.numpy()[0] == 3
    c = np.array(g, copy=True)
    c[1] = 8
    assert g.numpy()[1] == 1
    assert np.asarray(g, dtype=np.float64).dtype == np.float64  # a cast is a copy
    with pytest.raises(ValueError, match="needs a copy"):
        np.asarray(g, dtype=np.float64, copy=False)
    assert np.asarray(g, copy=False).ctypes.data == g.buffer.native()[2]


def test_device_memory_is_copied_for_numpy_and_never_viewed():
    opencl = [d for d in gp.devices() if d.backend == "opencl"]
    if not opencl:
        pytest.skip("no OpenCL device (PoCL is installed by scripts/install-deps.sh)")
    with gp.Device(opencl[0].spec) as dev:
        g = dev.empty(5, np.int32, kind="device")
        g.write(np.arange(5, dtype=np.int32))
        assert g.__dlpack_device__() == (D.OPENCL, opencl[0].index)
        np.testing.assert_array_equal(np.asarray(g), np.arange(5))  # a copy
        with pytest.raises(ValueError, match="cannot view in place"):
            np.asarray(g, copy=False)
        cap = g.__dlpack__(max_version=(1, 0), dl_device=(D.CPU, 0))  # a host copy on request
        np.testing.assert_array_equal(np.from_dlpack(_Capsule(cap)), np.arange(5))
        with pytest.raises(BufferError, match="copy=False"):
            g.__dlpack__(max_version=(1, 0), dl_device=(D.CPU, 0), copy=False)
        with pytest.raises(BufferError, match="its own device or the CPU"):
            g.__dlpack__(dl_device=(D.CUDA, 0))


def test_host_memory_on_opencl_is_used_in_place():
    opencl = [d for d in gp.devices() if d.backend == "opencl" and d.unified_memory]
    if not opencl:
        pytest.skip("no OpenCL device that shares memory with the host (PoCL does)")
    with gp.Device(opencl[0].spec) as dev:
        a = np.arange(16, dtype=np.float32)
        g = gp.from_dlpack(a, device=dev)
        assert g.copied is None and g.buffer.kind == "shared"
        assert g.__dlpack_device__() == (D.CPU, 0)
        _aliased_launch(dev, a)


def _aliased_launch(dev, a):
    """A kernel given the same numpy array for y and x reads its own writes through x: proof
    that the kernel used the array's memory, not copies."""
    n = a.size
    seen = np.zeros(n, np.float32)
    dev.program(ALIAS).alias(n, a, a, seen, n)
    want = 100 + np.arange(n, dtype=np.float32)
    np.testing.assert_array_equal(a, want)
    np.testing.assert_array_equal(seen, want)


def test_kernels_take_numpy_in_place(device):
    if not device.host_memory_in_place:
        pytest.skip(f"{device.info.spec} does not use host memory in place")
    _aliased_launch(device, np.arange(64, dtype=np.float32))


def test_kernels_copy_numpy_where_memory_cannot_be_shared(device):
    # The same launch on any device gives the same result; where the device cannot use host
    # memory, x is a copy and seen[] shows x's old values.
    n = 8
    a = np.arange(n, dtype=np.float32)
    seen = np.zeros(n, np.float32)
    device.program(ALIAS).alias(n, a, a, seen, n)
    np.testing.assert_array_equal(a, 100 + np.arange(n))
    want = a if device.host_memory_in_place else np.arange(n, dtype=np.float32)
    np.testing.assert_array_equal(seen, want)


def test_asarray_takes_whatever_numpy_takes(cpu):
    g = gp.asarray([[1, 2], [3, 4]], device=cpu)
    assert g.shape == (2, 2) and g.numpy().tolist() == [[1, 2], [3, 4]]
    buf = bytearray(b"\x01\x02\x03\x04")
    g = gp.asarray(memoryview(buf), device=cpu)
    buf[0] = 9
    assert g.numpy()[0] == 9  # in place
    same = cpu.array(np.ones(3, np.float32))
    assert gp.asarray(same) is same


def test_dlpack_device_of_each_backend(device):
    g = device.empty(4, np.float32)
    kind, _ = g.__dlpack_device__()
    if device.info.backend == "cpu":
        assert kind == D.CPU
    else:
        assert kind in (D.CPU, D.OPENCL, D.CUDA, D.CUDA_HOST, D.METAL)


def test_no_dlpack_at_all(cpu):
    with pytest.raises(TypeError, match="does not speak DLPack"):
        gp.from_dlpack([1, 2, 3], device=cpu)


def test_a_device_gpuport_does_not_open(cpu):
    class Rocm:
        def __dlpack_device__(self):
            return (D.ROCM, 0)

        def __dlpack__(self, **kw):
            raise AssertionError("not asked for a capsule")

    with pytest.raises(BufferError, match="ROCm device, which gpuport does not open"):
        gp.from_dlpack(Rocm())


def test_capsule_layout_matches_dlpack_h():
    # offsets of dlpack.h (x86-64 and arm64 alike)
    assert D.DLTensor.byte_offset.offset == 40 and D.DLTensor.data.offset == 0
    assert D.DLManagedTensorVersioned.dl_tensor.offset == 32
    assert D.DLManagedTensor.deleter.offset == 56
    assert sys.maxsize > 2**32
