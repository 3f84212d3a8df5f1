"""The MPS tables of the installed torch: which ATen operators have an MPS kernel, which decompose,
and which dtypes MPS refuses — read from the wheel itself (``torchgen/packaged/.../
native_functions.yaml`` and ``torch/testing/_internal/common_mps.py``), never from a hand list,
so a prediction moves with the torch it runs under. :func:`load` returns one :class:`Tables`."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

COMPOSITE_KEYS = ("CompositeImplicitAutograd", "CompositeExplicitAutograd",
                  "CompositeExplicitAutogradNonFunctional")

# Operators a CPU trace reaches where the MPS build takes another kernel chosen by device inside a
# composite: the CPU flash-attention path of scaled_dot_product_attention is the math kernel
# `_scaled_dot_product_attention_math_for_mps` on a Mac. Mapped to the operator MPS runs instead;
# used only when that operator has an MPS kernel in the installed table.
DEVICE_CHOSEN = {
    "_scaled_dot_product_flash_attention_for_cpu": "_scaled_dot_product_attention_math_for_mps",
    "_scaled_dot_product_flash_attention_for_cpu_backward":
        "_scaled_dot_product_attention_math_for_mps",
}

# CPU implementation choices a CPU trace reaches inside composite operators (oneDNN's LSTM layer
# and convolutions, NNPACK, the slow reference convolutions): on a Mac the same composite takes
# its MPS kernel (`_lstm_mps`, `_mps_convolution`), so these names never reach MPS.
CPU_IMPLEMENTATION_PREFIXES = ("mkldnn_", "_mkldnn", "_nnpack", "slow_conv", "_slow_conv",
                               "thnn_conv", "_thnn_conv")

# Operators MPSFallback.mm sends to the CPU even without PYTORCH_ENABLE_MPS_FALLBACK. The list
# lives in the macOS library, not in the wheel's tables; this is what the shipped libraries of the
# torch versions named held (read from the library), keyed by the first version it applies to.
ALWAYS_CPU_SINCE = [((2, 0), frozenset({"embedding_renorm_"}))]

# OpInfo names of PyTorch's MPS test lists that do not match an ATen operator name once
# "nn.functional." and "linalg." are rewritten: the ATen operators the trace sees for them.
OPINFO_ALIASES = {
    "batch_norm": ("native_batch_norm", "_native_batch_norm_legit",
                   "_native_batch_norm_legit_no_training"),
    "avg_pool1d": ("avg_pool2d",),  # avg_pool1d decomposes into the 2-d kernel
    "huber_loss": ("huber_loss", "huber_loss_backward"),
    "glu": ("glu", "glu_backward"),
    "linalg_eigvals": ("_linalg_eigvals",),
    "conv1d": ("convolution", "convolution_backward"),
    "conv2d": ("convolution", "convolution_backward"),
    "conv3d": ("convolution", "convolution_backward"),
    "conv_transpose1d": ("convolution", "convolution_backward"),
    "conv_transpose2d": ("convolution", "convolution_backward"),
    "conv_transpose3d": ("convolution", "convolution_backward"),
    "max_pool2d": ("max_pool2d_with_indices",),
    "max_pool3d": ("max_pool3d_with_indices",),
    "bincount": (),  # listed because the CPU reference returns float64, not a refusal

}

# Only the integer and bool entries of the test lists are read as "the kernel refuses this dtype":
# the lists' other entries (a whole op, or float32 for one shape) also cover shape limits and
# numerical mismatches, which a dtype rule would report wrongly.
INTEGER_DTYPES = frozenset({"bool", "uint8", "int8", "int16", "int32", "int64", "uint16",
                            "uint32", "uint64"})

DOUBLE_DTYPES = frozenset({"float64", "complex128"})
COMPLEX_DTYPES = frozenset({"complex64", "complex32"})


class TablesError(Exception):
    """The installed torch has no usable MPS table; the message names what to install."""


@dataclass
class Tables:
    torch_version: str
    yaml_path: str
    testlist_path: Optional[str]
    mps: Set[str] = field(default_factory=set)          # "add.Tensor": has an MPS kernel
    composite: Set[str] = field(default_factory=set)    # decomposes or works where callees do
    known: Set[str] = field(default_factory=set)        # every operator in the yaml
    backends: Dict[str, Tuple[str, ...]] = field(default_factory=dict)
    unimplemented: Dict[str, FrozenSet[str]] = field(default_factory=dict)
    no_complex: Set[str] = field(default_factory=set)
    always_cpu: FrozenSet[str] = frozenset()
    unimplemented_read: bool = False

    def status(self, base: str, overload: str) -> str:
        """'mps', 'composite', 'missing' (no MPS kernel, no decomposition) or 'unknown'."""
        key = base if overload in ("", "default") else f"{base}.{overload}"
        if key in self.mps:
            return "mps"
        if key in self.composite:
            return "composite"
        if key in self.known:
            return "missing"
        return "unknown"

    def refused_dtype(self, base: str, dtypes: Tuple[str, ...]) -> Optional[str]:
        """The dtype PyTorch's own MPS test list says `base` refuses, or None. The lists give the
        dtype of the op's input (its first tensor; indices and targets are not what they mean)."""
        listed = self.unimplemented.get(base.rstrip("_"))
        if not listed:
            return None
        for d in dtypes[:1]:
            if d in listed:
                return d
        return None

    def counts(self) -> Dict[str, int]:
        return {"operators": len(self.known), "mps_kernels": len(self.mps),
                "composite": len(self.composite),
                "missing": len(self.known - self.mps - self.composite)}


