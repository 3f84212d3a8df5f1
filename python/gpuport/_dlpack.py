"""DLPack in ctypes: the structures of dlpack.h (1.0 and the older form), capsules made for other
libraries (``__dlpack__``) and capsules taken from them (``from_dlpack``).

A capsule made here is named ``"dltensor_versioned"`` (or ``"dltensor"`` for a consumer that did
not ask for 1.0); a consumer that takes it renames it ``"used_..."`` and calls the deleter when it
is done; a capsule nobody took is deleted by its destructor. Until the deleter runs, the exported
object (and so its memory) is kept alive here. A capsule taken here is renamed the same way, and
its deleter is called by whoever ends up owning the memory (:func:`take`'s caller).
"""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

# DLDeviceType
CPU, CUDA, CUDA_HOST, OPENCL, VULKAN, METAL, VPI, ROCM, ROCM_HOST = 1, 2, 3, 4, 7, 8, 9, 10, 11
CUDA_MANAGED, ONEAPI = 13, 14
DEVICE_NAMES = {CPU: "CPU", CUDA: "CUDA", CUDA_HOST: "CUDA host (pinned)", OPENCL: "OpenCL",
                VULKAN: "Vulkan", METAL: "Metal", VPI: "VPI", ROCM: "ROCm", ROCM_HOST: "ROCm host",
                CUDA_MANAGED: "CUDA managed", ONEAPI: "oneAPI"}
HOST_DEVICES = (CPU, CUDA_HOST, ROCM_HOST, CUDA_MANAGED)  # memory the host may read in place

FLAG_READ_ONLY = 1 << 0
FLAG_IS_COPIED = 1 << 1
VERSION = (1, 0)


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

# numpy dtype kind+size <-> DLPack (code, bits): int 0, uint 1, float 2, complex 5, bool 6.
_CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}
_KINDS = {v: k for k, v in _CODES.items()}


def dtype_to_dl(dt: np.dtype) -> Tuple[int, int, int]:
    if dt.kind not in _CODES or dt.byteorder == ">" or dt.fields is not None:
        raise BufferError(f"{dt} has no DLPack type (DLPack holds bool, int, uint, float and complex "
                          "in the machine's byte order)")
    return _CODES[dt.kind], dt.itemsize * 8, 1


def dtype_from_dl(code: int, bits: int, lanes: int) -> np.dtype:
    if lanes != 1:
        raise BufferError(f"DLPack vector type (code {code}, {bits} bits, {lanes} lanes): gpuport "
                          "takes one value per element; view it as an array of scalars first")
    if code == 4 and bits == 16:
        raise BufferError("bfloat16 has no type in gpuport's kernels or in numpy; convert it first "
                          "(for example tensor.float() or tensor.half())")
    kind = _KINDS.get(code)
    if kind is None or bits % 8:
        raise BufferError(f"DLPack type code {code} with {bits} bits has no numpy type")
    try:
        return np.dtype(f"{kind}{bits // 8}" if kind != "b" else "?")
    except TypeError:
        raise BufferError(f"DLPack type code {code} with {bits} bits has no numpy type") from None


def dense_strides(shape: Sequence[int]) -> Tuple[int, ...]:
    """Row-major strides in elements."""
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= max(int(n), 1)
    return tuple(reversed(out))


def is_dense(shape: Sequence[int], strides: Optional[Sequence[int]]) -> bool:
    """True for row-major compact strides (in elements); dimensions of size 1 may have any."""
    if strides is None or any(n == 0 for n in shape):
        return True
    return all(n == 1 or s == w for n, s, w in zip(shape, strides, dense_strides(shape)))


# ---- the C API of capsules ------------------------------------------------------------------
_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]



def capsule_name(obj: Any) -> Optional[bytes]:
    """A capsule's name: None for another object (b"" for a capsule without one)."""
    if type(obj).__name__ != "PyCapsule":
        return None
    try:
        return _api.PyCapsule_GetName(obj) or b""
    except Exception:
        return b""


# The destructor gets the capsule while it is being freed: a bare pointer, no reference taken.
_is_valid_raw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", _api))
_get_pointer_raw = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _api))

# A capsule keeps the pointer to its name: these buffers live as long as the process.
_NAME = ctypes.create_string_buffer(b"dltensor")
_USED = ctypes.create_string_buffer(b"used_dltensor")
_NAME_V = ctypes.create_string_buffer(b"dltensor_versioned")
_USED_V = ctypes.create_string_buffer(b"used_dltensor_versioned")

# What each exported tensor keeps alive, by the address of its managed struct.
_exports: Dict[int, Tuple[Any, ...]] = {}


def _delete_export(addr: int) -> None:
    try:
        _exports.pop(addr, None)
    except Exception:  # interpreter shutdown
        pass


