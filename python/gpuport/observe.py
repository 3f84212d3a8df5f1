"""Seeing inside kernels from Python: gp_printf's output and the timeline (docs/debugging.md).

Importing gpuport installs a print handler: what CPU and OpenCL kernels print with ``gp_printf``
is written to ``sys.stdout`` when the launch ends, so Jupyter shows it under the cell, and so is
Metal's (when the queue is waited for, or as os_log delivers it); the CUDA driver, and OpenCL's
own printf where a program prints from a helper function, write to the process's stdout
themselves. ``trace(path)`` records a Chrome/Perfetto
timeline of every launch, copy, build and wait made inside its ``with`` block.
"""

import ctypes
import sys
from typing import Optional

from ._native import PRINT_FN, lib

_PRINT_FN = PRINT_FN


def _to_stdout(_user, text, length) -> None:
    try:
        sys.stdout.write(ctypes.string_at(text, length).decode("utf-8", "replace"))
        sys.stdout.flush()
    except Exception:  # a callback must not raise into C
        pass


_handler = _PRINT_FN(_to_stdout)  # kept alive for as long as the library may call it
lib.gp_print_set_handler(_handler, None)


def set_print_limit(lines: Optional[int]) -> None:
    """Lines of gp_printf output kept per launch on the CPU and Metal's print buffer (None: the
    default, 4096)."""
    n = 0 if lines is None else int(lines)
    if n < 0 or n > 0xFFFFFFFF:
        raise ValueError(f"set_print_limit: {lines} is not a line count")
    lib.gp_print_set_limit(n)


def get_print_limit() -> int:
    """Lines of gp_printf output kept per CPU launch now."""
    n = ctypes.c_uint32(0)
    lib.gp_print_get_limit(ctypes.byref(n))
    return n.value


class trace:
    """Records a timeline of every launch, copy, build and wait inside ``with``.

    ``with gpuport.trace("run.json"):`` writes the Chrome Trace Event Format (open it in
    https://ui.perfetto.dev or chrome://tracing) when the block ends; ``path=None`` records only
    for ``summary()``. Times are microseconds, on the device's clock where the backend has one.
    """

    def __init__(self, path: Optional[str] = None):
        self.path = None if path is None else str(path)

    def __enter__(self) -> "trace":
        from .runtime import _check

        _check(lib.gp_trace_start(None if self.path is None else self.path.encode()))
        return self

    def __exit__(self, *exc) -> None:
        from .runtime import _check

        _check(lib.gp_trace_stop())

    def summary(self) -> str:
        """Time per kernel, per copy direction, builds, waits and idle time per queue."""
        return trace_summary()


def trace_summary() -> str:
    """The summary of the running or the last trace, as text."""
    need = ctypes.c_size_t(0)
    lib.gp_trace_summary(None, 0, ctypes.byref(need))
    buf = ctypes.create_string_buffer(max(need.value, 1))
    lib.gp_trace_summary(buf, need.value, None)
    return buf.value.decode("utf-8", "replace")
