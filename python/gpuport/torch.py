"""Dialect kernels as functions on PyTorch tensors: :func:`kernel_function` turns a ``GP_KERNEL``
into a function that takes the kernel's inputs as tensors (and numbers), allocates its outputs like
its inputs, launches the kernel on the tensors' device — ``cuda:N`` on torch's current stream,
``mps`` on Metal, ``cpu`` on gpuport's CPU backend — in place, and returns the outputs.
:func:`custom_op` registers such a function with ``torch.library`` (with a fake implementation,
so ``torch.compile`` can trace it). Outputs carry no autograd history: the kernel has no
derivative.

    import gpuport.torch as gpt
    add = gpt.kernel_function(SOURCE, "add", outputs=["out"], sizes={"n": lambda a, b: a.numel()})
    out = add(a, b)                     # out = torch.empty_like(a), filled by the kernel
"""

from __future__ import annotations

import inspect
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

try:
    import torch
except ImportError as _e:  # pragma: no cover - exercised where torch is missing
    raise ImportError(f"gpuport.torch works on PyTorch tensors, and torch is not installed ({_e}); "
                      "install it (pip install torch)") from _e

import numpy as np

from .interop import default_device
from .runtime import ArgInfo, Device, Kernel, Program

Grid = Union[int, Sequence[int], Callable[..., Any], None]

_SCHEMA_VALUE = {"f": "float", "i": "int", "u": "int"}


def _torch_dtype(dt: np.dtype) -> Any:
    t = getattr(torch, dt.name, None) if dt.name != "bool" else torch.bool
    if t is None:
        raise TypeError(f"{dt} has no torch dtype")
    return t