_deleter = DELETER(_delete_export)
_DELETER_ADDR = ctypes.cast(_deleter, ctypes.c_void_p).value


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule: int) -> None:
    try:
        for name in (_NAME_V, _NAME):  # still so named: no consumer took it
            if _is_valid_raw(capsule, name):
                _delete_export(_get_pointer_raw(capsule, name))
                return
    except Exception:
        pass


_DESTRUCTOR_ADDR = ctypes.cast(_capsule_destructor, ctypes.c_void_p).value
# Capsules may outlive this module at interpreter exit: the callbacks are never freed.
_api.Py_IncRef(ctypes.py_object(_capsule_destructor))
_api.Py_IncRef(ctypes.py_object(_deleter))


def make_capsule(data: int, device: Tuple[int, int], shape: Sequence[int], dtype: np.dtype,
                 byte_offset: int, owner: Any, versioned: bool, flags: int = 0) -> Any:
    """A capsule over ``data`` (plus ``byte_offset``) that keeps ``owner`` alive until the consumer
    calls the deleter (or, if no consumer takes it, until the capsule is freed)."""
    ndim = len(shape)
    shp = (ctypes.c_int64 * max(ndim, 1))(*shape)
    strides = (ctypes.c_int64 * max(ndim, 1))(*dense_strides(shape))
    managed = DLManagedTensorVersioned() if versioned else DLManagedTensor()
    t = managed.dl_tensor
    t.data = data or None
    t.device = DLDevice(*device)
    t.ndim = ndim
    t.dtype = DLDataType(*dtype_to_dl(dtype))
    t.shape = ctypes.cast(shp, ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
    t.byte_offset = byte_offset
    managed.deleter = _DELETER_ADDR
    if versioned:
        managed.version = DLPackVersion(*VERSION)
        managed.flags = flags
    elif flags & FLAG_READ_ONLY:
        raise BufferError("the array is read-only and DLPack before 1.0 cannot say so: the consumer "
                          "must ask for max_version=(1, 0) (numpy 2, PyTorch 2.4+ do)")
    addr = ctypes.addressof(managed)
    _exports[addr] = (managed, shp, strides, owner)
    return _api.PyCapsule_New(addr, _NAME_V if versioned else _NAME, _DESTRUCTOR_ADDR)


class Taken:
    """A tensor taken from a capsule: what it describes, and the deleter to call when the memory
    is no longer used (:meth:`release`, once)."""

    def __init__(self, capsule: Any):
        if _api.PyCapsule_IsValid(capsule, _NAME_V):
            addr = _api.PyCapsule_GetPointer(capsule, _NAME_V)
            m = DLManagedTensorVersioned.from_address(addr)
            if m.version.major > VERSION[0]:
                raise BufferError(f"the producer gave DLPack {m.version.major}.{m.version.minor}; "
                                  f"gpuport reads {VERSION[0]}.x")
            self.flags = int(m.flags)
            used = _USED_V
        elif _api.PyCapsule_IsValid(capsule, _NAME):
            addr = _api.PyCapsule_GetPointer(capsule, _NAME)
            m = DLManagedTensor.from_address(addr)
            self.flags = 0
            used = _USED
        else:
            name = capsule_name(capsule)
            if name is not None and name.startswith(b"used_dltensor"):
                raise BufferError("the DLPack capsule was already consumed (it is named "
                                  f"{name.decode()!r}): a capsule can be taken once; ask the "
                                  "producer for a new one (x.__dlpack__()) or pass the array itself")
            raise TypeError(f"not a DLPack capsule ({type(capsule).__name__}"
                            + (f" named {name.decode()!r}" if name is not None else "") + ")")
        t = m.dl_tensor
        ndim = int(t.ndim)
        if ndim < 0 or ndim > 64:
            raise BufferError(f"the producer's DLPack tensor has {ndim} dimensions")
        self.addr = addr
        self._deleter = m.deleter
        self.device = (int(t.device.device_type), int(t.device.device_id))
        self.data = int(t.data or 0)
        self.byte_offset = int(t.byte_offset)
        self.shape = tuple(int(t.shape[i]) for i in range(ndim)) if ndim else ()
        self.strides = (tuple(int(t.strides[i]) for i in range(ndim)) if ndim and t.strides
                        else None)
        self.code, self.bits, self.lanes = int(t.dtype.code), int(t.dtype.bits), int(t.dtype.lanes)
        if any(n < 0 for n in self.shape):
            raise BufferError(f"the producer's DLPack tensor has a negative size: {self.shape}")
        # Taken: from here on the deleter is ours to call.
        _api.PyCapsule_SetName(capsule, used)

    @property
    def read_only(self) -> bool:
        return bool(self.flags & FLAG_READ_ONLY)

    def release(self) -> None:
        d, self._deleter = self._deleter, None
        if d:
            DELETER(d)(self.addr)

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass
