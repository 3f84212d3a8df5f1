"""The portable runtime from Python: devices, the selection record, buffers and arrays, programs in
the kernel dialect, kernel launches checked against the kernel's signature, queues and events.

Arrays speak the array protocols of the Python world: ``__array__`` (numpy), ``__dlpack__`` and
``__dlpack_device__`` (DLPack), ``__cuda_array_interface__`` (CUDA arrays); ``interop`` takes
other libraries' arrays in. Every failing C call raises a :class:`GpuportError` (a subclass per
status, see ``errors``) carrying ``gp_last_error()``'s message.
"""

from __future__ import annotations

import ctypes
import math
import os
import numbers
import operator
import struct
import sys
import time
import weakref
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _dlpack as D
from . import _native as N
from .errors import CheckError, CheckReport, GpuportError, UnsupportedError, error_for

BACKENDS = ("cuda", "metal", "opencl", "cpu")
BUFFER_KINDS = {"device": 0, "pinned": 1, "shared": 2}
_KIND_NAMES = {v: k for k, v in BUFFER_KINDS.items()}
ARG_KINDS = ("buffer", "const_buffer", "value", "dyn_shared")
MEMORY_HOST, MEMORY_NATIVE = 0, 1  # gp_memory_kind

# Dialect type names -> numpy dtypes (buffers' elements and scalar values), as the C library's
# signature parser knows them (src/runtime/signature.c).
_DTYPES: Dict[str, np.dtype] = {
    name: np.dtype(dt)
    for dt, names in {
        np.float32: ("float",),
        np.float64: ("double",),
        np.float16: ("gp_half", "half"),
        np.int8: ("char", "signed char", "int8_t"),
        np.uint8: ("unsigned char", "uchar", "uint8_t"),
        np.int16: ("short", "int16_t"),
        np.uint16: ("unsigned short", "ushort", "uint16_t"),
        np.int32: ("int", "int32_t"),
        np.uint32: ("unsigned", "unsigned int", "uint", "uint32_t"),
        np.int64: ("int64_t", "long long"),
        np.uint64: ("uint64_t", "unsigned long long", "ulong"),
    }.items()
    for name in names
}
# Vector types: `lanes` scalars of a base type.
_VECTORS: Dict[str, Tuple[np.dtype, int]] = {
    "gp_float2": (np.dtype(np.float32), 2),
    "gp_float4": (np.dtype(np.float32), 4),
    "gp_int2": (np.dtype(np.int32), 2),
    "gp_int4": (np.dtype(np.int32), 4),
}
# struct formats of the scalar types, by numpy type character
_PACK = {"f": "f", "d": "d", "e": "e", "b": "b", "B": "B", "h": "h", "H": "H", "i": "i",
         "I": "I", "l": "q", "L": "Q", "q": "q", "Q": "Q"}


def _check(status: int) -> None:
    if status != 0:
        msg = (N.lib.gp_last_error() or b"").decode("utf-8", "replace")
        name = (N.lib.gp_status_name(status) or b"GP_ERR_UNKNOWN").decode()
        if name == "GP_ERR_INTERRUPTED":
            raise KeyboardInterrupt(msg)
        if name == "GP_ERR_CHECK":
            reports, omitted = _reports()
            raise CheckError(name, msg, reports, omitted)
        raise error_for(name, msg)


# the checks a checked run can make (docs/check.md), by name, as gp_check_parse reads them
CHECKS = ("memcheck", "racecheck", "synccheck", "initcheck")


def _interrupt_on_ctrl_c() -> None:
    """A CPU launch runs inside its C call, where Python's own SIGINT handler only takes note:
    libgpuport's handler, put in front of it, stops the launch between work-groups
    (``gp_interrupt``), and Python's then raises KeyboardInterrupt as usual."""
    import signal
    import threading

    sigint = getattr(signal, "SIGINT", None)
    if (sigint is None or sys.platform == "win32"
            or threading.current_thread() is not threading.main_thread()):
        return
    if callable(signal.getsignal(sigint)):  # Python's C handler is the one installed
        N.lib.gp_interrupt_on_signal(int(sigint))


_interrupt_on_ctrl_c()


def _poll(event: N.vp, device: "Device") -> None:
    """Waits for an event in slices of 50 ms (``gp_event_wait_for``), so that Ctrl-C stops the
    wait with KeyboardInterrupt between two slices: one blocking C call would hold the
    interpreter until the device finished."""
    done = ctypes.c_int()
    ref = ctypes.byref(done)
    wait_for = N.lib.gp_event_wait_for
    try:
        while True:
            _check(wait_for(event, 50, ref))  # Python's signal handlers run when it returns
            if done.value:
                return
    except KeyboardInterrupt:
        # The device still runs the work: releasing the device or a queue would wait for it, so
        # they are left to the end of the process (buffers, programs and kernels go as usual).
        device._interrupted = True
        raise


def _drain(queue_h: N.vp, device: "Device") -> None:
    """Polls until the work enqueued so far on a queue finished (Ctrl-C stops it)."""
    ev = N.vp()
    _check(N.lib.gp_event_record(queue_h, ctypes.byref(ev)))
    try:
        _poll(ev, device)
    finally:
        N.lib.gp_event_release(ev)


def _check_bits(checks: Union[None, bool, str, Sequence[str]], what: str) -> int:
    """GP_CHECK_* bits of ``checks``: True or "all" (every check), False, None or "none" (no
    check), a comma list "memcheck,racecheck", or a sequence of check names."""
    if checks is None or checks is False:
        return 0
    if checks is True:
        checks = "all"
    if not isinstance(checks, str):
        try:
            names = list(checks)
        except TypeError:
            raise TypeError(f"{what} is True, \"all\", a comma list or a list of check names "
                            f"({', '.join(CHECKS)}), not {checks!r}") from None
        if not all(isinstance(n, str) for n in names):
            raise TypeError(f"{what}: check names are strings ({', '.join(CHECKS)}), got {checks!r}")
        checks = ",".join(names) if names else "none"
    bits = ctypes.c_uint32()
    _check(N.lib.gp_check_parse(checks.encode(), ctypes.byref(bits)))
    return bits.value


def _check_names(bits: int) -> Tuple[str, ...]:
    return tuple(n for i, n in enumerate(CHECKS) if bits & (1 << i))


def _triple(v: Any) -> Optional[Tuple[int, int, int]]:
    t = (int(v[0]), int(v[1]), int(v[2]))
    return None if t[0] < 0 else t


def text_of(b: bytes) -> str:
    return b.decode("utf-8", "replace")


# A report of a kernel built from CUDA source, in CUDA's words (as `gpuport run FILE.cu` prints).
_CUDA_WORDS = (("work-items of different groups", "threads of different blocks"),
               ("work-items", "threads"), ("work-item", "thread"), ("of group", "of block"),
               ("groups", "blocks"), ("the group", "the block"), ("gp_barrier()", "__syncthreads()"),
               ("SIMD groups", "warps"), ("SIMD group", "warp"))


def _cuda_words(t: str) -> str:
    out, i = [], 0
    while i < len(t):
        for a, b in _CUDA_WORDS:
            if t.startswith(a, i):
                out.append(b)
                i += len(a)
                break
        else:
            out.append(t[i])
            i += 1
    return "".join(out)


