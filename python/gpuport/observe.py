"""Seeing inside kernels from Python: gp_printf's output and the timeline (docs/debugging.md).

Importing gpuport installs a print handler: what CPU kernels print with ``gp_printf`` is written
to ``sys.stdout`` when the launch ends, so Jupyter shows it under the cell (OpenCL and CUDA
drivers write to the process's stdout themselves). ``trace(path)`` records a Chrome/Perfetto
timeline of every launch, copy, build and wait made inside its ``with`` block.
"""

import ctypes
import sys
from typing import Optional

from ._native import lib

_PRINT_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t)


def _to_stdout(_user, text, length) -> None:
    try:
        sys.stdout.write(ctypes.string_at(text, length).decode("utf-8", "replace"))
        sys.stdout.flush()
    except Exception:  # a callback must not raise into C
        pass


_handler = _PRINT_FN(_to_stdout)  # kept alive for as long as the library may call it
lib.gp_print_set_handler.restype = ctypes.c_int
lib.gp_print_set_handler.argtypes = [_PRINT_FN, ctypes.c_void_p]
lib.gp_print_set_limit.restype = ctypes.c_int
lib.gp_print_set_limit.argtypes = [ctypes.c_uint32]
lib.gp_print_set_handler(_handler, None)


def set_print_limit(lines: Optional[int]) -> None:
    """Lines of gp_printf output kept per CPU launch (None: the default, 4096)."""
    n = 0 if lines is None else int(lines)
    if n < 0 or n > 0xFFFFFFFF:
        raise ValueError(f"set_print_limit: {lines} is not a line count")
    lib.gp_print_set_limit(n)
