"""mps on a machine without one: `torch.backends.mps.is_available()` says yes, and a
TorchFunctionMode sends every `device="mps"` factory and every `.to("mps")` to the CPU while the
recorder marks the new storage as on the device — so `x.device` says mps, `x.is_mps` is true, and
the branches a program takes only on a Mac run. A move between mps and the CPU always copies (as
on a Mac), so a tensor never is on both. CUDA is absent, as on a Mac: a move to it is recorded as a
stop and raises what a Mac raises."""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable, Dict, List, Tuple

import torch
from torch.overrides import TorchFunctionMode

from .recorder import Recorder

MPS_DEVICE = torch.device("mps", 0)
_TB = torch._C.TensorBase
# Factories that take the default device when given none (torch.set_default_device("mps")).
_FACTORIES = frozenset(getattr(torch, n) for n in (
    "empty", "zeros", "ones", "full", "rand", "randn", "randint", "randperm", "arange", "linspace",
    "logspace", "eye", "tensor", "scalar_tensor", "empty_strided", "as_tensor") if hasattr(torch, n))


def _kind(dev: Any) -> str:
    if isinstance(dev, torch.device):
        return dev.type
    if isinstance(dev, str):
        return dev.split(":", 1)[0].strip()
    return ""


class CudaOnMac(AssertionError):
    pass


class FakeMpsMode(TorchFunctionMode):
    def __init__(self, rec: Recorder):
        super().__init__()
        self.rec = rec

    # --- moves -------------------------------------------------------------------------------
    def _to_device(self, func: Callable[..., Any], args: Tuple[Any, ...],
                   kwargs: Dict[str, Any]) -> Any:
        st = self.rec.state
        outer = st.to_device
        st.to_device, st.double_seen = True, False if not outer else st.double_seen
        try:
            out = func(*args, **kwargs)
        finally:
            st.to_device = outer
        for o in (out if isinstance(out, (list, tuple)) else (out,)):
            self.rec.tag(o)
        return out

    def _to_host(self, func: Callable[..., Any], args: Tuple[Any, ...],
                 kwargs: Dict[str, Any]) -> Any:
        st = self.rec.state
        outer = st.to_host
        st.to_host = True
        try:
            return func(*args, **kwargs)
        finally:
            st.to_host = outer

    def _cuda(self, what: str) -> None:
        self.rec.add("stop", what, "", (), "CUDA device requested")
        raise CudaOnMac("Torch not compiled with CUDA enabled")

    def _tensor_to(self, func: Callable[..., Any], args: Tuple[Any, ...],
                   kwargs: Dict[str, Any]) -> Any:
        t, rest = args[0], args[1:]
        kw = dict(kwargs)
        copy = bool(kw.pop("copy", False))
        if rest and isinstance(rest[0], torch.Tensor):
            other = rest[0]
            target = "mps" if self.rec.on_device(other) else other.device.type
            dtype, nb, mf = other.dtype, kw.get("non_blocking", False), None
            if len(rest) > 1:
                nb = rest[1]
        else:
            try:
                dev, dtype, nb, mf = torch._C._nn._parse_to(*rest, **kw)
            except Exception:  # noqa: BLE001 - torch's own message, from the real call
                return func(*args, **kwargs)
            target = _kind(dev) if dev is not None else ""
        on = self.rec.on_device(t)
        opts: Dict[str, Any] = {"non_blocking": nb}
        if mf is not None:
            opts["memory_format"] = mf
        if target == "mps":
            if on:
                return func(t, dtype=dtype, copy=copy, **opts)
            return self._to_device(func, (t,), dict(device="cpu", dtype=dtype, copy=True, **opts))
        if target == "cpu" and on:
            return self._to_host(func, (t,), dict(device="cpu", dtype=dtype, copy=True, **opts))
        if target == "cuda":
            self._cuda("torch.Tensor.to('cuda')")
        return func(*args, **kwargs)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        h = _HANDLERS.get(func)
        if h is not None:
            return h(self, func, args, kwargs)
        return self._generic(func, args, kwargs)

    def _generic(self, func: Callable[..., Any], args: Tuple[Any, ...],
                 kwargs: Dict[str, Any]) -> Any:
        """A call given device= (a factory, a new_* method): mps goes to the CPU, marked."""
        dev = kwargs.get("device")
        if dev is None and self.rec.default_mps and func in _FACTORIES:
            dev = "mps"
        if dev is not None:
            k = _kind(dev)
            if k == "mps":
                kw = dict(kwargs)
                kw["device"] = "cpu"
                return self._to_device(func, args, kw)
            if k == "cuda":
                self._cuda(f"{getattr(func, '__name__', func)}(device='cuda')")
        return func(*args, **kwargs)