def _reports() -> Tuple[List[CheckReport], int]:
    """The reports of the last CPU launch made on this thread, and how many more were dropped."""
    n = ctypes.c_uint32()
    omitted = ctypes.c_uint64()
    if N.lib.gp_check_report_count(ctypes.byref(n), ctypes.byref(omitted)) != 0:
        return [], 0
    out: List[CheckReport] = []
    for i in range(n.value):
        r = N.CheckReportC()
        if N.lib.gp_check_report_get(i, ctypes.byref(r)) != 0:
            break
        need = N.size_t()
        buf = ctypes.create_string_buffer(2048)
        N.lib.gp_check_report_format(ctypes.byref(r), buf, len(buf), ctypes.byref(need))
        if need.value > len(buf):
            buf = ctypes.create_string_buffer(need.value)
            N.lib.gp_check_report_format(ctypes.byref(r), buf, len(buf), None)

        cuda = text_of(r.file).endswith((".cu", ".cuh"))

        def text(b: bytes) -> str:
            t = b.decode("utf-8", "replace")
            return _cuda_words(t) if cuda else t

        out.append(CheckReport(
            check=text(N.lib.gp_check_name(r.check) or b"unknown"), file=text(r.file),
            line=r.line, column=r.column, count=r.count, kernel=text(r.kernel),
            message=text(r.message), group=_triple(r.group), local=_triple(r.local),
            other_line=r.other_line or None, other_column=r.other_column or None,
            other_group=_triple(r.other_group), other_local=_triple(r.other_local),
            text=text(buf.value)))
    return out, omitted.value


def check_reports() -> List[CheckReport]:
    """The reports of the last CPU launch made on this thread (a :class:`CheckError` carries
    them too): empty after a clean launch."""
    return _reports()[0]


def dialect_prelude() -> str:
    """The dialect prelude (``gpuport/kernel.h`` as built into libgpuport), which every backend
    puts in front of a kernel source: for tools that check a source against a compiler."""
    n = N.size_t()
    raw = N.lib.gp_dialect_prelude(ctypes.byref(n))
    return (raw or b"").decode("utf-8", "replace")


def _whole(v: Any, what: str) -> int:
    """``v`` as an int, refusing what is not a whole number (a float, a string, a bool)."""
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{what} must be a whole number, not a bool ({v!r})")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{what} must be a whole number, got {type(v).__name__} ({v!r})") from None


def _shape(shape: Union[int, Sequence[int]]) -> Tuple[int, ...]:
    if isinstance(shape, (str, bytes)):
        raise TypeError(f"a shape is a whole number or a sequence of them, got {shape!r}")
    dims = (shape,) if np.ndim(shape) == 0 else tuple(shape)  # type: ignore[arg-type]
    out = tuple(_whole(n, f"dimension {i} of shape {shape!r}") for i, n in enumerate(dims))
    for i, n in enumerate(out):
        if n < 0:
            raise ValueError(f"dimension {i} of shape {shape!r} is negative ({n}); sizes are 0 or more")
    return out


_MAX_BYTES = (1 << 63) - 1  # what a size_t of any 64-bit machine holds, with room to add


def _nbytes(nbytes: Any, what: str = "a buffer") -> int:
    n = _whole(nbytes, f"{what}'s size")
    if n <= 0:
        raise ValueError(f"{what} needs at least one byte, got {n}")
    if n > _MAX_BYTES:
        raise OverflowError(f"{what} of {n} bytes is larger than any device's memory")
    return n


