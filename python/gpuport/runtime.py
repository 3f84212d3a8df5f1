"""The portable runtime from Python: devices, the selection record, buffers and arrays, programs in
the kernel dialect, kernel launches checked against the kernel's signature, queues and events.

Every failing C call raises :class:`GpuportError` carrying ``gp_last_error()``'s message.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native as N

BACKENDS = ("cuda", "metal", "opencl", "cpu")
BUFFER_KINDS = {"device": 0, "pinned": 1, "shared": 2}
ARG_KINDS = ("buffer", "const_buffer", "value", "dyn_shared")

# Dialect type names -> numpy dtypes (buffers' elements and scalar values).
_DTYPES: Dict[str, np.dtype] = {
    name: np.dtype(dt)
    for name, dt in {
        "float": np.float32,
        "double": np.float64,
        "int": np.int32,
        "int32_t": np.int32,
        "unsigned": np.uint32,
        "uint": np.uint32,
        "unsigned int": np.uint32,
        "uint32_t": np.uint32,
        "int64_t": np.int64,
        "long long": np.int64,
        "uint64_t": np.uint64,
        "int16_t": np.int16,
        "short": np.int16,
        "uint16_t": np.uint16,
        "int8_t": np.int8,
        "char": np.int8,
        "uint8_t": np.uint8,
        "unsigned char": np.uint8,
        "gp_half": np.float16,
        "half": np.float16,
    }.items()
}


class GpuportError(RuntimeError):
    """A gpuport call failed. ``status`` is the C status name, ``message`` what to do about it."""

    def __init__(self, status: str, message: str):
        super().__init__(f"{status}: {message}" if message else status)
        self.status = status
        self.message = message


def _check(status: int) -> None:
    if status != 0:
        msg = (N.lib.gp_last_error() or b"").decode("utf-8", "replace")
        name = (N.lib.gp_status_name(status) or b"GP_ERR_UNKNOWN").decode()
        raise GpuportError(name, msg)


def version() -> str:
    """The version of the libgpuport in use."""
    return N.lib.gp_version_string().decode()


@dataclass(frozen=True)
class DeviceInfo:
    """What a device is and what it can do (``gp_device_info``)."""

    backend: str
    index: int
    spec: str
    name: str
    vendor: str
    driver_version: str
    arch: str
    total_memory: int
    max_shared_memory: int
    max_buffer_size: int
    compute_units: int
    max_group_size: int
    max_group_dims: Tuple[int, int, int]
    simd_width: int
    compute_capability: Optional[Tuple[int, int]]
    unified_memory: bool
    fp64: bool
    fp16: bool
    simd_group_width: int
    clock_mhz: int  # what the driver says of the hardware: 0 where the backend does not know
    memory_clock_mhz: int
    memory_bus_width: int
    l2_cache_kib: int
    pci_bus_id: Optional[str]  # "0000:3b:00.0"

    @staticmethod
    def _from_c(c: N.DeviceInfoC) -> "DeviceInfo":
        cc = (c.compute_capability_major, c.compute_capability_minor)
        return DeviceInfo(
            backend=N.lib.gp_backend_name(c.backend).decode(),
            index=c.index,
            spec=c.spec.decode(),
            name=c.name.decode("utf-8", "replace"),
            vendor=c.vendor.decode("utf-8", "replace"),
            driver_version=c.driver_version.decode("utf-8", "replace"),
            arch=c.arch.decode("utf-8", "replace"),
            total_memory=c.total_memory,
            max_shared_memory=c.max_shared_memory,
            max_buffer_size=c.max_buffer_size,
            compute_units=c.compute_units,
            max_group_size=c.max_group_size,
            max_group_dims=tuple(c.max_group_dims),  # type: ignore[arg-type]
            simd_width=c.simd_width,
            compute_capability=cc if cc[0] else None,
            unified_memory=bool(c.unified_memory),
            fp64=bool(c.fp64),
            fp16=bool(c.fp16),
            simd_group_width=c.simd_group_width,
            clock_mhz=c.clock_mhz,
            memory_clock_mhz=c.memory_clock_mhz,
            memory_bus_width=c.memory_bus_width,
            l2_cache_kib=c.l2_cache_kib,
            pci_bus_id="%04x:%02x:%02x.%x"
            % (c.pci_bus_id >> 16, c.pci_bus_id >> 8 & 0xFF, c.pci_bus_id >> 3 & 0x1F, c.pci_bus_id & 7)
            if c.pci_bus_id
            else None,
        )


@dataclass(frozen=True)
class Selection:
    """One line of the selection record: a backend, chosen or why not."""

    backend: str
    outcome: str
    code: int
    device_index: Optional[int]
    device_count: int
    detail: str

    @staticmethod
    def _from_c(e: N.SelectionEntry) -> "Selection":
        return Selection(
            backend=N.lib.gp_backend_name(e.backend).decode(),
            outcome=N.lib.gp_select_outcome_name(e.outcome).decode(),
            code=e.code,
            device_index=e.device_index if e.device_index >= 0 else None,
            device_count=e.device_count,
            detail=e.detail.decode("utf-8", "replace"),
        )


def devices() -> List[DeviceInfo]:
    """Every device of every backend on this machine, without opening them."""
    n = N.u32()
    _check(N.lib.gp_device_count(ctypes.byref(n)))
    out = []
    for i in range(n.value):
        c = N.DeviceInfoC()
        _check(N.lib.gp_device_enumerate(i, ctypes.byref(c)))
        out.append(DeviceInfo._from_c(c))
    return out


def probe(backend: str) -> Selection:
    """What probing one backend found in this process."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    e = N.SelectionEntry()
    _check(N.lib.gp_backend_probe(BACKENDS.index(backend), ctypes.byref(e)))
    return Selection._from_c(e)