def _h_device(mode: FakeMpsMode, func, args, kwargs):
    return MPS_DEVICE if mode.rec.on_device(args[0]) else func(*args, **kwargs)


def _h_is_mps(mode: FakeMpsMode, func, args, kwargs):
    return mode.rec.on_device(args[0]) or func(*args, **kwargs)


def _h_is_cpu(mode: FakeMpsMode, func, args, kwargs):
    return (not mode.rec.on_device(args[0])) and func(*args, **kwargs)


def _h_get_device(mode: FakeMpsMode, func, args, kwargs):
    return 0 if mode.rec.on_device(args[0]) else func(*args, **kwargs)


def _h_to(mode: FakeMpsMode, func, args, kwargs):
    return mode._tensor_to(func, args, kwargs)


def _h_cpu(mode: FakeMpsMode, func, args, kwargs):
    if mode.rec.on_device(args[0]):
        return mode._to_host(torch.Tensor.to, (args[0],), {"device": "cpu", "copy": True})
    return func(*args, **kwargs)


def _h_cuda(mode: FakeMpsMode, func, args, kwargs):
    mode._cuda("torch.Tensor.cuda")


def _h_new_tensor(mode: FakeMpsMode, func, args, kwargs):
    if kwargs.get("device") is None and mode.rec.on_device(args[0]):
        return mode._to_device(func, args, kwargs)  # a new tensor on self's device
    return mode._generic(func, args, kwargs)


def _h_pin_memory(mode: FakeMpsMode, func, args, kwargs):
    return args[0]  # unified memory: nothing to pin (and no CUDA driver to ask here)


def _h_numpy(mode: FakeMpsMode, func, args, kwargs):
    if mode.rec.on_device(args[0]):
        raise TypeError("can't convert mps:0 device type tensor to numpy. Use Tensor.cpu() to "
                        "copy the tensor to host memory first.")
    return func(*args, **kwargs)


_HANDLERS: Dict[Any, Callable[..., Any]] = {
    _TB.device.__get__: _h_device,
    _TB.is_mps.__get__: _h_is_mps,
    _TB.is_cpu.__get__: _h_is_cpu,
    _TB.get_device: _h_get_device,
    _TB.to: _h_to,
    _TB.cpu: _h_cpu,
    _TB.cuda: _h_cuda,
    _TB.numpy: _h_numpy,
    _TB.pin_memory: _h_pin_memory,
    _TB.new_tensor: _h_new_tensor,
}


class _Patches:
    """Attribute replacements undone in reverse order."""

    def __init__(self) -> None:
        self._undo: List[Tuple[Any, str, Any]] = []

    def set(self, obj: Any, name: str, value: Any) -> None:
        if obj is None or not hasattr(obj, name):
            return
        old = getattr(obj, name)
        if callable(old) and callable(value) and not hasattr(value, "__wrapped__"):
            try:
                value.__wrapped__ = old  # torch._dynamo reads it on import
            except AttributeError:
                pass
        self._undo.append((obj, name, old))
        setattr(obj, name, value)

    def undo(self) -> None:
        while self._undo:
            obj, name, old = self._undo.pop()
            setattr(obj, name, old)


def _const(v: Any) -> Callable[..., Any]:
    def f(*_a: Any, **_k: Any) -> Any:
        return v
    return f


def _compile_eager(rec: Recorder) -> Callable[..., Any]:
    def compile(model: Any = None, **_kw: Any) -> Any:
        rec.notes.append("torch.compile ran eagerly under the check: the trace sees eager "
                         "operators (on a Mac, Inductor generates its own Metal kernels)")
        if model is None:
            return lambda m: m
        return model

    return compile


def _walk_tensors(obj: Any, seen: int = 0) -> Any:
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, dict) and seen < 8:
        for v in obj.values():
            yield from _walk_tensors(v, seen + 1)
    elif isinstance(obj, (list, tuple)) and seen < 8:
        for v in obj:
            yield from _walk_tensors(v, seen + 1)


def _names_mps(loc: Any) -> bool:
    if isinstance(loc, dict):
        return any(_kind(v) == "mps" for v in loc.values())
    return _kind(loc) == "mps"