def _array_dtype(dtype: Any) -> np.dtype:
    """A dtype an array of gpuport may hold: numbers and bools, never objects or strings."""
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise TypeError(f"{dtype!r} is not a data type ({e})") from None
    if dt.hasobject or dt.kind not in "biufc":
        raise TypeError(f"gpuport arrays hold numbers (bool, int, uint, float, complex), not "
                        f"{dt} ({'Python objects: pointers would be copied to the device' if dt.hasobject else 'not a number'})")
    return dt


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
    atomic64: bool = False  # 64-bit atomics on global memory (GP_REQUIRES_ATOMIC64)

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
            atomic64=bool(c.atomic64),
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

    def __init__(self, spec: str = "auto", check: Union[None, bool, str, Sequence[str]] = None):
        if not isinstance(spec, str):
            raise TypeError(f"a device spec is a string (\"auto\", \"cuda:1\", \"cpu\"...), got {spec!r}")
        bits = _check_bits(check, "check")
        h = N.vp()
        if bits and spec == "auto":
            spec = "cpu"  # only the CPU runs kernels checked; GPUPORT_CHECK does the same
        _check(N.lib.gp_device_open(spec.encode(), ctypes.byref(h)))
        self._h = h
        if bits:
            st = N.lib.gp_device_set_checks(h, bits)
            if st != 0:
                try:
                    _check(st)
                finally:
                    N.lib.gp_device_release(h)
                    self._h = None
        c = N.DeviceInfoC()
        _check(N.lib.gp_device_get_info(self._h, ctypes.byref(c)))
        self.info = DeviceInfo._from_c(c)
        self._foreign: Dict[int, Queue] = {}  # other libraries' streams, by handle
        self._queues: "weakref.WeakSet[Queue]" = weakref.WeakSet()  # dev.queue()'s, for synchronize
        self._wraps: Dict[int, Any] = {}  # numpy arrays' buffers, kept while they live (interop)

    def __repr__(self) -> str:
        return f"<gpuport.Device {self.info.spec} {self.info.name!r}>"

    @property
    def checks(self) -> Tuple[str, ...]:
        """The checks programs built and buffers created through this device get from now on
        (docs/check.md): ``()`` when unchecked. Set it with a name, a comma list, a list of names,
        True (all) or None/False (none); only the CPU device runs checked."""
        bits = ctypes.c_uint32()
        _check(N.lib.gp_device_get_checks(self._live(), ctypes.byref(bits)))
        return _check_names(bits.value)

    @checks.setter
    def checks(self, value: Union[None, bool, str, Sequence[str]]) -> None:
        _check(N.lib.gp_device_set_checks(self._live(), _check_bits(value, "checks")))

    def close(self) -> None:
        if getattr(self, "_h", None):
            self._foreign = {}
            wraps, self._wraps = getattr(self, "_wraps", {}), {}
            for _, _, buf in wraps.values():
                buf.release()
            if not getattr(self, "_interrupted", False):  # else it would wait (see _poll)
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

    def _live(self) -> N.vp:
        if not getattr(self, "_h", None):
            raise ValueError(f"the device {self.info.spec} is closed")
        return self._h

    @property
    def selection(self) -> List[Selection]:
        """The selection record of this open, cuda -> metal -> opencl -> cpu."""
        entries = (N.SelectionEntry * len(BACKENDS))()
        count = N.u32()
        _check(N.lib.gp_device_selection(self._live(), entries, len(BACKENDS), ctypes.byref(count)))
        return [Selection._from_c(entries[i]) for i in range(count.value)]

    @property
    def selection_text(self) -> str:
        needed = N.size_t()
        buf = ctypes.create_string_buffer(4096)
        _check(N.lib.gp_device_selection_text(self._live(), buf, len(buf), ctypes.byref(needed)))
        if needed.value > len(buf):
            buf = ctypes.create_string_buffer(needed.value)
            _check(N.lib.gp_device_selection_text(self._h, buf, len(buf), None))
        return buf.value.decode("utf-8", "replace")

    def synchronize(self) -> None:
        h = self._live()
        if self.info.backend != "cpu":  # the CPU ran every command when it was enqueued
            for q in [self.default_queue(), *self._queues]:
                if q._h:
                    _drain(q._h, self)
        _check(N.lib.gp_device_synchronize(h))
        if getattr(self, "_default_queue", None) is not None:
            self._default_queue._keep.clear()

    @property
    def host_memory_in_place(self) -> bool:
        """True where the device uses host memory in place (the CPU; OpenCL and Metal devices that
        share memory with the host): host arrays are then passed to kernels without a copy."""
        b = self.info.backend
        return b == "cpu" or (b in ("opencl", "metal") and self.info.unified_memory)

    # -- memory
    def buffer(self, nbytes: int, kind: str = "device") -> "Buffer":
        return Buffer(self, nbytes, kind)

    def array(self, data: Any, dtype: Any = None, kind: Optional[str] = None) -> "Array":
        """A device array holding a copy of ``data`` (a number, a sequence, a numpy array or
        anything with ``__array__``). ``kind`` defaults to "shared" on unified-memory devices (host
        and device then use the same memory)."""
        host = np.asarray(data, dtype=None if dtype is None else _array_dtype(dtype), order="C")
        _array_dtype(host.dtype)  # refuses objects and strings
        arr = Array.empty(self, host.shape, host.dtype, kind)
        arr.write(host)
        return arr

    def empty(self, shape: Union[int, Sequence[int]], dtype: Any = np.float32,
              kind: Optional[str] = None) -> "Array":
        return Array.empty(self, shape, dtype, kind)

    def from_dlpack(self, x: Any, *, copy: Optional[bool] = None) -> "Array":
        """``gpuport.from_dlpack(x, device=self)``."""
        from .interop import from_dlpack
        return from_dlpack(x, device=self, copy=copy)

    def asarray(self, x: Any, *, copy: Optional[bool] = None) -> "Array":
        """``gpuport.asarray(x, device=self)``."""
        from .interop import asarray
        return asarray(x, device=self, copy=copy)

    # -- code
    def program(self, source: Any, defines: Optional[Mapping[str, Any]] = None,
                name: str = "kernel.gpk", fast_math: bool = False, cache: bool = True,
                check: Union[None, bool, str, Sequence[str]] = None) -> "Program":
        """Builds dialect source for this device. ``check`` builds this program checked
        (CPU only; None: as the device says, see :attr:`checks`); reports name ``name``.

        CUDA source is taken too — a path to a ``.cu`` file (``pathlib.Path``), or the text with
        a ``name`` ending in ``.cu``: it is translated as ``gpuport run FILE.cu`` does (reports
        and errors name the ``.cu`` lines, docs/check.md); a kernel translate refuses raises
        :class:`TranslateError` with translate's reasons when it is asked for."""
        refused: Dict[str, str] = {}
        if isinstance(source, os.PathLike):
            path = os.fspath(source)
            with open(path, encoding="utf-8") as f:
                source = f.read()
            if name == "kernel.gpk":
                name = path
        if name.endswith((".cu", ".cuh")):
            source, refused = _translate_cuda(source, name, defines)
        prog = Program(self, source, defines, name, fast_math, cache, _check_bits(check, "check"))
        prog._refused = refused
        return prog

    def builtin_program(self, name: str) -> "Program":
        return Program._builtin(self, name)

    # -- ordering
    def queue(self) -> "Queue":
        q = Queue(self)
        self._queues.add(q)
        return q

    def default_queue(self) -> "Queue":
        """The device's default queue (the one blocking calls and launches without a queue use)."""
        if getattr(self, "_default_queue", None) is None:
            q = N.vp()
            _check(N.lib.gp_device_queue(self._live(), ctypes.byref(q)))
            self._default_queue = Queue(self, q)
        return self._default_queue

    def foreign_queue(self, stream: int) -> "Queue":
        """A queue over another library's CUDA stream (an integer handle: ``1`` the legacy default
        stream, ``2`` the per-thread one, else a ``cudaStream_t``), e.g.
        ``torch.cuda.current_stream().cuda_stream``: launches on it are ordered with that
        library's work. CUDA only."""
        handle = _whole(stream, "a stream handle")
        q = self._foreign.get(handle)
        if q is None:
            h = N.vp()
            _check(N.lib.gp_queue_wrap(self._live(), handle or None, ctypes.byref(h)))
            q = self._foreign[handle] = Queue(self, h, wrapped=True)
        return q

    def record(self) -> "Event":
        """An event at the current end of the default queue."""
        return self.default_queue().record()


