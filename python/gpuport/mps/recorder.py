"""The recorder: a TorchDispatchMode that sees every ATen call (forward, backward, optimizer) with
its overload and dtypes, decides from the tables whether MPS would run it, and keeps each problem
once per (operator, dtypes, user line) with a count. Which tensors are "on the device" is marked on
their storage (an attribute of the storage's Python object, which lives exactly as long as the
storage: the recorder holds no tensor alive): storages made by a move to mps or a factory on mps,
and every storage an operator on device tensors makes. The fake device itself
(mps on a machine without one) is in fakedevice.py; it tells the recorder about moves."""

from __future__ import annotations

import os
import sys
import sysconfig
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from .tables import COMPLEX_DTYPES, DOUBLE_DTYPES, Tables

# Namespaces that are PyTorch's own (prims and the functional collectives have no device rule).
_TORCH_NAMESPACES = frozenset({"aten", "prim", "prims", "_c10d_functional", "c10d", "profiler",
                               "_c10d_functional_autograd", "debugprims", "inductor", "higher_order"})

KINDS = {
    "no-mps-kernel": "no MPS kernel",
    "always-cpu": "always runs on the CPU on MPS",
    "float64": "float64 on the MPS device",
    "complex": "complex dtype MPS does not support here",
    "dtype": "dtype the MPS kernel refuses",
    "custom-op": "custom operator without an MPS kernel",
    "stop": "cannot run on a Mac",
}

_FIX_BY_OP = {
    "linalg_eig": "if the matrix is symmetric use torch.linalg.eigh (MPS has it); otherwise compute "
                  "this call on the CPU: torch.linalg.eig(x.cpu())",
    "_linalg_eigvals": "torch.linalg.eigvalsh for a symmetric matrix; otherwise "
                       "torch.linalg.eigvals(x.cpu())",
    "mode": "compute it on the CPU (x.cpu().mode(...)) and move the result back",
    "_pdist_forward": "torch.cdist(x, x) has an MPS kernel (take the upper triangle)",
    "multi_margin_loss": "compute the loss on the CPU, or write it from clamp/gather (composite)",
    "rrelu_with_noise": "nn.LeakyReLU has an MPS kernel",
    "embedding_renorm_": "drop max_norm from nn.Embedding, or renormalise the weight yourself",
}


def _fix(kind: str, base: str, dtype: str = "") -> str:
    if kind in ("no-mps-kernel", "always-cpu"):
        own = _FIX_BY_OP.get(base)
        generic = ("run this call on the CPU (x.cpu()) and move the result back, or set "
                   "PYTORCH_ENABLE_MPS_FALLBACK=1 before torch is imported — and record that it "
                   "was set")
        return f"{own}; or {generic}" if own else generic
    if kind == "float64":
        return ("make it float32 before it reaches the device: x.float().to(device), "
                "torch.from_numpy(a).float(), dtype=torch.float32 at creation")
    if kind == "complex":
        return "compute this call on the CPU, or carry the real and imaginary parts as float32"
    if kind == "dtype":
        return f"cast the {dtype} input to float32 before this call (x.float())"
    if kind == "stop" and "NCCL" in dtype:
        return "use the gloo backend (init_process_group('gloo')), or train in one process"
    if kind == "stop":
        return ("choose the device instead of naming cuda: torch.device('mps' if "
                "torch.backends.mps.is_available() else 'cpu'), or gpuport.torch_device()")
    if kind == "custom-op":
        return ("register an MPS kernel for it (torch.library.register_kernel(..., 'mps')) or a "
                "CPU kernel and PYTORCH_ENABLE_MPS_FALLBACK=1")
    return ""


