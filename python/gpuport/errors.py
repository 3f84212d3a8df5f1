"""The exceptions of the runtime: one class per C status, all under :class:`GpuportError`, which
carries the status name (``"GP_ERR_BUILD"``) and ``gp_last_error()``'s message. A status the
package has no class for raises the base class, so a library newer than the package still
reports its errors; a new class joins by one line in ``_BY_STATUS``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple, Type


class GpuportError(RuntimeError):
    """A gpuport call failed. ``status`` is the C status name, ``message`` what to do about it."""

    def __init__(self, status: str, message: str):
        super().__init__(f"{status}: {message}" if message else status)
        self.status = status
        self.message = message


class InvalidArgumentError(GpuportError, ValueError):
    """GP_ERR_INVALID_ARGUMENT: the library refused an argument (the message names it)."""


class NotFoundError(GpuportError, LookupError):
    """GP_ERR_NOT_FOUND: no such device, kernel or backend."""


class UnsupportedError(GpuportError):
    """GP_ERR_UNSUPPORTED: the device or backend cannot do this (the message says what can)."""


class OutOfMemoryError(GpuportError, MemoryError):
    """GP_ERR_OUT_OF_MEMORY: a host or device allocation failed."""


class BuildError(GpuportError):
    """GP_ERR_BUILD: a kernel did not compile; the message is the compiler's, naming your file and
    line."""


class LaunchError(GpuportError):
    """GP_ERR_LAUNCH: a launch was refused or its results are not valid (group size, resources,
    SIMD-group misuse)."""


class BackendError(GpuportError):
    """GP_ERR_BACKEND: the backend's own runtime (CUDA, OpenCL, Metal) returned an error."""


class GpuportIOError(GpuportError):
    """GP_ERR_IO: a file (the kernel cache) could not be read or written."""


@dataclass(frozen=True)
class CheckReport:
    """One finding of a checked run (docs/check.md). Findings of a launch are merged by (check,
    file, line, column), one per distinct access: ``count`` says how often it happened; the rest
    describes its first occurrence. ``group``/``local`` are the work-item of that occurrence (``None`` when the
    report is not about one work-item); ``other_*`` the other side — the access it races with,
    the barrier the others waited at — when there is one."""

    check: str  # "memcheck", "racecheck", "synccheck" or "initcheck"
    file: str
    line: int  # 0 when not known
    column: int
    count: int
    kernel: str
    message: str
    group: Optional[Tuple[int, int, int]]
    local: Optional[Tuple[int, int, int]]
    other_line: Optional[int]
    other_column: Optional[int]
    other_group: Optional[Tuple[int, int, int]]
    other_local: Optional[Tuple[int, int, int]]
    text: str  # the report as gpuport prints it: "FILE:LINE:COL: CHECK: MESSAGE (N times)"

    def __str__(self) -> str:
        return self.text


class CheckError(GpuportError):
    """GP_ERR_CHECK: a checked launch (or the CPU backend unchecked: a SIMD-group fault, an
    unexpected barrier) found bugs in the kernel. ``reports`` holds every finding kept (at most
    100), ``omitted`` how many more were dropped; the message holds the first ones."""

    def __init__(self, status: str, message: str, reports: Optional[List[CheckReport]] = None,
                 omitted: int = 0):
        super().__init__(status, message)
        self.reports: List[CheckReport] = list(reports or [])
        self.omitted = omitted


class InternalError(GpuportError):
    """GP_ERR_INTERNAL: a bug in gpuport; please report it with the message."""


_BY_STATUS: Dict[str, Type[GpuportError]] = {
    "GP_ERR_INVALID_ARGUMENT": InvalidArgumentError,
    "GP_ERR_NOT_FOUND": NotFoundError,
    "GP_ERR_UNSUPPORTED": UnsupportedError,
    "GP_ERR_OUT_OF_MEMORY": OutOfMemoryError,
    "GP_ERR_BUILD": BuildError,
    "GP_ERR_LAUNCH": LaunchError,
    "GP_ERR_BACKEND": BackendError,
    "GP_ERR_IO": GpuportIOError,
    "GP_ERR_INTERNAL": InternalError,
    "GP_ERR_CHECK": CheckError,
}


def error_for(status: str, message: str) -> GpuportError:
    """The exception for a C status name and its message."""
    return _BY_STATUS.get(status, GpuportError)(status, message)