class Buffer:
    """Raw bytes on (or visible to) a device: gpuport's own, or another library's memory used in
    place (then ``owner`` is what keeps that memory alive)."""

    def __init__(self, device: Device, nbytes: int, kind: str = "device"):
        if kind not in BUFFER_KINDS:
            raise ValueError(f"unknown buffer kind {kind!r}; expected one of {', '.join(BUFFER_KINDS)}")
        nbytes = _nbytes(nbytes)
        h = N.vp()
        _check(N.lib.gp_buffer_create(device._live(), BUFFER_KINDS[kind], nbytes, ctypes.byref(h)))
        self._h = h
        self.device = device
        self.nbytes = nbytes
        self.kind = kind
        self.owner: Any = None

    @classmethod
    def wrap(cls, device: Device, memory: int, nbytes: int, *, native: bool = False, offset: int = 0,
             owner: Any = None) -> "Buffer":
        """A buffer over ``nbytes`` of memory at ``memory`` (+ ``offset``) that gpuport did not
        allocate, used in place (``gp_buffer_wrap``): a host address, or with ``native`` the
        backend's own object (a CUDA device pointer, an ``MTLBuffer``). ``owner`` is kept until
        the buffer is released: whatever keeps the memory alive."""
        nbytes = _nbytes(nbytes)
        memory, offset = _whole(memory, "the memory's address"), _whole(offset, "the offset")
        if not 0 < memory < (1 << 64) or not 0 <= offset <= _MAX_BYTES:
            raise ValueError(f"Buffer.wrap: address {memory:#x} with offset {offset} is not memory")
        h = N.vp()
        _check(N.lib.gp_buffer_wrap(device._live(), MEMORY_NATIVE if native else MEMORY_HOST,
                                    memory, offset, nbytes, ctypes.byref(h)))
        self = cls.__new__(cls)
        self._h = h
        self.device = device
        self.nbytes = nbytes
        k = ctypes.c_int()
        N.lib.gp_buffer_kind_of(h, ctypes.byref(k))
        self.kind = _KIND_NAMES.get(k.value, "device")
        self.owner = owner
        return self

    def release(self) -> None:
        if getattr(self, "_h", None):
            N.lib.gp_buffer_release(self._h)
            self._h = None
        owner, self.owner = getattr(self, "owner", None), None
        if isinstance(owner, D.Taken):
            owner.release()  # the producer's DLPack deleter: its memory may go now

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass

    def _live(self) -> N.vp:
        if not getattr(self, "_h", None):
            raise ValueError("the buffer was released")
        return self._h

    def native(self) -> Tuple[int, int, Optional[int]]:
        """(the backend's memory object, the offset of the first byte in it, the host address
        where the host may use the memory in place, else None) — ``gp_buffer_native``."""
        native, off, host = N.vp(), N.size_t(), N.vp()
        _check(N.lib.gp_buffer_native(self._live(), ctypes.byref(native), ctypes.byref(off),
                                      ctypes.byref(host)))
        return native.value or 0, off.value, host.value

    def _range(self, offset: Any, nbytes: Any, what: str) -> Tuple[int, int]:
        off = _whole(offset, f"{what}: the offset")
        n = self.nbytes - off if nbytes is None else _whole(nbytes, f"{what}: the size")
        if off < 0 or n < 0 or off + n > self.nbytes:
            raise ValueError(f"{what}: bytes {off}..{off + n} are outside the {self.nbytes}-byte buffer")
        return off, n

    def write(self, data: Any, offset: int = 0) -> None:
        host = np.ascontiguousarray(data)
        if host.dtype.hasobject:
            raise TypeError("Buffer.write: an array of Python objects holds pointers, not data")
        off, _ = self._range(offset, host.nbytes, "Buffer.write")
        if host.nbytes:
            _check(N.lib.gp_buffer_write(self._live(), off, host.ctypes.data, host.nbytes))

    def read_into(self, out: np.ndarray, offset: int = 0) -> None:
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("read_into needs a writable C-contiguous array")
        off, _ = self._range(offset, out.nbytes, "Buffer.read_into")
        if out.nbytes:
            if self.device.info.backend != "cpu":
                _drain(self.device.default_queue()._h, self.device)  # (Ctrl-C stops the wait)
            _check(N.lib.gp_buffer_read(self._live(), off, out.ctypes.data, out.nbytes))

    def read(self, nbytes: Optional[int] = None, offset: int = 0) -> bytes:
        off, n = self._range(offset, nbytes, "Buffer.read")
        out = np.empty(n, dtype=np.uint8)
        self.read_into(out, off)
        return out.tobytes()

    def fill(self, pattern: bytes, offset: int = 0, nbytes: Optional[int] = None) -> None:
        off, n = self._range(offset, nbytes, "Buffer.fill")
        p = ctypes.create_string_buffer(bytes(pattern), len(pattern))
        _check(N.lib.gp_buffer_fill(self._live(), off, ctypes.cast(p, N.vp), len(pattern), n))

    def copy_from(self, src: "Buffer", nbytes: Optional[int] = None, dst_offset: int = 0,
                  src_offset: int = 0) -> None:
        n = min(self.nbytes, src.nbytes) if nbytes is None else nbytes
        doff, n = self._range(dst_offset, n, "Buffer.copy_from")
        soff, n = src._range(src_offset, n, "Buffer.copy_from (source)")
        _check(N.lib.gp_buffer_copy(self._live(), doff, src._live(), soff, n))

    def write_async(self, data: Any, queue: Optional["Queue"] = None, offset: int = 0) -> None:
        """Enqueues a copy of ``data`` into the buffer and returns at once. The host data is kept
        alive by the queue until :meth:`Queue.finish` (or the device's default queue until
        :meth:`Device.synchronize` on it)."""
        host = np.ascontiguousarray(data)
        off, _ = self._range(offset, host.nbytes, "Buffer.write_async")
        q = queue if queue is not None else self.device.default_queue()
        _check(N.lib.gp_buffer_write_async(q._h, self._live(), off, host.ctypes.data, host.nbytes))
        q._keep.append(host)

    def read_async(self, out: np.ndarray, queue: Optional["Queue"] = None, offset: int = 0) -> None:
        """Enqueues a copy into ``out`` (writable, C-contiguous); valid after the queue finished."""
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("read_async needs a writable C-contiguous array")
        off, _ = self._range(offset, out.nbytes, "Buffer.read_async")
        q = queue if queue is not None else self.device.default_queue()
        _check(N.lib.gp_buffer_read_async(q._h, self._live(), off, out.ctypes.data, out.nbytes))
        q._keep.append(out)

    def map(self) -> memoryview:
        """Host view of a pinned or shared buffer (zero copy). Call :meth:`unmap` before the
        device uses the buffer again."""
        self.device.synchronize()  # the map waits for the device: here Ctrl-C can stop that
        p = N.vp()
        _check(N.lib.gp_buffer_map(self._live(), ctypes.byref(p)))
        self._mapped = True
        return memoryview((ctypes.c_char * self.nbytes).from_address(p.value)).cast("B")

    def unmap(self) -> None:
        _check(N.lib.gp_buffer_unmap(self._live()))
        self._mapped = False

    def _host_address(self) -> Optional[int]:
        """The host address of the memory, in place and up to date (the device's work on it
        finished), or None where the host reaches it only by copies."""
        host = self.native()[2]
        if host is None:
            return None
        if not getattr(self, "_mapped", False):  # map waits for the device's use of the buffer
            self.device.synchronize()  # (where Ctrl-C can stop the wait)
            p = N.vp()
            _check(N.lib.gp_buffer_map(self._h, ctypes.byref(p)))
            _check(N.lib.gp_buffer_unmap(self._h))
        return host


class _HostView:
    """What numpy is given to view host memory in place: the array interface, and the owner that
    keeps the memory alive as long as the numpy array (its ``base``) lives."""

    def __init__(self, address: int, shape: Tuple[int, ...], dtype: np.dtype, read_only: bool,
                 owner: Any, strides: Optional[Tuple[int, ...]] = None):
        self.__array_interface__ = {"version": 3, "shape": shape, "typestr": dtype.str,
                                    "descr": dtype.descr, "data": (address, read_only),
                                    "strides": strides}
        self.owner = owner


def host_view(address: int, shape: Tuple[int, ...], dtype: np.dtype, read_only: bool, owner: Any,
              strides: Optional[Tuple[int, ...]] = None) -> np.ndarray:
    """A numpy array over host memory at ``address``, keeping ``owner`` alive."""
    if math.prod(shape) == 0:
        return np.empty(shape, dtype)
    out = np.asarray(_HostView(address, shape, dtype, read_only, owner, strides))
    return out