def _yaml_path(torchgen_dir: str) -> str:
    return os.path.join(torchgen_dir, "packaged", "ATen", "native", "native_functions.yaml")


def _read_yaml(path: str) -> list:
    import yaml  # torchgen's own dependency: a torch wheel installs it

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=loader)


def _dispatch_keys(entry: dict) -> Set[str]:
    keys: Set[str] = set()
    for k in (entry.get("dispatch") or {}):
        keys.update(p.strip() for p in str(k).split(","))
    return keys


def _fill_kernels(t: Tables, entries: list) -> None:
    by_name: Dict[str, dict] = {}
    for e in entries:
        func = e.get("func") if isinstance(e, dict) else None
        if isinstance(func, str):
            by_name[func.split("(", 1)[0].strip()] = e
    for name, e in by_name.items():
        keys = _dispatch_keys(e)
        delegate = e.get("structured_delegate")
        if delegate and delegate in by_name:
            keys |= _dispatch_keys(by_name[delegate])
        if not e.get("dispatch") and not delegate:
            keys.add("CompositeImplicitAutograd")
        t.known.add(name)
        t.backends[name] = tuple(sorted(keys))
        if "MPS" in keys:
            t.mps.add(name)
        elif keys.intersection(COMPOSITE_KEYS):
            t.composite.add(name)
    for name in t.known - t.mps - t.composite:
        if name.startswith(CPU_IMPLEMENTATION_PREFIXES):
            t.composite.add(name)
    for cpu_op, mps_op in DEVICE_CHOSEN.items():
        if mps_op in t.mps and cpu_op in t.known:
            t.composite.add(cpu_op)


def _opinfo_to_aten(name: str) -> Tuple[str, ...]:
    n = name.replace("nn.functional.", "").replace("linalg.", "linalg_").replace(".", "_")
    return tuple(OPINFO_ALIASES.get(n, (n,)))


def _literal_dtypes(node: ast.AST) -> FrozenSet[str]:
    out = set()
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        for el in node.elts:
            if isinstance(el, ast.Attribute) and el.attr in INTEGER_DTYPES:
                out.add(el.attr)
    return frozenset(out)


def _fill_testlists(t: Tables, path: str) -> None:
    """Reads PyTorch's MPS test lists without importing them (they import the test suite)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        target, value = None, None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if not isinstance(target, ast.Name) or value is None:
            continue
        if target.id == "UNIMPLEMENTED_XFAILLIST" and t.unimplemented_read:
            continue  # the first function's list: the later ones are the grad and sparse stubs
        if target.id == "UNIMPLEMENTED_XFAILLIST" and isinstance(value, ast.Dict):
            for k, v in zip(value.keys, value.values):
                dtypes = _literal_dtypes(v)
                if isinstance(k, ast.Constant) and isinstance(k.value, str) and dtypes:
                    for aten in _opinfo_to_aten(k.value):
                        t.unimplemented[aten] = t.unimplemented.get(aten, frozenset()) | dtypes
            t.unimplemented_read = True
        elif target.id == "UNSUPPORTED_COMPLEX_OPS" and isinstance(value, (ast.Set, ast.List)):
            for el in value.elts:
                if isinstance(el, ast.Constant) and isinstance(el.value, str):
                    t.no_complex.update(_opinfo_to_aten(el.value))


def _version_tuple(v: str) -> Tuple[int, ...]:
    m = re.match(r"(\d+)\.(\d+)", v)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


_CACHE: Dict[str, Tables] = {}


def load() -> Tables:
    """The tables of the torch this interpreter imports (read once per process)."""
    try:
        import torch
    except ImportError as e:
        raise TablesError(f"torch is not installed ({e}): install it (pip install torch)") from e
    version = str(torch.__version__).split("+")[0]
    if _version_tuple(version) < (1, 12):
        raise TablesError(f"torch {version} predates the MPS backend (1.12): install torch 2.x "
                          "(pip install -U torch)")
    if version in _CACHE:
        return _CACHE[version]
    try:
        import torchgen
    except ImportError as e:
        raise TablesError(f"torch {version} ships no torchgen ({e}), so no operator table: "
                          "install a torch 2.x wheel from PyPI (pip install -U torch)") from e
    path = _yaml_path(os.path.dirname(torchgen.__file__))
    if not os.path.isfile(path):
        raise TablesError(f"{path}: missing — this torch {version} ships no packaged "
                          "native_functions.yaml; install a torch 2.x wheel from PyPI")
    try:
        entries = _read_yaml(path)
    except Exception as e:  # noqa: BLE001 - any parse failure is the same message
        raise TablesError(f"{path}: cannot read the operator table ({e})") from e
    if not isinstance(entries, list):
        raise TablesError(f"{path}: not a list of operators")
    testlist = os.path.join(os.path.dirname(torch.__file__), "testing", "_internal",
                            "common_mps.py")
    t = Tables(torch_version=version, yaml_path=path,
               testlist_path=testlist if os.path.isfile(testlist) else None)
    _fill_kernels(t, entries)
    if t.testlist_path:
        try:
            _fill_testlists(t, t.testlist_path)
        except (SyntaxError, ValueError, OSError):
            t.testlist_path = None
    vt = _version_tuple(version)
    always: Set[str] = set()
    for since, ops in ALWAYS_CPU_SINCE:
        if vt >= since:
            always |= ops
    t.always_cpu = frozenset(always)
    _CACHE[version] = t
    return t


def missing_operators(t: Tables) -> List[str]:
    """Every operator with neither an MPS kernel nor a decomposition, sorted."""
    return sorted(t.known - t.mps - t.composite)