class Device:
    """An opened device. ``Device("auto")`` picks the best one and records why."""

    def __init__(self, spec: str = "auto"):
        h = N.vp()
        _check(N.lib.gp_device_open(spec.encode(), ctypes.byref(h)))
        self._h = h
        c = N.DeviceInfoC()
        _check(N.lib.gp_device_get_info(self._h, ctypes.byref(c)))
        self.info = DeviceInfo._from_c(c)

    def __repr__(self) -> str:
        return f"<gpuport.Device {self.info.spec} {self.info.name!r}>"

    def close(self) -> None:
        if getattr(self, "_h", None):
            N.lib.gp_device_release(self._h)
            self._h = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self) -> "Device":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def selection(self) -> List[Selection]:
        """The selection record of this open, cuda -> metal -> opencl -> cpu."""
        entries = (N.SelectionEntry * len(BACKENDS))()
        count = N.u32()
        _check(N.lib.gp_device_selection(self._h, entries, len(BACKENDS), ctypes.byref(count)))
        return [Selection._from_c(entries[i]) for i in range(count.value)]

    @property
    def selection_text(self) -> str:
        needed = N.size_t()
        buf = ctypes.create_string_buffer(4096)
        _check(N.lib.gp_device_selection_text(self._h, buf, len(buf), ctypes.byref(needed)))
        if needed.value > len(buf):
            buf = ctypes.create_string_buffer(needed.value)
            _check(N.lib.gp_device_selection_text(self._h, buf, len(buf), None))
        return buf.value.decode("utf-8", "replace")

    def synchronize(self) -> None:
        _check(N.lib.gp_device_synchronize(self._h))
        if getattr(self, "_default_queue", None) is not None:
            self._default_queue._keep.clear()

    # -- memory
    def buffer(self, nbytes: int, kind: str = "device") -> "Buffer":
        return Buffer(self, nbytes, kind)

    def array(self, data: Any, dtype: Any = None, kind: Optional[str] = None) -> "Array":
        """A device array holding a copy of ``data`` (anything numpy accepts). ``kind`` defaults to
        "shared" on unified-memory devices (host and device then use the same memory)."""
        host = np.ascontiguousarray(np.asarray(data, dtype=dtype))
        arr = Array.empty(self, host.shape, host.dtype, kind)
        arr.write(host)
        return arr

    def empty(self, shape: Union[int, Sequence[int]], dtype: Any = np.float32,
              kind: Optional[str] = None) -> "Array":
        return Array.empty(self, shape, dtype, kind)

    # -- code
    def program(self, source: str, defines: Optional[Mapping[str, Any]] = None,
                name: str = "kernel.gpk", fast_math: bool = False, cache: bool = True) -> "Program":
        return Program(self, source, defines, name, fast_math, cache)

    def builtin_program(self, name: str) -> "Program":
        return Program._builtin(self, name)

    # -- ordering
    def queue(self) -> "Queue":
        return Queue(self)

    def default_queue(self) -> "Queue":
        """The device's default queue (the one blocking calls and launches without a queue use)."""
        if getattr(self, "_default_queue", None) is None:
            q = N.vp()
            _check(N.lib.gp_device_queue(self._h, ctypes.byref(q)))
            self._default_queue = Queue(self, q)
        return self._default_queue

    def record(self) -> "Event":
        """An event at the current end of the default queue."""
        q = N.vp()
        _check(N.lib.gp_device_queue(self._h, ctypes.byref(q)))
        h = N.vp()
        _check(N.lib.gp_event_record(q, ctypes.byref(h)))
        return Event(h, self)