class Array:
    """A typed, shaped, C-contiguous buffer: numpy in, numpy out, and the array protocols of the
    Python world (``__array__``, ``__dlpack__``, ``__cuda_array_interface__``).

    ``readonly`` is true for another library's read-only memory (then kernels refuse it for a
    ``GP_BUF`` parameter); ``copied`` says why :func:`gpuport.from_dlpack` had to copy (None when
    the array uses the producer's memory in place)."""

    def __init__(self, buffer: Buffer, shape: Tuple[int, ...], dtype: np.dtype,
                 readonly: bool = False):
        self.buffer = buffer
        self.shape = _shape(shape)
        self.dtype = _array_dtype(dtype)
        if self.nbytes > buffer.nbytes:
            raise ValueError(f"an array of shape {self.shape} and {self.dtype} needs {self.nbytes} "
                             f"bytes; the buffer has {buffer.nbytes}")
        self.readonly = readonly
        self.copied: Optional[str] = None
        self._last_queue: Optional[Queue] = None  # where the last kernel that wrote it ran

    @staticmethod
    def empty(device: Device, shape: Union[int, Sequence[int]], dtype: Any = np.float32,
              kind: Optional[str] = None) -> "Array":
        shp = _shape(shape)
        dt = _array_dtype(dtype)
        if kind is None:
            kind = "shared" if device.info.unified_memory else "device"
        nbytes = math.prod(shp) * dt.itemsize
        if nbytes > _MAX_BYTES:
            raise OverflowError(f"an array of shape {shp} and {dt} would take {nbytes} bytes, more "
                                "than any device's memory")
        return Array(Buffer(device, max(1, nbytes), kind), shp, dt)

    @property
    def device(self) -> Device:
        return self.buffer.device

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def strides(self) -> Tuple[int, ...]:
        """Bytes from one element to the next in each dimension (row-major, as numpy's)."""
        return tuple(s * self.dtype.itemsize for s in D.dense_strides(self.shape))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d gpuport.Array")
        return self.shape[0]

    def write(self, data: Any) -> None:
        """Copies ``data`` in: an array of this dtype (another dtype is refused, as a launch
        refuses it: convert it first), or Python numbers and sequences whose every value the dtype
        holds exactly (no silent wrap-around or overflow)."""
        if self.readonly:
            raise ValueError("Array.write: the array is read-only (another library's read-only memory)")
        if isinstance(data, Array):
            data = data.numpy()
        typed = isinstance(data, (np.ndarray, np.generic)) or hasattr(data, "__array__") \
            or hasattr(data, "__dlpack__")
        src = np.asarray(data)
        if src.dtype.hasobject or src.dtype.kind not in "biufc":
            raise TypeError(f"Array.write: the data is {src.dtype}, not numbers")
        if src.dtype != self.dtype:
            if typed:
                raise TypeError(f"Array.write: the array holds {self.dtype}, the data is {src.dtype}; "
                                f"convert it first (data.astype(np.{self.dtype.name}))")
            if src.dtype.kind in "fc" and self.dtype.kind in "biu":
                raise TypeError(f"Array.write: the array holds {self.dtype}, the data has floats")
            with np.errstate(all="ignore"):
                conv = src.astype(self.dtype)
                lost = (not np.array_equal(conv.astype(src.dtype), src)) if self.dtype.kind in "biu" \
                    else bool((np.isinf(conv) & np.isfinite(src)).any())
            if lost:
                raise OverflowError(f"Array.write: the values do not fit {self.dtype}")
            src = conv
        if src.size != self.size:
            raise ValueError(f"Array.write: the array has {self.size} elements, the data {src.size}")
        self.buffer.write(np.ascontiguousarray(src))

    def numpy(self) -> np.ndarray:
        """A host copy of the array."""
        out = np.empty(self.shape, dtype=self.dtype)
        if out.nbytes:
            try:
                self.buffer.read_into(out)
            except UnsupportedError:  # another library's private memory: through a buffer of ours
                tmp = Buffer(self.device, self.buffer.nbytes, "device")
                tmp.copy_from(self.buffer)
                tmp.read_into(out)
        return out

    def view(self) -> np.ndarray:
        """A zero-copy numpy view of a shared or pinned array (unified memory, CPU). The view is
        valid until :meth:`unview`; the device must not use the array meanwhile."""
        mv = self.buffer.map()
        return np.frombuffer(mv, dtype=self.dtype, count=self.size).reshape(self.shape)

    def unview(self) -> None:
        self.buffer.unmap()

    def _host(self) -> Optional[int]:
        """The host address of the first element, in place and up to date, or None."""
        return self.buffer._host_address()

    def copy(self) -> "Array":
        """A new array on the same device with the same contents (a device-side copy)."""
        out = Array.empty(self.device, self.shape, self.dtype)
        if self.nbytes:
            out.buffer.copy_from(self.buffer, self.nbytes)
        return out

    # -- numpy
    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> np.ndarray:
        """numpy's view of the array: in place where the host can reach the memory (the CPU,
        unified memory, pinned memory; read-only if the array is), else a copy — which
        ``np.asarray(a, copy=False)`` refuses."""
        host = self._host()
        if host is None:
            if copy is False:
                raise ValueError(f"the array is in {self.buffer.kind} memory of {self.device.info.spec}, "
                                 "which the host cannot view in place; np.asarray(a) or a.numpy() "
                                 "copies it")
            out = self.numpy()
        else:
            out = host_view(host, self.shape, self.dtype, self.readonly, self)
            if copy:
                out = out.copy()
        if dtype is not None and np.dtype(dtype) != out.dtype:
            if copy is False:
                raise ValueError(f"the array holds {self.dtype}; {np.dtype(dtype)} needs a copy")
            out = out.astype(dtype)
        return out

    # -- DLPack
    def __dlpack_device__(self) -> Tuple[int, int]:
        backend = self.device.info.backend
        if backend == "cpu":
            return (D.CPU, 0)
        if backend == "cuda":
            return (D.CUDA, self.device.info.index) if self.buffer.kind == "device" else (D.CUDA_HOST, 0)
        if backend == "metal":
            return (D.METAL, self.device.info.index)
        return (D.CPU, 0) if self.buffer.native()[2] is not None else (D.OPENCL, self.device.info.index)

    def __dlpack__(self, *, stream: Any = None, max_version: Optional[Tuple[int, int]] = None,
                   dl_device: Optional[Tuple[int, int]] = None, copy: Optional[bool] = None) -> Any:
        """A DLPack capsule over the array's memory (in place unless a copy is asked for or
        needed): versioned (``dltensor_versioned``) when the consumer passes ``max_version`` of
        1.0 or more, else the older form. On CUDA the data is made ready for work on ``stream``
        (None or 1: the legacy default stream, 2: per-thread, -1: no ordering)."""
        versioned = max_version is not None and tuple(max_version)[0] >= 1
        mine = self.__dlpack_device__()
        want = (int(dl_device[0]), int(dl_device[1])) if dl_device is not None else mine
        flags = D.FLAG_READ_ONLY if self.readonly else 0
        if want != mine:
            if want[0] != D.CPU:
                raise BufferError(f"the array is on {self.device.info.spec}; gpuport exports it to "
                                  f"its own device or the CPU, not to {D.DEVICE_NAMES.get(want[0], want[0])} "
                                  f"device {want[1]}")
            host = None if copy else self._host()
            if host is not None:  # host-visible memory of a device: the CPU reads it in place
                return D.make_capsule(host, (D.CPU, 0), self.shape, self.dtype, 0, self, versioned, flags)
            if copy is False:
                raise BufferError(f"the array is in {self.buffer.kind} memory of {self.device.info.spec}: "
                                  "the CPU can have only a copy, and copy=False forbids it")
            h = self.numpy()
            return D.make_capsule(h.ctypes.data, (D.CPU, 0), self.shape, self.dtype, 0, h, versioned,
                                  D.FLAG_IS_COPIED)
        src = self
        if copy:
            src, flags = self.copy(), D.FLAG_IS_COPIED
        if mine[0] == D.CUDA:
            self._ready_for(stream)
        elif stream is not None and stream != -1:
            raise BufferError(f"stream={stream!r}: the array is on {self.device.info.spec}, which "
                              "has no streams for a consumer to name; pass None")
        native, offset, host = src.buffer.native()
        if mine[0] in (D.CPU, D.CUDA_HOST):
            return D.make_capsule(src._host() or 0, mine, self.shape, self.dtype, 0, src, versioned, flags)
        if mine[0] == D.CUDA:
            return D.make_capsule(native + offset, mine, self.shape, self.dtype, 0, src, versioned, flags)
        # Metal and OpenCL: the MTLBuffer / cl_mem, with the offset in byte_offset
        src.device.synchronize()
        return D.make_capsule(native, mine, self.shape, self.dtype, offset, src, versioned, flags)

    def _ready_for(self, stream: Any) -> None:
        """Orders another library's CUDA stream after the work on this array (DLPack's and the
        CUDA Array Interface's stream protocol)."""
        if stream == -1:
            return
        handle = 1 if stream is None else _whole(stream, "a CUDA stream handle")
        mine = self._last_queue or self.device.default_queue()
        theirs = self.device.foreign_queue(handle)
        if theirs.native != mine.native:
            theirs.wait(mine.record())

    @property
    def __cuda_array_interface__(self) -> Dict[str, Any]:
        """Version 3 of the CUDA Array Interface, for CUDA arrays (AttributeError elsewhere, so
        that ``hasattr`` tells consumers which arrays have it). ``stream`` is the stream the data
        is produced on; consumers wait for it."""
        if self.device.info.backend != "cuda":
            raise AttributeError(f"__cuda_array_interface__: the array is on {self.device.info.spec}, "
                                 "not a CUDA device")
        native, offset, _ = self.buffer.native()
        q = self._last_queue or self.device.default_queue()
        return {"shape": self.shape, "typestr": self.dtype.str, "descr": self.dtype.descr,
                "data": (native + offset, self.readonly), "version": 3, "strides": None,
                "stream": q.native or 1}

    def __repr__(self) -> str:
        ro = " read-only" if self.readonly else ""
        return f"<gpuport.Array shape={self.shape} dtype={self.dtype}{ro} on {self.device.info.spec}>"


