"""``torch_device()``: the device-selection helper PyTorch users write by hand — cuda, then mps, then
cpu — that says what it chose and why. It never imports torch unless asked to choose."""

from __future__ import annotations

import logging
import os
import sys
import warnings
from typing import Any, List, Optional, Tuple

log = logging.getLogger("gpuport")

_ORDER = ("cuda", "mps", "cpu")


_UNKNOWN = object()
# PYTORCH_ENABLE_MPS_FALLBACK as it was when torch was imported (torch reads it only then).
_fallback_at_torch_import: Any = _UNKNOWN


class _TorchImportWatcher:
    """A meta-path finder that finds nothing: it only notes the variable when torch is imported."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        global _fallback_at_torch_import
        if fullname == "torch" and _fallback_at_torch_import is _UNKNOWN:
            _fallback_at_torch_import = os.environ.get("PYTORCH_ENABLE_MPS_FALLBACK")
        return None


if "torch" in sys.modules:
    # Imported before gpuport: if the variable is unset now, any later setting comes too late.
    _fallback_at_torch_import = os.environ.get("PYTORCH_ENABLE_MPS_FALLBACK")
else:
    sys.meta_path.insert(0, _TorchImportWatcher())


def _fallback_set_too_late() -> bool:
    """True when PYTORCH_ENABLE_MPS_FALLBACK is set now but was not when torch was imported."""
    return (os.environ.get("PYTORCH_ENABLE_MPS_FALLBACK") is not None
            and "torch" in sys.modules and _fallback_at_torch_import is None)


def _import_torch() -> Any:
    try:
        import torch  # imported only because the caller asked to choose
    except ImportError as e:
        raise ImportError(f"torch_device() chooses a device for PyTorch, and torch is not installed "
                          f"({e}); install it (pip install torch) or use gpuport.Device for "
                          "gpuport's own devices") from e
    return torch


def choose(prefer: Optional[str] = None, torch: Any = None) -> Tuple[str, List[str]]:
    """The device string torch should use, and the reasons, one per backend considered.
    ``torch`` is the module (imported here only when not given). A ``prefer`` that cannot be
    honoured is warned about (RuntimeWarning, with the reason) before the next backend is
    chosen."""
    if torch is None:
        torch = _import_torch()
    reasons: List[str] = []
    order = list(_ORDER)
    if prefer:
        base = prefer.split(":")[0]
        if base not in _ORDER:
            raise ValueError(f"unknown device {prefer!r}; expected cuda, cuda:N, mps or cpu")
        order = [base] + [d for d in _ORDER if d != base]
    for dev in order:
        if dev == "cuda":
            if not torch.cuda.is_available():
                built = getattr(torch.version, "cuda", None)
                reasons.append("cuda: not available (" + (
                    f"torch built with CUDA {built}, but no usable GPU or driver; run `gpuport doctor`"
                    if built else "this torch is a CPU-only build") + ")")
                continue
            n = torch.cuda.device_count()
            chosen = prefer if prefer and prefer.startswith("cuda") else "cuda"
            index = chosen.partition(":")[2]
            if index and (not index.isdigit() or int(index) >= n):
                reasons.append(f"cuda: {chosen} does not exist ({n} device(s): cuda:0 to cuda:{n - 1})")
                chosen = "cuda"
            name = torch.cuda.get_device_name(int(chosen.partition(":")[2] or 0)) if n else "?"
            reasons.append(f"cuda: chosen ({n} device(s), {name})")
            return _honoured(prefer, chosen, reasons)
        if dev == "mps":
            mps = getattr(torch.backends, "mps", None)
            if mps is None or not mps.is_built():
                reasons.append("mps: not built into this torch (not a macOS arm64 build)")
                continue
            if not mps.is_available():
                reasons.append("mps: built but not available (needs macOS 12.3+ on Apple Silicon and "
                               "an arm64 Python, not one under Rosetta)")
                continue
            reasons.append("mps: chosen (Apple GPU)")
            return _honoured(prefer, "mps", reasons)
        reasons.append("cpu: chosen (always available)")
        return _honoured(prefer, "cpu", reasons)
    return "cpu", reasons


def _honoured(prefer: Optional[str], chosen: str, reasons: List[str]) -> Tuple[str, List[str]]:
    """Warns when the preferred device is not the one chosen, with the reason it was not."""
    if prefer and prefer != chosen:
        why = "; ".join(r for r in reasons if ": chosen" not in r)
        warnings.warn(f"torch_device(prefer={prefer!r}) cannot be honoured: {why}; using {chosen}",
                      RuntimeWarning, stacklevel=4)
    return chosen, reasons


def torch_device(prefer: Optional[str] = None, log_choice: bool = True) -> Any:
    """Returns ``torch.device`` for the best available backend: cuda, then mps, then cpu (or
    ``prefer`` first). Logs the choice and the reason for each backend skipped on the "gpuport"
    logger, and warns when PYTORCH_ENABLE_MPS_FALLBACK was set after torch was imported, and when
    ``prefer`` names a device that cannot be used (with the reason). Without torch installed it
    raises ImportError saying so."""
    torch = _import_torch()

    name, reasons = choose(prefer, torch)
    if log_choice:
        log.info("torch device: %s (%s)", name, "; ".join(reasons))
    if name == "mps" and _fallback_set_too_late():
        warnings.warn("PYTORCH_ENABLE_MPS_FALLBACK was set after torch was imported, so it has no "
                      "effect: set it before `import torch` (or in the shell)", RuntimeWarning,
                      stacklevel=2)
    return torch.device(name)