class Buffer:
    """Raw bytes on (or visible to) a device."""

    def __init__(self, device: Device, nbytes: int, kind: str = "device"):
        if kind not in BUFFER_KINDS:
            raise ValueError(f"unknown buffer kind {kind!r}; expected one of {', '.join(BUFFER_KINDS)}")
        if nbytes <= 0:
            raise ValueError("a buffer needs at least one byte")
        h = N.vp()
        _check(N.lib.gp_buffer_create(device._h, BUFFER_KINDS[kind], nbytes, ctypes.byref(h)))
        self._h = h
        self.device = device
        self.nbytes = nbytes
        self.kind = kind

    def release(self) -> None:
        if getattr(self, "_h", None):
            N.lib.gp_buffer_release(self._h)
            self._h = None

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass

    def write(self, data: Any, offset: int = 0) -> None:
        mv = memoryview(np.ascontiguousarray(data)).cast("B")
        src = (ctypes.c_char * len(mv)).from_buffer_copy(mv) if mv.readonly else \
            (ctypes.c_char * len(mv)).from_buffer(mv)
        _check(N.lib.gp_buffer_write(self._h, offset, ctypes.cast(src, N.vp), len(mv)))

    def read_into(self, out: np.ndarray, offset: int = 0) -> None:
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("read_into needs a writable C-contiguous array")
        _check(N.lib.gp_buffer_read(self._h, offset, out.ctypes.data, out.nbytes))

    def read(self, nbytes: Optional[int] = None, offset: int = 0) -> bytes:
        n = self.nbytes - offset if nbytes is None else nbytes
        out = np.empty(n, dtype=np.uint8)
        self.read_into(out, offset)
        return out.tobytes()

    def fill(self, pattern: bytes, offset: int = 0, nbytes: Optional[int] = None) -> None:
        n = self.nbytes - offset if nbytes is None else nbytes
        p = ctypes.create_string_buffer(pattern, len(pattern))
        _check(N.lib.gp_buffer_fill(self._h, offset, ctypes.cast(p, N.vp), len(pattern), n))

    def copy_from(self, src: "Buffer", nbytes: Optional[int] = None, dst_offset: int = 0,
                  src_offset: int = 0) -> None:
        n = min(self.nbytes, src.nbytes) if nbytes is None else nbytes
        _check(N.lib.gp_buffer_copy(self._h, dst_offset, src._h, src_offset, n))

    def write_async(self, data: Any, queue: Optional["Queue"] = None, offset: int = 0) -> None:
        """Enqueues a copy of ``data`` into the buffer and returns at once. The host data is kept
        alive by the queue until :meth:`Queue.finish` (or the device's default queue until
        :meth:`Device.synchronize` on it)."""
        host = np.ascontiguousarray(data)
        q = queue if queue is not None else self.device.default_queue()
        _check(N.lib.gp_buffer_write_async(q._h, self._h, offset, host.ctypes.data, host.nbytes))
        q._keep.append(host)

    def read_async(self, out: np.ndarray, queue: Optional["Queue"] = None, offset: int = 0) -> None:
        """Enqueues a copy into ``out`` (writable, C-contiguous); valid after the queue finished."""
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("read_async needs a writable C-contiguous array")
        q = queue if queue is not None else self.device.default_queue()
        _check(N.lib.gp_buffer_read_async(q._h, self._h, offset, out.ctypes.data, out.nbytes))
        q._keep.append(out)

    def map(self) -> memoryview:
        """Host view of a pinned or shared buffer (zero copy). Call :meth:`unmap` before the
        device uses the buffer again."""
        p = N.vp()
        _check(N.lib.gp_buffer_map(self._h, ctypes.byref(p)))
        return memoryview((ctypes.c_char * self.nbytes).from_address(p.value)).cast("B")

    def unmap(self) -> None:
        _check(N.lib.gp_buffer_unmap(self._h))