class KernelFunction:
    """A dialect kernel as a function on tensors; see :func:`kernel_function`."""

    def __init__(self, source: Union[str, Kernel], kernel: Optional[str], outputs: Sequence[str],
                 like: Optional[Mapping[str, str]], sizes: Optional[Mapping[str, Callable[..., Any]]],
                 grid: Grid, group: Any, defines: Optional[Mapping[str, Any]], source_name: str,
                 cpu_device: str):
        self._source = source
        self._given = source if isinstance(source, Kernel) else None
        if self._given is None and not kernel:
            raise TypeError("kernel_function needs the kernel's name beside its source")
        self._name = kernel or self._given.name  # type: ignore[union-attr]
        self._defines = defines
        self._source_name = source_name
        self._cpu = cpu_device
        self._kernels: Dict[str, Kernel] = {}
        self._lock = threading.Lock()
        sig = self._kernel(self._first_device()).signature
        names = [p.name for p in sig]
        self.signature: List[ArgInfo] = sig
        self.outputs = list(outputs)
        for o in self.outputs:
            p = next((p for p in sig if p.name == o), None)
            if p is None or p.kind != "buffer":
                raise ValueError(f"{self._name}: output '{o}' must name a GP_BUF parameter "
                                 f"(the kernel's parameters: {', '.join(names)})")
        self.sizes = dict(sizes or {})
        for s in self.sizes:
            p = next((p for p in sig if p.name == s), None)
            if p is None or p.kind != "value":
                raise ValueError(f"{self._name}: sizes['{s}'] must name a GP_VAL parameter")
        self.inputs = [p for p in sig if p.name not in self.outputs and p.name not in self.sizes
                       and p.kind != "dyn_shared"]
        tensors = [p.name for p in self.inputs if p.kind in ("buffer", "const_buffer")]
        if not tensors and any(o not in (like or {}) for o in self.outputs):
            raise ValueError(f"{self._name}: no tensor input to allocate the outputs like; give like=")
        self.like = {o: (like or {}).get(o, tensors[0] if tensors else "") for o in self.outputs}
        self.grid = grid
        self.group = group
        self.__name__ = self._name
        self.__signature__ = inspect.Signature(
            [inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in self.inputs])

    def _first_device(self) -> Device:
        """Where the signature is read (by building the kernel): the kernel's own device, else
        the best device here, where the function is the most likely to run."""
        return self._given.program.device if self._given is not None else default_device("auto")

    def _kernel(self, dev: Device) -> Kernel:
        if self._given is not None:
            if dev is not self._given.program.device and dev.info.spec != self._given.program.device.info.spec:
                raise ValueError(f"{self._name} was built for {self._given.program.device.info.spec}; "
                                 f"the tensors are on {dev.info.spec}: pass the source instead of a "
                                 "kernel to build it for every device")
            return self._given
        with self._lock:
            k = self._kernels.get(dev.info.spec)
            if k is None:
                prog: Program = dev.program(self._source, self._defines, name=self._source_name)  # type: ignore[arg-type]
                k = self._kernels[dev.info.spec] = prog.kernel(self._name)
            return k

    def device_for(self, t: Any) -> Device:
        """The gpuport device for a tensor's device."""
        kind = t.device.type
        if kind == "cuda":
            return default_device(f"cuda:{t.device.index if t.device.index is not None else 0}")
        if kind == "mps":
            return default_device("metal")
        if kind == "cpu":
            return default_device(self._cpu)
        raise ValueError(f"{self._name}: gpuport does not run kernels on {kind} tensors")

    def _bind(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
        names = [p.name for p in self.inputs]
        if len(args) > len(names):
            raise TypeError(f"{self._name} takes {len(names)} arguments ({', '.join(names)}), got {len(args)}")
        bound = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in bound:
                raise TypeError(f"{self._name}: unexpected or repeated argument '{k}'")
            bound[k] = v
        missing = [n for n in names if n not in bound]
        if missing:
            raise TypeError(f"{self._name}: missing argument(s) {', '.join(missing)}")
        return bound

    def allocate(self, bound: Mapping[str, Any]) -> Dict[str, Any]:
        """The outputs for these inputs: each shaped like its ``like`` input, with the element
        type of its parameter, on that input's device."""
        out = {}
        for o in self.outputs:
            ref = bound[self.like[o]]
            p = next(p for p in self.signature if p.name == o)
            dt = _torch_dtype(p.dtype) if p.dtype is not None else ref.dtype
            out[o] = torch.empty(ref.shape, dtype=dt, device=ref.device)
        return out

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _run_eagerly(self, args, kwargs)

    def _run(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
        bound = self._bind(args, kwargs)
        tensors = [v for v in bound.values() if isinstance(v, torch.Tensor)]
        if not tensors:
            raise TypeError(f"{self._name}: no tensor among the arguments")
        dev = self.device_for(tensors[0])
        k = self._kernel(dev)
        with torch.no_grad():
            outs = self.allocate(bound)
            full: Dict[str, Any] = dict(bound)
            full.update(outs)
            for name, fn in self.sizes.items():
                full[name] = fn(*[bound[p.name] for p in self.inputs])
            grid = self.grid
            if callable(grid):
                grid = grid(*[bound[p.name] for p in self.inputs])
            elif grid is None:
                first = next(iter(outs.values()), tensors[0])
                grid = max(1, first.numel())
            k(grid, *[full[p.name] for p in self.signature if p.kind != "dyn_shared"],
              group=self.group)
        vals = [outs[o] for o in self.outputs]
        if not vals:
            return None  # as a Python function that only changes its arguments
        return vals[0] if len(vals) == 1 else tuple(vals)

    def schema(self) -> str:
        """The torch.library schema of the function: tensors and numbers in, the outputs out;
        GP_BUF inputs that are not outputs are mutated (``Tensor(a!)``)."""
        parts = []
        alias = iter("abcdefghijklmnop")
        for p in self.inputs:
            if p.kind == "buffer":
                parts.append(f"Tensor({next(alias)}!) {p.name}")
            elif p.kind == "const_buffer":
                parts.append(f"Tensor {p.name}")
            else:
                kind = _SCHEMA_VALUE.get(p.dtype.kind if p.dtype is not None else "")
                if kind is None or p.lanes > 1:
                    raise TypeError(f"{self._name}: parameter '{p.name}' ({p.type_name}) has no "
                                    "torch.library type; give it through sizes=")
                parts.append(f"{kind} {p.name}")
        outs = ", ".join("Tensor" for _ in self.outputs)
        ret = "()" if not self.outputs else (outs if len(self.outputs) == 1 else f"({outs})")
        return f"({', '.join(parts)}) -> {ret}"


def _call(fn: KernelFunction, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
    return fn._run(args, kwargs)


# torch.compile cannot trace a launch (ctypes calls, data pointers): a kernel_function is a graph
# break there, run eagerly between the compiled pieces, with the same results. custom_op keeps
# the kernel inside the graph (an opaque operator with a fake implementation).
_REASON = ("a gpuport kernel_function launches through ctypes on data pointers, which "
           "torch.compile cannot trace: it runs eagerly between the compiled pieces; to keep the "
           "kernel in the graph (fullgraph=True), register it with gpuport.torch.custom_op")
_disable = getattr(getattr(torch, "compiler", None), "disable", None)
if _disable is None:
    _run_eagerly = _call
else:
    try:
        _run_eagerly = _disable(_call, reason=_REASON)
    except TypeError:  # torch before 2.6 takes no reason
        _run_eagerly = _disable(_call)


def kernel_function(source: Union[str, Kernel], kernel: Optional[str] = None, *,
                    outputs: Sequence[str] = (), like: Optional[Mapping[str, str]] = None,
                    sizes: Optional[Mapping[str, Callable[..., Any]]] = None, grid: Grid = None,
                    group: Any = None, defines: Optional[Mapping[str, Any]] = None,
                    source_name: str = "kernel.gpk", cpu_device: str = "cpu") -> KernelFunction:
    """A function on tensors that runs ``kernel`` of ``source`` (dialect source, built once per
    device the function meets; or a built gpuport Kernel, for its device only).

    - ``outputs``: GP_BUF parameters the function allocates and returns (each like the input
      ``like[name]``, by default the first tensor input: same shape and device, the parameter's
      element type). The other parameters are the function's arguments, in signature order.
    - ``sizes``: GP_VAL parameters computed from the arguments (``{"n": lambda x, y: x.numel()}``)
      instead of passed.
    - ``grid``: work-items, or a function of the arguments giving them; by default the first
      output's number of elements. ``group`` as for a launch.
    - ``cpu_device``: the gpuport device for CPU tensors ("cpu", or "opencl" for PoCL).
    """
    return KernelFunction(source, kernel, outputs, like, sizes, grid, group, defines, source_name,
                          cpu_device)


def custom_op(qualname: str, source: Union[str, Kernel], kernel: Optional[str] = None, *,
              outputs: Sequence[str] = (), like: Optional[Mapping[str, str]] = None,
              sizes: Optional[Mapping[str, Callable[..., Any]]] = None, grid: Grid = None,
              group: Any = None, defines: Optional[Mapping[str, Any]] = None,
              source_name: str = "kernel.gpk", cpu_device: str = "cpu") -> Any:
    """:func:`kernel_function` registered as the PyTorch operator ``qualname`` ("mylib::add"):
    callable as ``torch.ops.mylib.add(...)``, with a fake implementation that allocates the
    outputs, so ``torch.compile`` can trace through it. Needs ``torch.library.custom_op``
    (PyTorch 2.4+)."""
    fn = kernel_function(source, kernel, outputs=outputs, like=like, sizes=sizes, grid=grid,
                         group=group, defines=defines, source_name=source_name,
                         cpu_device=cpu_device)
    lib = getattr(torch, "library", None)
    if lib is None or not hasattr(lib, "custom_op"):
        raise RuntimeError(f"torch {torch.__version__} has no torch.library.custom_op (PyTorch 2.4+)")
    mutated = tuple(p.name for p in fn.inputs if p.kind == "buffer")

    def impl(*args: Any) -> Any:
        return fn(*args)

    op = lib.custom_op(qualname, impl, mutates_args=mutated, schema=fn.schema())

    def fake(*args: Any) -> Any:
        outs = list(fn.allocate(fn._bind(args, {})).values())
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)

    op.register_fake(fake)
    return op


def mps_check(as_device: str = "mps", fallback: Optional[bool] = None) -> Any:
    """A context manager that traces the operators run inside it and judges them for Apple's MPS
    backend (docs/mps-check.md): off a Mac, `mps` tensors work there (computed on the CPU).

        with gpuport.torch.mps_check() as check:
            train_step(model.to("mps"), batch)
        report = check.report()          # schema gpuport.mps-check/1; report["verdict"]
    """
    from .mps.check import Check

    return Check(as_device=as_device, fallback=fallback)
