"""Other libraries' arrays in gpuport, without a copy where the device can reach their memory:
:func:`from_dlpack` (any DLPack producer: numpy, PyTorch, CuPy, JAX), :func:`from_cuda_array_interface`
(CuPy, Numba, PyTorch CUDA tensors), :func:`asarray` (whichever applies, else a copy), and the
arguments of a kernel launch (:class:`LaunchArgs`: torch tensors by their data pointer, on
torch's current CUDA stream; MPS tensors by their MTLBuffer).

Where the memory cannot be used in place — strides that are not dense, memory the device
cannot reach, a device gpuport did not open — the array is copied when ``copy`` allows it, and
``Array.copied`` (and the "gpuport" logger, at INFO) says why; ``copy=False`` refuses with that
reason instead. The producer's memory stays alive as long as the gpuport array that uses it.
"""

from __future__ import annotations

import logging
import math
import sys
import threading
import weakref
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

from . import _dlpack as D
from .runtime import (Array, ArgInfo, Buffer, Device, Kernel, Queue, _array_dtype, _host_wrap, _shape, _whole,
                      host_view)
from .errors import UnsupportedError

log = logging.getLogger("gpuport")

DeviceLike = Union[Device, str, None]

_defaults: Dict[str, Device] = {}
_defaults_lock = threading.Lock()


def default_device(spec: str) -> Device:
    """A device opened once per process for ``spec``: where arrays go when no device is named."""
    with _defaults_lock:
        d = _defaults.get(spec)
        if d is None:
            d = _defaults[spec] = Device(spec)
        return d


def _device(device: DeviceLike, source: Tuple[int, int]) -> Device:
    if isinstance(device, Device):
        return device
    if isinstance(device, str):
        return default_device(device)
    if device is not None:
        raise TypeError(f"device is a gpuport.Device or a spec string, not {type(device).__name__}")
    kind, index = source
    if kind in D.HOST_DEVICES:
        return default_device("cpu")
    if kind == D.CUDA:
        return default_device(f"cuda:{index}")
    if kind == D.METAL:
        return default_device(f"metal:{index}")
    raise BufferError(f"the data is on a {D.DEVICE_NAMES.get(kind, f'type {kind}')} device, which "
                      "gpuport does not open (it opens CUDA, Metal, OpenCL devices and the CPU); "
                      "copy it to the host first")


def _in_place(source: Tuple[int, int], dev: Device) -> Tuple[Optional[bool], str]:
    """Whether ``dev`` can use memory on DLPack device ``source`` in place: (native, "") where it
    can (native: the backend's own object, else a host address), (None, why not) where not."""
    kind, index = source
    info = dev.info
    if kind in D.HOST_DEVICES:
        if dev.host_memory_in_place:
            return False, ""
        return None, (f"{info.spec} ({info.name}) does not use host memory in place"
                      + ("" if info.backend == "cuda" else " (it does not share memory with the host)"))
    if kind == D.CUDA:
        if info.backend == "cuda" and info.index == index:
            return True, ""
        return None, f"the data is on CUDA device {index}, the array is to be on {info.spec}"
    if kind == D.METAL:
        if info.backend == "metal" and info.index == index:
            return True, ""
        return None, f"the data is on Metal device {index}, the array is to be on {info.spec}"
    return None, f"the data is on a {D.DEVICE_NAMES.get(kind, f'type {kind}')} device, which gpuport does not open"


def _dlpack_device(x: Any) -> Tuple[int, int]:
    try:
        kind, index = x.__dlpack_device__()
        return int(kind), int(index)
    except AttributeError:
        raise TypeError(f"{type(x).__name__} has no __dlpack_device__: not a DLPack producer") from None


def _capsule(x: Any, stream: Optional[int]) -> Any:
    """The producer's capsule, asked for DLPack 1.0 (older producers take no max_version)."""
    kw: Dict[str, Any] = {"max_version": D.VERSION}
    if stream is not None:
        kw["stream"] = stream
    try:
        return x.__dlpack__(**kw)
    except TypeError:
        kw.pop("max_version")
        return x.__dlpack__(**kw)