def _patch_load(p: _Patches, rec: Recorder) -> None:
    """torch.load(..., map_location="mps"): loaded on the CPU, its tensors marked as on the
    device; a float64 tensor in the checkpoint is what a Mac refuses."""
    real = torch.load

    @functools.wraps(real)
    def load(f: Any, map_location: Any = None, *a: Any, **k: Any) -> Any:
        if not _names_mps(map_location):
            return real(f, map_location, *a, **k)
        obj = real(f, "cpu", *a, **k)
        for t in _walk_tensors(obj):
            rec.tag(t)
            d = str(t.dtype)[6:]
            if d in ("float64", "complex128"):
                rec.add("float64", "torch.load", "", (d,), "a float64 tensor in the checkpoint "
                        "loaded with map_location='mps'")
                break
        return obj

    p.set(torch, "load", load)


def patch_mac(p: _Patches, rec: Recorder) -> None:
    """The program sees a Mac with MPS and without CUDA; torch.compile runs eagerly."""
    p.set(torch.backends.mps, "is_available", _const(True))
    p.set(torch.backends.mps, "is_built", _const(True))
    for name in ("is_macos13_or_newer", "is_macos_or_newer"):
        p.set(torch.backends.mps, name, _const(True))
    p.set(torch.backends.mps, "get_name", _const("Apple GPU (simulated by gpuport mps-check)"))
    p.set(torch.backends.mps, "get_core_count", _const(8))
    mps = getattr(torch, "mps", None)
    for name, value in (("is_available", True), ("device_count", 1), ("synchronize", None),
                        ("empty_cache", None), ("manual_seed", None), ("seed", None),
                        ("current_allocated_memory", 0), ("driver_allocated_memory", 0),
                        ("recommended_max_memory", 0), ("set_per_process_memory_fraction", None)):
        p.set(mps, name, _const(value))
    p.set(torch.cuda, "is_available", _const(False))
    p.set(torch.cuda, "device_count", _const(0))

    def cuda_init() -> None:  # every torch.cuda call that needs the runtime starts here
        rec.add("stop", "torch.cuda", "", (), "CUDA runtime call (torch.cuda.*)")
        raise CudaOnMac("Torch not compiled with CUDA enabled")

    p.set(torch.cuda, "_lazy_init", cuda_init)
    p.set(torch, "compile", _compile_eager(rec))
    _patch_load(p, rec)
    real_set = torch.set_default_device

    def set_default_device(device: Any) -> None:
        rec.default_mps = _kind(device) == "mps"
        real_set(None if rec.default_mps else device)

    p.set(torch, "set_default_device", set_default_device)
    real_get = getattr(torch, "get_default_device", None)
    if real_get is not None:
        p.set(torch, "get_default_device",
              lambda: MPS_DEVICE if rec.default_mps else real_get())

    class Generator(torch.Generator):  # a generator "on mps" draws on the CPU
        def __new__(cls, device: Any = "cpu") -> Any:
            return super().__new__(cls, device="cpu" if _kind(device) == "mps" else device)

    p.set(torch, "Generator", Generator)

    class autocast(torch.amp.autocast_mode.autocast):  # MPS autocast: the CPU's, same dtype
        def __init__(self, device_type: str, dtype: Any = None, enabled: bool = True,
                     cache_enabled: Any = None) -> None:
            if _kind(device_type) == "mps":
                device_type = "cpu"
                dtype = dtype or torch.float16
            super().__init__(device_type, dtype=dtype, enabled=enabled,
                             cache_enabled=cache_enabled)

    p.set(torch, "autocast", autocast)
    p.set(torch.amp, "autocast", autocast)


def patch_stops(p: _Patches, rec: Recorder) -> None:
    """Things a Mac cannot have: an NCCL process group."""
    dist = getattr(torch, "distributed", None)
    if dist is None or not hasattr(dist, "init_process_group"):
        return
    real = dist.init_process_group

    @functools.wraps(real)
    def init_process_group(backend: Any = None, *a: Any, **k: Any) -> Any:
        b = str(backend or k.get("backend") or "")
        if "nccl" in b.lower():
            rec.add("stop", "torch.distributed.init_process_group", "", (),
                    "NCCL process group: NCCL exists only for CUDA; use backend='gloo'")
            raise RuntimeError("Distributed package doesn't have NCCL built in")
        return real(backend, *a, **k)

    p.set(dist, "init_process_group", init_process_group)


def patch_threads(p: _Patches, enter: Callable[[], Any]) -> None:
    """Threads the program starts run under the same modes (modes are per thread)."""
    real_run = threading.Thread.run

    def run(self: threading.Thread) -> None:
        with enter():
            real_run(self)

    p.set(threading.Thread, "run", run)