class Array:
    """A typed, shaped buffer: numpy in, numpy out."""

    def __init__(self, buffer: Buffer, shape: Tuple[int, ...], dtype: np.dtype):
        self.buffer = buffer
        self.shape = shape
        self.dtype = dtype

    @staticmethod
    def empty(device: Device, shape: Union[int, Sequence[int]], dtype: Any = np.float32,
              kind: Optional[str] = None) -> "Array":
        shp = (int(shape),) if np.isscalar(shape) else tuple(int(s) for s in shape)  # type: ignore[arg-type]
        dt = np.dtype(dtype)
        if kind is None:
            kind = "shared" if device.info.unified_memory else "device"
        nbytes = max(1, int(np.prod(shp, dtype=np.int64)) * dt.itemsize)
        return Array(Buffer(device, nbytes, kind), shp, dt)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def write(self, data: Any) -> None:
        host = np.ascontiguousarray(np.asarray(data, dtype=self.dtype))
        if host.size != self.size:
            raise ValueError(f"expected {self.size} elements, got {host.size}")
        self.buffer.write(host)

    def numpy(self) -> np.ndarray:
        """A host copy of the array."""
        out = np.empty(self.shape, dtype=self.dtype)
        if out.nbytes:
            self.buffer.read_into(out)
        return out

    def view(self) -> np.ndarray:
        """A zero-copy numpy view of a shared or pinned array (unified memory, CPU). The view is
        valid until :meth:`unview`; the device must not use the array meanwhile."""
        mv = self.buffer.map()
        return np.frombuffer(mv, dtype=self.dtype, count=self.size).reshape(self.shape)

    def unview(self) -> None:
        self.buffer.unmap()

    def __repr__(self) -> str:
        return f"<gpuport.Array shape={self.shape} dtype={self.dtype} on {self.buffer.device.info.spec}>"


@dataclass(frozen=True)
class ArgInfo:
    """One parameter of a kernel, as its GP_KERNEL declaration gives it."""

    kind: str
    type_name: str
    name: str
    size: int

    @property
    def dtype(self) -> Optional[np.dtype]:
        return _DTYPES.get(self.type_name)


class Shared:
    """A launch argument for a GP_DYN_SHARED parameter: the bytes of dynamic shared memory."""

    def __init__(self, nbytes: int):
        self.nbytes = int(nbytes)


class Program:
    """Dialect source built for one device."""

    def __init__(self, device: Device, source: str, defines: Optional[Mapping[str, Any]],
                 name: str, fast_math: bool, cache: bool):
        self.device = device
        raw = source.encode()
        defs = [f"{k}={v}" if v is not None else str(k) for k, v in (defines or {}).items()]
        arr = (ctypes.c_char_p * max(1, len(defs)))(*[d.encode() for d in defs])
        opts = N.BuildOptions(ctypes.sizeof(N.BuildOptions), (1 if fast_math else 0) | (0 if cache else 2),
                              name.encode(), arr, len(defs), 0)
        h = N.vp()
        _check(N.lib.gp_program_create(device._h, raw, len(raw), ctypes.byref(opts), ctypes.byref(h)))
        self._h = h

    @classmethod
    def _builtin(cls, device: Device, name: str) -> "Program":
        self = cls.__new__(cls)
        self.device = device
        h = N.vp()
        _check(N.lib.gp_program_create_builtin(device._h, name.encode(), ctypes.byref(h)))
        self._h = h
        return self

    def __del__(self) -> None:
        try:
            if getattr(self, "_h", None):
                N.lib.gp_program_release(self._h)
                self._h = None
        except Exception:
            pass

    @property
    def kernel_names(self) -> List[str]:
        n = N.u32()
        _check(N.lib.gp_program_kernel_count(self._h, ctypes.byref(n)))
        names = []
        for i in range(n.value):
            p = ctypes.c_char_p()
            _check(N.lib.gp_program_kernel_name(self._h, i, ctypes.byref(p)))
            names.append((p.value or b"").decode())
        return names

    def kernel(self, name: str) -> "Kernel":
        return Kernel(self, name)

    def __getattr__(self, name: str) -> "Kernel":
        if name.startswith("_"):
            raise AttributeError(name)
        return Kernel(self, name)


def builtin_programs() -> List[str]:
    return [N.lib.gp_builtin_program_name(i).decode() for i in range(N.lib.gp_builtin_program_count())]