def _consumer_stream(dev: Device, queue: Optional[Queue]) -> Optional[int]:
    """The CUDA stream gpuport will use the data on: what a CUDA producer must order its work
    before (DLPack's stream argument: 1 for the legacy default stream)."""
    if dev.info.backend != "cuda":
        return None
    q = queue or dev.default_queue()
    return q.native or 1


def from_dlpack(x: Any, device: DeviceLike = None, *, copy: Optional[bool] = None,
                queue: Optional[Queue] = None) -> Array:
    """A gpuport array over the memory of any DLPack producer (numpy, a torch tensor, CuPy, JAX,
    a gpuport array): in place when ``device`` (by default the producer's own: the CPU backend
    for host memory, ``cuda:N`` for CUDA device N) can use that memory and its strides are dense;
    else a copy, unless ``copy=False``, which refuses with the reason. ``copy=True`` always
    copies. The producer's memory stays alive as long as the array. A read-only producer gives a
    read-only array (kernels refuse it for GP_BUF). On CUDA the producer orders its work before
    ``queue`` (the device's default queue)."""
    if isinstance(x, Array) and (device is None or device is x.device) and not copy:
        return x
    if D.capsule_name(x) is not None:  # a capsule itself (the older protocol): taken once
        t = D.Taken(x)
        source = t.device
        dev = _device(device, source)
        native, why = _in_place(source, dev)
    else:
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"{type(x).__name__} does not speak DLPack (no __dlpack__); "
                            "gpuport.asarray takes more kinds of arrays")
        source = _dlpack_device(x)
        dev = _device(device, source)
        native, why = _in_place(source, dev)
        stream = None
        if source[0] == D.CUDA:
            stream = _consumer_stream(dev, queue) if native else 1
        t = D.Taken(_capsule(x, stream))  # deleted when dropped, unless a buffer takes it
    dtype = D.dtype_from_dl(t.code, t.bits, t.lanes)
    _array_dtype(dtype)
    if not D.is_dense(t.shape, t.strides):
        why = why or (f"its strides {t.strides} (in elements) are not dense row-major for shape "
                      f"{t.shape}")
        native = None
    if copy:
        why, native = "copy=True", None
    nbytes = math.prod(t.shape) * dtype.itemsize
    if native is not None and nbytes > 0:
        try:
            buf = Buffer.wrap(dev, t.data, nbytes, native=native, offset=t.byte_offset, owner=t)
        except UnsupportedError as e:  # Metal may refuse some host memory
            native, why = None, e.message
        else:
            return Array(buf, t.shape, dtype, readonly=t.read_only)
    if native is not None:  # nothing to share: an empty array
        return Array.empty(dev, t.shape, dtype)
    if copy is False:
        raise BufferError(f"from_dlpack cannot use the {type(x).__name__}'s memory in place: {why}; "
                          "copy=False forbids a copy")
    arr = _copy_taken(t, dtype, dev, why)
    arr.copied = why
    log.info("from_dlpack copied a %s of %s: %s", type(x).__name__, t.shape, why)
    return arr


def _copy_taken(t: "D.Taken", dtype: np.dtype, dev: Device, why: str) -> Array:
    """A copy on ``dev`` of what a capsule describes (host memory, or memory of a device gpuport
    opens, read through a buffer there)."""
    elems = t.strides or D.dense_strides(t.shape)
    if t.device[0] in D.HOST_DEVICES:
        host = host_view(t.data + t.byte_offset, t.shape, dtype, True, t,
                         tuple(s * dtype.itemsize for s in elems))
        out = dev.array(np.ascontiguousarray(host))
        t.release()
        return out
    if not D.is_dense(t.shape, t.strides):
        t.release()
        raise BufferError(f"cannot copy from a {D.DEVICE_NAMES.get(t.device[0], t.device[0])} device: "
                          f"{why}; make it contiguous on its device first (tensor.contiguous())")
    src_dev = _device(None, t.device)
    nbytes = math.prod(t.shape) * dtype.itemsize
    if nbytes == 0:
        t.release()
        return Array.empty(dev, t.shape, dtype)
    src = Array(Buffer.wrap(src_dev, t.data, nbytes, native=True, offset=t.byte_offset, owner=t),
                t.shape, dtype)
    host = src.numpy()
    src.buffer.release()
    return dev.array(host)