@dataclass(frozen=True)
class ArgInfo:
    """One parameter of a kernel, as its GP_KERNEL declaration gives it."""

    kind: str
    type_name: str
    name: str
    size: int

    @property
    def dtype(self) -> Optional[np.dtype]:
        """The numpy type of an element (of a vector type: of its scalars)."""
        t = self.type_name[6:] if self.type_name.startswith("const ") else self.type_name
        v = _VECTORS.get(t)
        return v[0] if v else _DTYPES.get(t)

    @property
    def lanes(self) -> int:
        """Scalars per element: 2 or 4 for the vector types, else 1."""
        t = self.type_name[6:] if self.type_name.startswith("const ") else self.type_name
        v = _VECTORS.get(t)
        return v[1] if v else 1

    @property
    def writes(self) -> bool:
        return self.kind == "buffer"


class Shared:
    """A launch argument for a GP_DYN_SHARED parameter: the bytes of dynamic shared memory."""

    def __init__(self, nbytes: int):
        self.nbytes = _whole(nbytes, "gpuport.Shared's size")
        if self.nbytes < 0:
            raise ValueError(f"gpuport.Shared: {self.nbytes} bytes; the size is 0 or more")


class Program:
    """Dialect source built for one device."""

    def __init__(self, device: Device, source: str, defines: Optional[Mapping[str, Any]],
                 name: str, fast_math: bool, cache: bool, checks: int = 0):
        self.device = device
        raw = source.encode()
        defs = [f"{k}={v}" if v is not None else str(k) for k, v in (defines or {}).items()]
        arr = (ctypes.c_char_p * max(1, len(defs)))(*[d.encode() for d in defs])
        opts = N.BuildOptions(ctypes.sizeof(N.BuildOptions), (1 if fast_math else 0) | (0 if cache else 2),
                              name.encode(), arr, len(defs), checks)
        h = N.vp()
        _check(N.lib.gp_program_create(device._live(), raw, len(raw), ctypes.byref(opts), ctypes.byref(h)))
        self._h = h

    @classmethod
    def _builtin(cls, device: Device, name: str) -> "Program":
        self = cls.__new__(cls)
        self.device = device
        h = N.vp()
        _check(N.lib.gp_program_create_builtin(device._live(), name.encode(), ctypes.byref(h)))
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

    _refused: Dict[str, str] = {}

    def kernel(self, name: str) -> "Kernel":
        if name in self._refused:
            raise TranslateError(self._refused[name])
        return Kernel(self, name)

    def __getattr__(self, name: str) -> "Kernel":
        if name.startswith("_"):
            raise AttributeError(name)
        return self.kernel(name)


class TranslateError(GpuportError):
    """A CUDA kernel that ``gpuport translate`` refuses (its reasons, each with its .cu line): it
    cannot be built, checked or not."""

    def __init__(self, message: str):
        super().__init__("GP_ERR_BUILD", message)


def _translate_cuda(source: str, name: str,
                    defines: Optional[Mapping[str, Any]]) -> Tuple[str, Dict[str, str]]:
    """CUDA source to the dialect for a (checked) run: ``gpuport translate --for-check``, with
    #line directives naming ``name``. Returns the source and, per refused kernel, the reasons."""
    import json
    import subprocess
    import tempfile
    from .tools import executable
    with tempfile.TemporaryDirectory() as tmp:
        cu = os.path.join(tmp, os.path.basename(name) or "kernel.cu")
        with open(cu, "w", encoding="utf-8") as f:
            f.write(source)
        out, rep = os.path.join(tmp, "out.gpk"), os.path.join(tmp, "report.json")
        argv = [executable(), "translate", cu, "--for-check", "--partial", "--no-verify",
                "-o", out, "--report", rep]
        for k, v in (defines or {}).items():
            argv += ["-D", f"{k}={v}" if v is not None else str(k)]
        p = subprocess.run(argv, capture_output=True, text=True)
        if p.returncode not in (0, 1) or not os.path.exists(out):
            raise TranslateError(f"{name}: gpuport translate failed: {p.stderr.strip()}")
        with open(out, encoding="utf-8") as f:
            text = f.read()
        with open(rep, encoding="utf-8") as f:
            report = json.load(f)
    text = text.replace(json.dumps(cu), json.dumps(name))
    kernels = sorted(report.get("kernels", []), key=lambda k: k.get("line", 0))
    refused: Dict[str, str] = {}
    for i, k in enumerate(kernels):
        if k.get("translated"):
            continue
        end = kernels[i + 1]["line"] if i + 1 < len(kernels) else float("inf")
        why = [f"{name}:{r['line']}: {r['construct']}: {r['reason']}"
               for r in report.get("refusals", []) if k["line"] <= r["line"] < end]
        why = why or [f"{name}:{r['line']}: {r['construct']}: {r['reason']}"
                      for r in report.get("refusals", [])]
        refused[k["name"]] = (f"{name}: kernel '{k['name']}' cannot be translated from CUDA "
                              "(gpuport translate refuses it), so it cannot run, checked or not:\n  "
                              + "\n  ".join(why))
    return text, refused


def builtin_programs() -> List[str]:
    return [N.lib.gp_builtin_program_name(i).decode() for i in range(N.lib.gp_builtin_program_count())]


def _sizes(v: Any, what: str) -> Tuple[int, ...]:
    dims = (v,) if np.ndim(v) == 0 else tuple(v)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"a {what} has 1, 2 or 3 dimensions, got {len(dims)}")
    out = tuple(_whole(x, f"the {what} size in dimension {i}") for i, x in enumerate(dims))
    for i, x in enumerate(out):
        if not 1 <= x <= 0x7FFFFFFF:
            raise ValueError(f"the {what} size in dimension {i} is {x}; it is 1 to 2^31-1 work-items")
    return out


_BUF, _CBUF, _VAL, _DYN = range(4)
_WRAPS_KEPT = 256  # numpy arrays per device whose wrapping is kept for their next launch