def _as_sizes(v: Union[int, Sequence[int]]) -> Tuple[int, ...]:
    t = (int(v),) if np.isscalar(v) else tuple(int(x) for x in v)  # type: ignore[arg-type]
    if not 1 <= len(t) <= 3:
        raise ValueError("a grid has 1, 2 or 3 dimensions")
    return t


class Kernel:
    """One kernel of a program. Call it with the grid and the arguments:
    ``k(n, y, x, np.float32(2.0), n)`` or ``k.launch(grid=(w, h), group=(16, 16), args=[...])``.
    numpy arrays passed for buffer parameters are copied in, and for GP_BUF parameters copied back
    after the kernel finished."""

    def __init__(self, program: Program, name: str):
        h = N.vp()
        _check(N.lib.gp_kernel_create(program._h, name.encode(), ctypes.byref(h)))
        self._h = h
        self.program = program
        self.name = name
        n = N.u32()
        _check(N.lib.gp_kernel_arg_count(self._h, ctypes.byref(n)))
        sig = []
        for i in range(n.value):
            c = N.ArgInfoC()
            _check(N.lib.gp_kernel_arg_info(self._h, i, ctypes.byref(c)))
            sig.append(ArgInfo(ARG_KINDS[c.kind], c.type_name.decode(), c.name.decode(), c.size))
        self.signature: List[ArgInfo] = sig

    def __del__(self) -> None:
        try:
            if getattr(self, "_h", None):
                N.lib.gp_kernel_release(self._h)
                self._h = None
        except Exception:
            pass

    @property
    def max_group_size(self) -> int:
        n = N.u32()
        _check(N.lib.gp_kernel_max_group_size(self._h, ctypes.byref(n)))
        return n.value

    def __call__(self, grid: Union[int, Sequence[int]], *args: Any,
                 group: Optional[Union[int, Sequence[int]]] = None, queue: Optional["Queue"] = None) -> None:
        self.launch(grid, args, group=group, queue=queue)

    def _value(self, p: ArgInfo, v: Any) -> Tuple[Any, int]:
        dt = p.dtype
        if dt is None:
            raise TypeError(f"{self.name}: parameter '{p.name}' has type '{p.type_name}', which "
                            "Python cannot convert; pass a bytes object of its exact size")
        if isinstance(v, np.ndarray) and v.shape != ():
            raise TypeError(f"{self.name}: parameter '{p.name}' is a {p.type_name} value, got an array")
        if isinstance(v, (float, np.floating)) and dt.kind in "iu":
            raise TypeError(f"{self.name}: parameter '{p.name}' is {p.type_name}, got a float ({v!r})")
        arr = np.array(v, dtype=dt)
        if dt.kind in "iu" and arr.item() != v:
            raise OverflowError(f"{self.name}: {v!r} does not fit parameter '{p.name}' ({p.type_name})")
        buf = ctypes.create_string_buffer(arr.tobytes(), dt.itemsize)
        return buf, dt.itemsize

    def launch(self, grid: Union[int, Sequence[int]], args: Iterable[Any],
               group: Optional[Union[int, Sequence[int]]] = None, queue: Optional["Queue"] = None) -> None:
        args = list(args)
        if len(args) != len(self.signature):
            names = ", ".join(f"{p.kind} {p.type_name} {p.name}" for p in self.signature)
            raise TypeError(f"{self.name} takes {len(self.signature)} arguments ({names}), got {len(args)}")
        dev = self.program.device
        cargs = (N.ArgC * max(1, len(args)))()
        keep: List[Any] = []  # ctypes buffers alive until the C call returns
        temps: List[Array] = []  # device copies of numpy arrays: alive until the kernel finished
        copy_back: List[Tuple[np.ndarray, Array]] = []
        for i, (p, a) in enumerate(zip(self.signature, args)):
            if p.kind in ("buffer", "const_buffer"):
                if isinstance(a, np.ndarray):
                    if p.dtype is not None and a.dtype != p.dtype:
                        raise TypeError(f"{self.name}: parameter '{p.name}' holds {p.type_name} "
                                        f"({p.dtype}), got an array of {a.dtype}")
                    tmp = dev.array(a)
                    temps.append(tmp)
                    if p.kind == "buffer":
                        if not a.flags.c_contiguous or not a.flags.writeable:
                            raise ValueError(f"{self.name}: array for '{p.name}' must be writable and C-contiguous")
                        copy_back.append((a, tmp))
                    a = tmp
                if isinstance(a, Array):
                    if p.dtype is not None and a.dtype != p.dtype:
                        raise TypeError(f"{self.name}: parameter '{p.name}' holds {p.type_name} "
                                        f"({p.dtype}), got a gpuport.Array of {a.dtype}")
                    a = a.buffer
                if not isinstance(a, Buffer):
                    raise TypeError(f"{self.name}: parameter '{p.name}' is a buffer; pass a "
                                    f"gpuport.Array, gpuport.Buffer or numpy array, not {type(a).__name__}")
                cargs[i].kind = 0
                cargs[i].buffer = a._h
            elif p.kind == "value":
                if isinstance(a, (bytes, bytearray)):
                    buf = ctypes.create_string_buffer(bytes(a), len(a))
                    size = len(a)
                else:
                    buf, size = self._value(p, a)
                keep.append(buf)
                cargs[i].kind = 2
                cargs[i].value = ctypes.cast(buf, N.vp)
                cargs[i].size = size
            else:
                if not isinstance(a, Shared):
                    raise TypeError(f"{self.name}: parameter '{p.name}' is dynamic shared memory; "
                                    "pass gpuport.Shared(nbytes)")
                cargs[i].kind = 3
                cargs[i].size = a.nbytes
        g = _as_sizes(grid)
        gsz = (N.size_t * len(g))(*g)
        grp = None
        if group is not None:
            gg = _as_sizes(group)
            if len(gg) != len(g):
                raise ValueError("the group needs as many dimensions as the grid")
            grp = (N.size_t * len(gg))(*gg)
        q = queue._h if queue is not None else None
        _check(N.lib.gp_kernel_launch(q, self._h, len(g), gsz, grp, len(args), cargs))
        if temps:
            # Device copies of host arrays must outlive the kernel: finish before returning.
            if queue is not None:
                queue.finish()
            else:
                dev.synchronize()
        for host, tmp in copy_back:
            tmp.buffer.read_into(host)