def _cai(obj: Any) -> Dict[str, Any]:
    try:
        cai = obj.__cuda_array_interface__
    except AttributeError as e:
        raise TypeError(f"{type(obj).__name__} has no __cuda_array_interface__ ({e})") from None
    if not isinstance(cai, dict):
        raise TypeError(f"__cuda_array_interface__ of {type(obj).__name__} is not a dict")
    version = cai.get("version")
    if not isinstance(version, int) or not 0 <= version <= 3:
        raise BufferError(f"__cuda_array_interface__ version {version!r}: gpuport reads versions 0 to 3")
    for key in ("shape", "typestr", "data"):
        if key not in cai:
            raise BufferError(f"__cuda_array_interface__ of {type(obj).__name__} has no '{key}'")
    if cai.get("mask") is not None:
        raise BufferError("__cuda_array_interface__ with a mask: gpuport takes unmasked arrays only")
    return cai


def from_cuda_array_interface(obj: Any, device: DeviceLike = None, *, queue: Optional[Queue] = None,
                              _stream_out: Optional[List[int]] = None) -> Array:
    """A gpuport array over the CUDA memory of any object with ``__cuda_array_interface__``
    (CuPy, Numba, PyTorch), in place. ``device`` defaults to ``cuda`` (the interface does not say
    which device the pointer is on: name it for another). The producer's stream (version 3) is
    waited on by ``queue`` (the device's default queue) before anything of gpuport's uses the
    data. Strides that are not dense and masks are refused (copy on the producer's side first:
    ``cupy.ascontiguousarray``)."""
    cai = _cai(obj)
    dev = device if isinstance(device, Device) else default_device(device or "cuda")
    if dev.info.backend != "cuda":
        raise BufferError(f"__cuda_array_interface__ describes CUDA memory; {dev.info.spec} is not a "
                          "CUDA device (copy it to the host first: cupy.asnumpy(x), tensor.cpu())")
    try:
        dtype = np.dtype(cai["typestr"])
    except TypeError:
        raise BufferError(f"__cuda_array_interface__ typestr {cai['typestr']!r} is not a numpy type") from None
    _array_dtype(dtype)
    shape = _shape(tuple(cai["shape"]))
    strides = cai.get("strides")
    if strides is not None:
        elems = []
        for s in strides:
            s = _whole(s, "a stride")
            if s % dtype.itemsize:
                raise BufferError(f"strides {tuple(strides)} are not whole elements of {dtype}")
            elems.append(s // dtype.itemsize)
        if not D.is_dense(shape, elems):
            raise BufferError(f"strides {tuple(strides)} (bytes) are not dense row-major for shape "
                              f"{shape}; make the array contiguous first (cupy.ascontiguousarray)")
    ptr, read_only = cai["data"]
    ptr = _whole(ptr, "the data pointer")
    stream = cai.get("stream") if cai["version"] >= 3 else None
    if stream is not None:
        stream = _whole(stream, "the stream")
        if stream == 0:
            raise BufferError("__cuda_array_interface__ stream 0 is not allowed (it is ambiguous "
                              "between no stream and the default stream: 1 is the legacy default)")
        if _stream_out is not None:
            _stream_out.append(stream)
        else:
            (queue or dev.default_queue()).wait(dev.foreign_queue(stream).record())
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes == 0:
        return Array.empty(dev, shape, dtype)
    if not ptr:
        raise BufferError("__cuda_array_interface__ gives a NULL pointer for a non-empty array")
    buf = Buffer.wrap(dev, ptr, nbytes, native=True, owner=obj)
    return Array(buf, shape, dtype, readonly=bool(read_only))


def asarray(x: Any, device: DeviceLike = None, *, copy: Optional[bool] = None) -> Array:
    """A gpuport array for ``x``: a gpuport array as it is; another library's array through
    DLPack or the CUDA Array Interface (in place where possible, see :func:`from_dlpack`); any
    other host data (sequences, buffers, numpy-like objects) through numpy, in place on devices
    that use host memory in place, else copied."""
    if isinstance(x, Array):
        return from_dlpack(x, device, copy=copy)
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        return from_dlpack(x, device, copy=copy)
    if hasattr(x, "__cuda_array_interface__") and not copy:
        return from_cuda_array_interface(x, device)
    host = np.asarray(x)
    return from_dlpack(host, device, copy=copy)


# ---- kernel arguments --------------------------------------------------------------------------

_TORCH_DTYPES = {
    "torch.float32": np.float32, "torch.float64": np.float64, "torch.float16": np.float16,
    "torch.int8": np.int8, "torch.uint8": np.uint8, "torch.int16": np.int16,
    "torch.uint16": np.uint16, "torch.int32": np.int32, "torch.uint32": np.uint32,
    "torch.int64": np.int64, "torch.uint64": np.uint64, "torch.bool": np.bool_,
}


# Libraries whose arrays must not change once made, though their DLPack capsules do not say so.
_IMMUTABLE = {"jax": "JAX", "jaxlib": "JAX", "tensorflow": "TensorFlow"}


def _is_torch(a: Any) -> Any:
    torch = sys.modules.get("torch")
    return torch if torch is not None and isinstance(a, torch.Tensor) else None


class LaunchArgs:
    """Other libraries' arrays of one launch, made into buffers: checked against the signature,
    used in place where the device reaches their memory (numpy copied where it does not), and
    the order of work with their streams. :meth:`before_launch` gives the queue to launch on;
    :meth:`after_launch` waits where host memory is involved, copies results back and gives back
    the buffers."""

    def __init__(self, kernel: Kernel, queue: Optional[Queue], args: Any):
        self.k = kernel
        self.dev = kernel.program.device
        self.queue = queue
        self.args = args
        self.wraps: List[Buffer] = []
        self.temps: List[Array] = []
        self.copy_back: List[Tuple[np.ndarray, Array]] = []
        self.host = False  # host memory in use: the launch finishes before returning
        self.mps = False  # MPS tensors: ordered with torch's MPS stream by synchronizing
        self.streams: List[int] = []  # other libraries' CUDA streams the work must follow
        self.stream_sources: List[Any] = []
        self.written_tensors: List[Any] = []  # torch tensors of GP_BUF parameters
        self.temps_alive: List[Any] = []

    def _where(self, p: ArgInfo) -> str:
        return f"{self.k.name}: parameter '{p.name}'"

    def _check_dtype(self, p: ArgInfo, dt: np.dtype, what: str, size: int) -> None:
        want = p.dtype
        if dt.hasobject:
            raise TypeError(f"{self._where(p)}: the {what} holds Python objects (pointers), not data")
        if want is not None and dt != want:
            raise TypeError(f"{self._where(p)} holds {p.type_name} ({want}), got a {what} of {dt}")
        if p.lanes > 1 and size % p.lanes:
            raise TypeError(f"{self._where(p)} holds {p.type_name} ({p.lanes} x {want}), got a {what} "
                            f"of {size} elements, not a multiple of {p.lanes}")

    def _writable(self, p: ArgInfo, what: str) -> None:
        if p.writes:
            raise ValueError(f"{self._where(p)} is GP_BUF (the kernel writes it), but the {what} is "
                             "read-only; pass a writable copy")

    def buffer(self, p: ArgInfo, a: Any) -> Buffer:
        if isinstance(a, Array):
            self._check_dtype(p, a.dtype, "gpuport.Array", a.size)
            if a.readonly:
                self._writable(p, "gpuport.Array (another library's read-only memory)")
            return a.buffer
        if isinstance(a, Buffer):
            return a
        if isinstance(a, np.ndarray):
            return self._numpy(p, a)
        if isinstance(a, (np.generic, int, float, complex, bool)):
            raise TypeError(f"{self._where(p)} is a buffer; a number ({a!r}) has no memory for the "
                            "kernel to use: pass an array")
        torch = _is_torch(a)
        if torch is not None:
            return self._torch(p, a, torch)
        if hasattr(a, "__cuda_array_interface__"):
            return self._cai(p, a)
        if hasattr(a, "__dlpack__") and hasattr(a, "__dlpack_device__"):
            return self._dlpack(p, a)
        if hasattr(a, "__array_interface__") or isinstance(a, (memoryview, bytearray)):
            return self._numpy(p, np.asarray(a))
        raise TypeError(f"{self._where(p)} is a buffer; pass a gpuport.Array or Buffer, a numpy "
                        "array, a torch tensor, or an array with DLPack or __cuda_array_interface__, "
                        f"not {type(a).__name__}")

    def _empty(self, dt: np.dtype) -> Buffer:
        tmp = Array.empty(self.dev, (0,), dt)
        self.temps.append(tmp)
        return tmp.buffer

    def _numpy(self, p: ArgInfo, a: np.ndarray) -> Buffer:
        self._check_dtype(p, a.dtype, "numpy array", a.size)
        if p.writes:
            if not a.flags.writeable:
                self._writable(p, "numpy array")
            if not a.flags.c_contiguous:
                raise ValueError(f"{self._where(p)} is GP_BUF, but the numpy array is not C-contiguous "
                                 f"(strides {a.strides}), so the kernel's writes could not land in it; "
                                 "pass np.ascontiguousarray(a) and use that array")
        elif not a.flags.c_contiguous:
            a = np.ascontiguousarray(a)  # read only: a contiguous copy serves
        if a.nbytes == 0:
            return self._empty(a.dtype)
        if self.dev.host_memory_in_place:
            buf = _host_wrap(self.dev, a)
            if buf is not None:
                self.host = True
                self.temps_alive.append(a)  # a contiguous copy made here lives through the launch
                return buf
            try:
                buf = Buffer.wrap(self.dev, a.ctypes.data, a.nbytes, owner=a)
            except UnsupportedError:
                pass  # Metal may refuse some memory: copy it
            else:
                self.wraps.append(buf)
                self.host = True
                return buf
        tmp = self.dev.array(a)
        self.temps.append(tmp)
        if p.writes:
            self.copy_back.append((a, tmp))
        return tmp.buffer

    def _torch(self, p: ArgInfo, t: Any, torch: Any) -> Buffer:
        dt = _TORCH_DTYPES.get(str(t.dtype))
        if dt is None:
            raise TypeError(f"{self._where(p)} holds {p.type_name}; a {t.dtype} tensor has no type in "
                            "the kernel dialect")
        self._check_dtype(p, np.dtype(dt), f"{t.device.type} tensor", t.numel())
        if not t.is_contiguous():
            if p.writes:
                raise ValueError(f"{self._where(p)} is GP_BUF, but the tensor is not contiguous "
                                 f"(strides {tuple(t.stride())}), so the kernel's writes could not land "
                                 "in it; pass t.contiguous() and use that tensor")
            t = t.contiguous()
        nbytes = t.numel() * t.element_size()
        if nbytes == 0:
            return self._empty(np.dtype(dt))
        if p.writes:
            self.written_tensors.append(t)
        info = self.dev.info
        kind = t.device.type
        if kind == "cpu":
            if not self.dev.host_memory_in_place:
                raise ValueError(f"{self._where(p)}: the tensor is on the CPU, the kernel on {info.spec}, "
                                 "which does not use host memory in place; move the tensor to the "
                                 "kernel's device first")
            buf = Buffer.wrap(self.dev, t.data_ptr(), nbytes, owner=t)
            self.host = True
        elif kind == "cuda":
            if info.backend != "cuda" or info.index != t.device.index:
                raise ValueError(f"{self._where(p)}: the tensor is on {t.device}, the kernel on "
                                 f"{info.spec}; move one of them (tensor.to(...), or "
                                 f"gpuport.Device('cuda:{t.device.index}'))")
            buf = Buffer.wrap(self.dev, t.data_ptr(), nbytes, native=True, owner=t)
            self.streams.append(torch.cuda.current_stream(t.device).cuda_stream)
            self.stream_sources.append("torch")
        elif kind == "mps":
            if info.backend != "metal":
                raise ValueError(f"{self._where(p)}: the tensor is on mps, the kernel on {info.spec}; "
                                 "open gpuport.Device('metal') for MPS tensors")
            # An MPS tensor's storage is an id<MTLBuffer>; the tensor starts storage_offset
            # elements into it (PyTorch's getMTLBufferStorage).
            storage = t.untyped_storage()
            buf = Buffer.wrap(self.dev, storage.data_ptr(), nbytes, native=True,
                              offset=t.storage_offset() * t.element_size(), owner=t)
            self.mps = True
        else:
            raise ValueError(f"{self._where(p)}: gpuport does not open {kind} devices (a {kind} tensor)")
        self.wraps.append(buf)
        return buf

    def _cai(self, p: ArgInfo, a: Any) -> Buffer:
        streams: List[int] = []
        arr = from_cuda_array_interface(a, self.dev, _stream_out=streams)
        self._check_dtype(p, arr.dtype, f"{type(a).__name__} (CUDA array)", arr.size)
        if arr.readonly:
            self._writable(p, f"{type(a).__name__} (its interface says read-only)")
        self.streams += streams
        self.stream_sources += ["cai"] * len(streams)
        self.wraps.append(arr.buffer)
        return arr.buffer

    def _dlpack(self, p: ArgInfo, a: Any) -> Buffer:
        lib = type(a).__module__.partition(".")[0]
        if p.writes and lib in _IMMUTABLE:
            raise ValueError(f"{self._where(p)} is GP_BUF (the kernel writes it), but "
                             f"{_IMMUTABLE[lib]} arrays are immutable (their DLPack does not say "
                             "read-only); write into a gpuport or numpy array and convert that")
        source = _dlpack_device(a)
        q = self.queue
        if q is None and self.streams:
            q = self.dev.foreign_queue(self.streams[0])
        try:
            arr = from_dlpack(a, self.dev, copy=False if p.writes else None, queue=q)
        except BufferError as e:
            raise ValueError(f"{self._where(p)}: {e}") from None
        self._check_dtype(p, arr.dtype, f"{type(a).__name__} (DLPack)", arr.size)
        if arr.readonly:
            self._writable(p, f"{type(a).__name__} (DLPack says read-only)")
        if source[0] in D.HOST_DEVICES:
            self.host = True
        if source[0] == D.METAL:
            self.mps = True
        self.wraps.append(arr.buffer)
        return arr.buffer

    def before_launch(self) -> Optional[Queue]:
        """The queue to launch on, ordered after every other library's stream involved."""
        q = self.queue
        streams = list(self.streams)
        if q is None and streams and self.dev.info.backend == "cuda":
            q = self.dev.foreign_queue(streams.pop(0))
            # gpuport arrays of the launch were written on gpuport's queues: follow them too
            mine = {id(a._last_queue or self.dev.default_queue()): a._last_queue or self.dev.default_queue()
                    for a in self.args if isinstance(a, Array)}
            for src in mine.values():
                if src.native != q.native:
                    q.wait(src.record())
        for s in streams:
            other = self.dev.foreign_queue(s)
            if q is None or other.native != q.native:
                (q or self.dev.default_queue()).wait(other.record())
        if self.mps:
            torch = sys.modules.get("torch")
            if torch is not None and hasattr(torch, "mps"):
                torch.mps.synchronize()  # torch's MPS work on the tensors first
        return q

    def after_launch(self, q: Optional[Queue], launched: bool) -> None:
        if launched and self.written_tensors:
            # The kernel wrote these tensors in place, as torch's own in-place operations do:
            # their version counters say so, and a backward through a saved copy of the old
            # values raises torch's "modified by an inplace operation" instead of using the new.
            torch = sys.modules["torch"]
            torch.autograd.graph.increment_version(self.written_tensors)
        try:
            if launched and (self.host or self.temps or self.mps):
                (q or self.dev.default_queue()).finish()
                for host, tmp in self.copy_back:
                    tmp.buffer.read_into(host)
        finally:
            # Host memory: the kernel finished above. CUDA memory: the driver took the pointers
            # at the launch, and the producer's later work on its stream follows the kernel.
            for b in self.wraps:
                b.release()
            for t in self.temps:
                t.buffer.release()