def mac_message(kind: str, op: str, dtype: str = "", fallback: bool = False) -> str:
    """What a Mac says for this finding (PyTorch's own wording where it has one)."""
    if kind == "no-mps-kernel" and fallback:
        kind = "always-cpu"  # the same warning
    if kind == "no-mps-kernel":
        return (f"NotImplementedError: The operator '{op}' is not currently implemented for the "
                "MPS device.")
    if kind == "always-cpu":
        return (f"UserWarning: The operator '{op}' is not currently supported on the MPS backend "
                "and will fall back to run on the CPU.")
    if kind == "float64":
        return ("TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework "
                "doesn't support float64. Please use float32 instead.")
    if kind == "complex":
        return f"RuntimeError: {op} does not support complex inputs on MPS"
    if kind == "dtype":
        return f"RuntimeError: {op}: MPS does not support {dtype} inputs"
    if kind == "stop":
        return "AssertionError: Torch not compiled with CUDA enabled" if "CUDA" in dtype else \
            "RuntimeError: Distributed package doesn't have NCCL built in"
    if kind == "custom-op":
        return (f"NotImplementedError: Could not run '{op}' with arguments from the 'MPS' "
                "backend.")
    return ""


@dataclass
class Finding:
    kind: str
    operator: str            # "aten::linalg_eig"
    overload: str            # "default"
    dtypes: Tuple[str, ...]
    file: str
    line: int
    count: int = 0
    detail: str = ""         # the registered backends of a custom op, the refused dtype, ...
    forward_file: str = ""   # for a backward operator: the forward call that needs it
    forward_line: int = 0
    order: int = 0           # first seen (for "the first failure")

    def severity(self, fallback: bool) -> str:
        if self.kind == "always-cpu":
            return "fallback"
        if self.kind == "no-mps-kernel" or (self.kind == "custom-op" and "CPU" in self.detail):
            return "fallback" if fallback else "fails"
        return "fails"

    def as_dict(self, fallback: bool) -> Dict[str, Any]:
        base = self.operator.split("::", 1)[-1]
        d: Dict[str, Any] = {
            "kind": self.kind, "severity": self.severity(fallback), "operator": self.operator,
            "overload": self.overload, "dtypes": list(self.dtypes), "count": self.count,
            "file": self.file, "line": self.line,
            "message": mac_message(self.kind, self.operator, self.detail,
                                   self.severity(fallback) == "fallback"),
            "fix": _fix(self.kind, base, self.detail),
        }
        if self.detail:
            d["detail"] = self.detail
        if self.forward_line:
            d["forward"] = {"file": self.forward_file, "line": self.forward_line}
        return d