def _host_wrap(dev: Device, a: np.ndarray) -> Optional[Buffer]:
    """The device's buffer over a numpy array's memory, made at its first launch and kept as long
    as the array lives (a weak reference: its death releases the buffer), so that launching on
    the same arrays again costs no wrapping (an OpenCL buffer made and released each time).
    None where it cannot be kept (then the launch wraps it for itself)."""
    cache = dev._wraps
    e = cache.get(id(a))
    if e is not None and e[0]() is a and e[1] == a.nbytes and e[2]._h:
        return e[2]
    if len(cache) >= _WRAPS_KEPT or not a.nbytes:
        return None
    key = id(a)
    holder = weakref.ref(dev)

    def gone(ref: Any) -> None:  # the array died: its memory may go, and the buffer with it
        d = holder()
        entry = d._wraps.get(key) if d is not None else None
        if entry is not None and entry[0] is ref:
            del d._wraps[key]
            entry[2].release()

    try:
        ref = weakref.ref(a, gone)
        buf = Buffer.wrap(dev, a.ctypes.data, a.nbytes)
    except (TypeError, UnsupportedError):
        return None
    cache[key] = (ref, a.nbytes, buf)
    return buf

_BUF_FIELD = N.ArgC.buffer.offset  # where a launch record holds its buffer
_pack_ptr = struct.Struct("P").pack_into


class Kernel:
    """One kernel of a program. Call it with the grid and the arguments:
    ``k(n, y, x, 2.0, n)`` or ``k.launch(grid=(w, h), group=(16, 16), args=[...])``.

    A buffer parameter takes a gpuport Array or Buffer, or another library's array — numpy, a
    torch tensor, a CuPy array, anything with DLPack or ``__cuda_array_interface__`` — used in
    place where the device can reach its memory (host memory on the CPU and unified-memory
    devices, CUDA memory on the same CUDA device, an MPS tensor on Metal). A numpy array the
    device cannot reach is copied in, and for GP_BUF copied back after the kernel finished. The
    element type, contiguity and writability are checked against the signature first, naming the
    parameter. On CUDA, a launch with torch tensors goes on ``torch.cuda.current_stream()`` (with
    a CuPy array, on the stream its interface names) unless ``queue`` is given."""

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
        # What each parameter needs, worked out once: (kind, info, dtype, struct format, offset
        # of its value in the launch's value block, its size, and the Python types packed as
        # they are: int for integers, int and float for floating point, none for vectors).
        self._plan: List[Tuple[int, ArgInfo, Optional[np.dtype], str, int, int, tuple]] = []
        off = 0
        for p in sig:
            kind = ARG_KINDS.index(p.kind)
            fmt, size, direct = "", 0, ()
            if kind == _VAL and p.dtype is not None:
                fmt = "<" + (str(p.lanes) if p.lanes > 1 else "") + _PACK[p.dtype.char]
                size = struct.calcsize(fmt)
                if p.lanes == 1:
                    direct = (int, float) if p.dtype.kind == "f" else (int,)
            self._plan.append((kind, p, p.dtype, fmt, off, size, direct))
            off += size
        self._value_bytes = off
        # The common launch — a whole-number grid, gpuport arrays, numbers of the parameter's
        # own kind, no group or queue — takes a shorter path (__call__): per parameter one test
        # and one struct.pack_into into argument blocks kept from launch to launch.
        fast = []
        for i, (kind, p, dt, fmt, off, size, direct) in enumerate(self._plan):
            if kind == _VAL:
                if not direct:
                    fast = None
                    break
                wide = direct + ((np.float32, np.float64) if float in direct else
                                 (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                  np.uint32, np.uint64))
                fast.append((i, kind, dt, struct.Struct(fmt).pack_into, off, wide))
            elif kind <= _CBUF:
                fast.append((i, kind, dt, None, i * ctypes.sizeof(N.ArgC) + _BUF_FIELD, ()))
            else:
                fast = None
                break
        self._fast = fast
        self._slots: List[Tuple[Any, Any, Any]] = []

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
        fast = self._fast
        if (fast is not None and group is None and len(args) == len(fast)
                and (queue is None or type(queue) is Queue)
                and (type(grid) is int or (type(grid) is tuple and 1 <= len(grid) <= 3))):
            slots = self._slots
            slot = slots.pop() if slots else self._new_slot()
            try:
                if self._fast_launch(slot, fast, grid, args, queue):
                    return
            finally:
                slots.append(slot)
        self.launch(grid, args, group=group, queue=queue)

    def _new_slot(self) -> Tuple[Any, Any, Any]:
        """Argument blocks for the short path: the records (value records pointing into the
        value block already), the value block, the grid. A launch copies the values, so a slot
        is free again when the C call returns; each call takes its own (threads may share a
        kernel)."""
        n = len(self._plan)
        cargs = (N.ArgC * max(1, n))()
        vals = ctypes.create_string_buffer(max(1, self._value_bytes))
        base = ctypes.addressof(vals)
        for i, (kind, p, dt, fmt, off, size, direct) in enumerate(self._plan):
            c = cargs[i]
            c.kind = 2 if kind == _VAL else 0
            if kind == _VAL:
                c.value = base + off
                c.size = size
        return cargs, vals, (N.size_t * 3)()

    def _fast_launch(self, slot: Tuple[Any, Any, Any], fast: List[Any], grid: Any,
                     args: Sequence[Any], queue: Optional["Queue"]) -> bool:
        """The short path; False (nothing launched) where an argument needs the full one."""
        cargs, vals, gsz = slot
        if type(grid) is int:
            if not 0 < grid <= 0x7FFFFFFF:
                return False
            dims = 1
            gsz[0] = grid
        else:
            dims = len(grid)
            for d, x in enumerate(grid):
                if type(x) is not int or not 0 < x <= 0x7FFFFFFF:
                    return False
                gsz[d] = x
        written = None
        host = False  # numpy memory in use: the launch waits for the kernel
        for i, kind, dt, pack, off, wide in fast:
            a = args[i]
            if kind == _VAL:
                if type(a) not in wide:
                    return False
                try:
                    pack(vals, off, a)
                except (struct.error, OverflowError, TypeError):
                    return False  # the full path says why
            elif type(a) is Array:
                if a.dtype != dt or a.readonly:
                    return False
                h = a.buffer._h
                if h is None:
                    return False
                _pack_ptr(cargs, off, h.value)
                if kind == _BUF:
                    written = (a,) if written is None else written + (a,)
            elif type(a) is np.ndarray:  # used in place where the device reaches host memory
                dev = self.program.device
                if (a.dtype != dt or not dev.host_memory_in_place or not a.flags.c_contiguous
                        or (kind == _BUF and not a.flags.writeable)):
                    return False
                buf = _host_wrap(dev, a)
                if buf is None:
                    return False
                _pack_ptr(cargs, off, buf._h.value)
                host = True
            else:
                return False
        if queue is not None and queue.device is not self.program.device:
            return False  # the full path names both devices
        _check(N.lib.gp_kernel_launch(queue._h if queue is not None else None, self._h, dims, gsz,
                                      None, len(fast), cargs))
        if written is not None:
            for a in written:
                a._last_queue = queue
        if host:
            (queue or self.program.device.default_queue()).finish()
        return True

    def _value(self, p: ArgInfo, fmt: str, v: Any) -> bytes:
        """The bytes of a GP_VAL argument, refusing what the parameter's C type cannot hold as
        given (a float for an integer, a string, an integer that does not fit)."""
        where = f"{self.name}: parameter '{p.name}' is {p.type_name}"
        if p.lanes > 1:
            vals = list(np.asarray(v).reshape(-1)) if not isinstance(v, (str, bytes)) else [v]
            if len(vals) != p.lanes:
                raise TypeError(f"{where}, {p.lanes} numbers; got {v!r}")
            return b"".join(self._value(ArgInfo(p.kind, p.dtype.name, p.name, 0),  # type: ignore[union-attr]
                                        "<" + fmt[-1], x) for x in vals)
        if isinstance(v, (str, bytes, bytearray)):
            raise TypeError(f"{where}, got {type(v).__name__} {v!r}; pass a number")
        if isinstance(v, np.ndarray) or (hasattr(v, "item") and getattr(v, "ndim", None) == 0):
            if getattr(v, "ndim", 0) != 0:
                raise TypeError(f"{where}, got an array of shape {tuple(v.shape)} (a value is one number)")
            v = v.item() if not isinstance(v, np.ndarray) else v[()]
        is_int_param = fmt[-1] not in "fde"
        if isinstance(v, (bool, np.bool_)):
            if not is_int_param:
                raise TypeError(f"{where}, got a bool ({v!r})")
            v = int(v)
        if is_int_param:
            if isinstance(v, (float, np.floating)):
                raise TypeError(f"{where}, got a float ({v!r})")
            if not isinstance(v, (numbers.Integral, np.integer)):
                raise TypeError(f"{where}, got {type(v).__name__} ({v!r})")
        elif not isinstance(v, (numbers.Real, np.floating, np.integer)):
            raise TypeError(f"{where}, got {type(v).__name__} ({v!r})")
        try:
            return struct.pack(fmt, int(v) if is_int_param else float(v))
        except (struct.error, OverflowError):
            raise OverflowError(f"{self.name}: {v!r} does not fit parameter '{p.name}' ({p.type_name})") from None

    def launch(self, grid: Union[int, Sequence[int]], args: Iterable[Any],
               group: Optional[Union[int, Sequence[int]]] = None, queue: Optional["Queue"] = None) -> None:
        args = args if isinstance(args, (list, tuple)) else list(args)
        plan = self._plan
        if len(args) != len(plan):
            names = ", ".join(f"{p.kind} {p.type_name} {p.name}" for p in self.signature)
            raise TypeError(f"{self.name} takes {len(plan)} arguments ({names}), got {len(args)}")
        g = _sizes(grid, "grid")
        gsz = (N.size_t * len(g))(*g)
        grp = None
        if group is not None:
            gg = _sizes(group, "group")
            if len(gg) != len(g):
                raise ValueError(f"the group has {len(gg)} dimensions, the grid {len(g)}")
            grp = (N.size_t * len(gg))(*gg)
        cargs = (N.ArgC * max(1, len(args)))()
        vals = ctypes.create_string_buffer(self._value_bytes) if self._value_bytes else None
        vaddr = ctypes.addressof(vals) if vals is not None else 0
        keep: List[Any] = []  # bytes of raw values, alive until the C call returns
        foreign = None  # other libraries' arrays: made into buffers, released after the launch
        written: List[Array] = []
        for i, (kind, p, dt, fmt, off, size, direct) in enumerate(plan):
            a = args[i]
            c = cargs[i]
            if kind <= _CBUF:
                if a is None:  # an optional buffer the kernel tests (`if (bias != 0)`)
                    c.flags = 1
                    c.buffer = None
                elif type(a) is Array:
                    if dt is not None and a.dtype != dt:
                        raise TypeError(f"{self.name}: parameter '{p.name}' holds {p.type_name} "
                                        f"({dt}), got a gpuport.Array of {a.dtype}")
                    if kind == _BUF:
                        if a.readonly:
                            raise ValueError(f"{self.name}: parameter '{p.name}' is GP_BUF (the kernel "
                                             "writes it), but the array is read-only memory of "
                                             "another library; pass a writable copy (a.copy())")
                        written.append(a)
                    c.buffer = a.buffer._h
                elif type(a) is Buffer:
                    c.buffer = a._h
                else:
                    if foreign is None:
                        from .interop import LaunchArgs
                        foreign = LaunchArgs(self, queue, args)
                    c.buffer = foreign.buffer(p, a)._h
                c.kind = 0
            elif kind == _VAL:
                c.kind = 2
                if fmt and not isinstance(a, (bytes, bytearray)):
                    if type(a) in direct:
                        try:
                            struct.pack_into(fmt, vals, off, a)  # type: ignore[arg-type]
                        except (struct.error, OverflowError):
                            raise OverflowError(f"{self.name}: {a!r} does not fit parameter "
                                                f"'{p.name}' ({p.type_name})") from None
                    else:
                        ctypes.memmove(vaddr + off, self._value(p, fmt, a), size)
                    c.value = vaddr + off
                    c.size = size
                else:
                    if not isinstance(a, (bytes, bytearray)):
                        raise TypeError(f"{self.name}: parameter '{p.name}' has type '{p.type_name}', "
                                        "which Python cannot convert; pass a bytes object of its exact size")
                    raw = ctypes.create_string_buffer(bytes(a), len(a))
                    keep.append(raw)
                    c.value = ctypes.addressof(raw)
                    c.size = len(a)
            else:
                if not isinstance(a, Shared):
                    raise TypeError(f"{self.name}: parameter '{p.name}' is dynamic shared memory; "
                                    "pass gpuport.Shared(nbytes)")
                c.kind = 3
                c.size = a.nbytes
        if foreign is not None:
            q = foreign.before_launch()
        else:
            q = queue
        st = N.lib.gp_kernel_launch(q._h if q is not None else None, self._h, len(g), gsz, grp,
                                    len(args), cargs)
        if foreign is not None:
            foreign.after_launch(q, st == 0)
        _check(st)
        for a in written:
            a._last_queue = q