class Queue:
    """An in-order stream of commands on one device."""

    def __init__(self, device: Device, handle: Optional[N.vp] = None):
        self.device = device
        self._keep: List[Any] = []  # host memory of async copies, until finish()
        self._owned = handle is None
        if handle is None:
            handle = N.vp()
            _check(N.lib.gp_queue_create(device._h, ctypes.byref(handle)))
        self._h = handle

    def __del__(self) -> None:
        try:
            if getattr(self, "_h", None) and self._owned:
                N.lib.gp_queue_release(self._h)  # waits for its commands
            self._h = None
        except Exception:
            pass

    def finish(self) -> None:
        _check(N.lib.gp_queue_finish(self._h))
        self._keep.clear()

    def record(self) -> "Event":
        h = N.vp()
        _check(N.lib.gp_event_record(self._h, ctypes.byref(h)))
        return Event(h, self.device)

    def wait(self, event: "Event") -> None:
        """Later commands of this queue wait for ``event`` (the host does not block)."""
        _check(N.lib.gp_queue_wait_event(self._h, event._h))


class Event:
    """A point in a queue, with its completion time."""

    def __init__(self, handle: N.vp, device: Device):
        self._h = handle
        self.device = device

    def __del__(self) -> None:
        try:
            if getattr(self, "_h", None):
                N.lib.gp_event_release(self._h)
                self._h = None
        except Exception:
            pass

    def wait(self) -> None:
        _check(N.lib.gp_event_wait(self._h))

    def elapsed_ms(self, end: "Event") -> float:
        """Milliseconds from this event to ``end``."""
        ms = ctypes.c_double()
        _check(N.lib.gp_event_elapsed_ms(self._h, end._h, ctypes.byref(ms)))
        return ms.value


def cache_dir() -> str:
    needed = N.size_t()
    buf = ctypes.create_string_buffer(4096)
    _check(N.lib.gp_cache_get_dir(buf, len(buf), ctypes.byref(needed)))
    return buf.value.decode()


def set_cache_dir(path: Optional[str]) -> None:
    _check(N.lib.gp_cache_set_dir(path.encode() if path else None))


def cache_stats() -> Tuple[int, int]:
    """(entries, bytes) of the kernel cache on disk."""
    e, b = N.u64(), N.u64()
    _check(N.lib.gp_cache_stats(ctypes.byref(e), ctypes.byref(b)))
    return e.value, b.value


def clear_cache() -> None:
    _check(N.lib.gp_cache_clear())