def _excluded_prefixes() -> Tuple[str, ...]:
    dirs = {os.path.dirname(torch.__file__), os.path.dirname(os.path.dirname(__file__))}
    for key in ("purelib", "platlib", "stdlib", "platstdlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(p)
    for p in list(sys.path):
        if p.endswith("site-packages") or p.endswith("dist-packages"):
            dirs.add(p)
    return tuple(os.path.realpath(d) + os.sep for d in dirs if d)


# Outputs that stay on the CPU by design (PackedSequence's batch_sizes), by operator.
_HOST_OUTPUTS = {"aten::_pack_padded_sequence": (1,)}


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.to_device = False   # inside a move to mps / a factory on mps
        self.to_host = False     # inside a move from mps to the CPU
        self.double_seen = False  # float64 already reported for this move / factory


class Recorder:
    """Holds what was seen; shared by the modes of every thread of the program."""

    def __init__(self, tables: Tables, device_test: str = "storage"):
        self.tables = tables
        self.device_test = device_test  # "storage" (fake mps), "mps" (a real Mac), "all" (--as cpu)
        self.token = object()  # the mark of this recorder's device storages
        self.default_mps = False  # torch.set_default_device("mps") on the simulated device
        self.state = _ThreadState()
        self.calls = 0
        self.device_calls = 0
        self.op_names: Dict[Any, int] = {}
        self.findings: Dict[Tuple[Any, ...], Finding] = {}
        self.forward_lines: Dict[str, Tuple[str, int]] = {}
        self.notes: List[str] = []
        self._cache: Dict[Tuple[Any, ...], Tuple[Tuple[str, str], ...]] = {}
        self._lock = threading.Lock()
        self._excluded = _excluded_prefixes()
        self._file_ok: Dict[str, bool] = {}
        self._order = 0
        self._needs_forward = self._forward_ops()
        self._func_info: Dict[Any, Tuple[bool, bool]] = {}

    def _forward_ops(self) -> Dict[str, str]:
        """forward operator -> its backward operator, where only the backward lacks MPS."""
        out = {}
        for name in self.tables.known - self.tables.mps - self.tables.composite:
            if name.endswith("_backward") or "_backward." in name:
                fwd = name.split(".", 1)[0][: -len("_backward")]
                if fwd in self.tables.known or fwd + ".default" in self.tables.known:
                    out[fwd] = name.split(".", 1)[0]
        return out

    # --- which tensors are on the device -------------------------------------------------------
    def tag(self, t: Any) -> None:
        if isinstance(t, torch.Tensor):
            try:
                t.untyped_storage()._gp_mps_device = self.token
            except (RuntimeError, TypeError, NotImplementedError, AttributeError):
                pass

    def on_device(self, t: Any) -> bool:
        if self.device_test == "all":
            return True
        if self.device_test == "mps":
            return t.device.type == "mps"
        try:
            return getattr(t.untyped_storage(), "_gp_mps_device", None) is self.token
        except (RuntimeError, TypeError, NotImplementedError):
            return False

    # --- where in the user's code ------------------------------------------------------------
    def _user_file(self, filename: str) -> bool:
        ok = self._file_ok.get(filename)
        if ok is None:
            if filename.startswith("<"):
                ok = filename in ("<stdin>", "<string>") or filename.startswith("<ipython")
            else:
                ok = not os.path.realpath(filename).startswith(self._excluded)
            self._file_ok[filename] = ok
        return ok

    def user_frame(self) -> Tuple[str, int]:
        f = sys._getframe(1)
        while f is not None:
            name = f.f_code.co_filename
            if self._user_file(name):
                return name, f.f_lineno
            f = f.f_back
        return "", 0

    def user_frame_of_traceback(self, tb: Any) -> Tuple[str, int]:
        found = ("", 0)
        while tb is not None:
            name = tb.tb_frame.f_code.co_filename
            if self._user_file(name):
                found = (name, tb.tb_lineno)
            tb = tb.tb_next
        return found

    # --- recording ---------------------------------------------------------------------------
    def _problems(self, func: Any, dtypes: Tuple[str, ...]) -> Tuple[Tuple[str, str], ...]:
        key = (func, dtypes)
        got = self._cache.get(key)
        if got is not None:
            return got
        out: List[Tuple[str, str]] = []
        schema = func._schema
        ns, base = schema.name.split("::", 1) if "::" in schema.name else ("aten", schema.name)
        t = self.tables
        if ns == "aten":
            st = t.status(base, schema.overload_name)
            if base in t.always_cpu or base.rstrip("_") in t.always_cpu:
                out.append(("always-cpu", ""))
            elif st == "missing":
                out.append(("no-mps-kernel", ""))
            refused = t.refused_dtype(base, dtypes)
            if refused:
                out.append(("dtype", refused))
            if base.rstrip("_") in t.no_complex and any(d in COMPLEX_DTYPES for d in dtypes):
                out.append(("complex", "complex64"))
        elif ns not in _TORCH_NAMESPACES:
            keys = []
            for k in ("MPS", "CPU", "CUDA", "CompositeImplicitAutograd",
                      "CompositeExplicitAutograd"):
                try:
                    if torch._C._dispatch_has_kernel_for_dispatch_key(schema.name, k):
                        keys.append(k)
                except RuntimeError:
                    pass
            if not {"MPS", "CompositeImplicitAutograd", "CompositeExplicitAutograd"} & set(keys):
                out.append(("custom-op", "registered: " + (", ".join(keys) or "no backend")))
        got = tuple(out)
        self._cache[key] = got
        return got

    def add(self, kind: str, func_name: str, overload: str, dtypes: Tuple[str, ...],
            detail: str = "", where: Optional[Tuple[str, int]] = None) -> None:
        file, line = where if where else self.user_frame()
        key = (kind, func_name, overload, dtypes, file, line)
        with self._lock:
            f = self.findings.get(key)
            if f is None:
                self._order += 1
                f = Finding(kind, func_name, overload, dtypes, file, line, detail=detail,
                            order=self._order)
                base = func_name.split("::", 1)[-1]
                if base.endswith("_backward"):
                    fw = self.forward_lines.get(base[: -len("_backward")])
                    if fw:
                        f.forward_file, f.forward_line = fw
                self.findings[key] = f
            f.count += 1

    def observe(self, func: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> bool:
        """Before the call: returns whether it runs on the device, and records its problems."""
        self.calls += 1
        on_dev = self.state.to_device
        tensors = []
        for a in args:
            if isinstance(a, torch.Tensor):
                tensors.append(a)
            elif isinstance(a, (list, tuple)):
                tensors.extend(x for x in a if isinstance(x, torch.Tensor))
        if kwargs:
            tensors.extend(a for a in kwargs.values() if isinstance(a, torch.Tensor))
        if not on_dev:
            for a in tensors:
                if self.on_device(a):
                    on_dev = True
                    break
            else:
                return False
        self.device_calls += 1
        self.op_names[func] = self.op_names.get(func, 0) + 1
        info = self._func_info.get(func)
        if info is None:
            info = self._classify(func)
        if info[0]:  # an operator whose verdict depends on the dtypes
            dtypes = tuple(str(a.dtype)[6:] for a in tensors)
            problems = self._problems(func, dtypes)
            if problems:
                name = func._schema.name
                ov = func._schema.overload_name or "default"
                for kind, detail in problems:
                    self.add(kind, name, ov, dtypes, detail)
        if info[1]:
            base = func._schema.name.split("::", 1)[-1]
            if base not in self.forward_lines:
                self.forward_lines[base] = self.user_frame()
        return True

    def _classify(self, func: Any) -> Tuple[bool, bool]:
        """(whether the operator can be a problem at all, whether its forward line is wanted)."""
        schema = func._schema
        ns, base = schema.name.split("::", 1) if "::" in schema.name else ("aten", schema.name)
        t = self.tables
        if ns != "aten":
            maybe = ns not in _TORCH_NAMESPACES
        else:
            maybe = (t.status(base, schema.overload_name) == "missing" or
                     base in t.always_cpu or base.rstrip("_") in t.always_cpu or
                     bool(t.unimplemented.get(base.rstrip("_"))) or
                     base.rstrip("_") in t.no_complex)
        info = (maybe, ns == "aten" and base in self._needs_forward)
        self._func_info[func] = info
        return info

    def after(self, func: Any, args: Tuple[Any, ...], out: Any) -> None:
        """After a device call: its new storages are on the device; float64 that appears here."""
        if self.state.to_host:
            return
        outs = out if isinstance(out, (list, tuple)) else (out,)
        host = _HOST_OUTPUTS.get(func._schema.name)
        if host:
            outs = tuple(o for k, o in enumerate(outs) if k not in host)
        new_double = None
        for o in outs:
            if isinstance(o, torch.Tensor):
                if self.device_test == "storage":
                    self.tag(o)
                d = str(o.dtype)[6:]
                if d in DOUBLE_DTYPES:
                    new_double = d
        if new_double is None:
            return
        # float64 that came in was reported where it reached the device; a float64 input that is
        # not on the device is a CPU scalar a composite made for itself (quantile's ranks: its
        # MPS path makes them float32), which a Mac never sees
        if not self.state.to_device:
            for a in args:
                if isinstance(a, torch.Tensor) and str(a.dtype)[6:] in DOUBLE_DTYPES:
                    return
        if self.state.to_device:
            if self.state.double_seen:
                return
            self.state.double_seen = True
        dtypes = tuple(str(a.dtype)[6:] for a in args if isinstance(a, torch.Tensor))
        self.add("float64", func._schema.name, func._schema.overload_name or "default",
                 dtypes, f"makes a {new_double} tensor on the device")


class RecordingMode(TorchDispatchMode):
    def __init__(self, rec: Recorder):
        super().__init__()
        self.rec = rec

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        rec = self.rec
        if not rec.observe(func, args, kwargs):
            return func(*args, **kwargs)
        out = func(*args, **kwargs)
        rec.after(func, args, out)
        return out