class Queue:
    """An in-order stream of commands on one device (or, wrapped, another library's CUDA
    stream: :meth:`Device.foreign_queue`)."""

    def __init__(self, device: Device, handle: Optional[N.vp] = None, wrapped: bool = False):
        self.device = device
        self._keep: List[Any] = []  # host memory of async copies, until finish()
        self._owned = handle is None or wrapped
        if handle is None:
            handle = N.vp()
            _check(N.lib.gp_queue_create(device._live(), ctypes.byref(handle)))
        self._h = handle
        self._native: Optional[int] = None
        self._poll = device.info.backend != "cpu"  # waits that Ctrl-C can stop (see _poll)

    def __del__(self) -> None:
        try:
            if (getattr(self, "_h", None) and self._owned
                    and not getattr(self.device, "_interrupted", False)):
                N.lib.gp_queue_release(self._h)  # waits for its commands (a wrapped one does not)
            self._h = None
        except Exception:
            pass

    @property
    def native(self) -> Optional[int]:
        """The backend's handle of the queue (CUDA: its ``CUstream`` as an integer), None on
        backends without one."""
        if self._native is None:
            p = N.vp()
            if N.lib.gp_queue_native(self._h, ctypes.byref(p)) != 0:
                return None
            self._native = p.value or 0
        return self._native

    def finish(self) -> None:
        if self._poll:
            _drain(self._h, self.device)
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
        _poll(self._h, self.device)
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
