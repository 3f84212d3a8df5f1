"""The exceptions of the runtime: one class per C status, all under :class:`GpuportError`, which
carries the status name (``"GP_ERR_BUILD"``) and ``gp_last_error()``'s message. A status the
package has no class for raises the base class, so a library newer than the package still
reports its errors; a new class joins by one line in ``_BY_STATUS``."""

from __future__ import annotations

from typing import Dict, Type


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
}


def error_for(status: str, message: str) -> GpuportError:
    """The exception for a C status name and its message."""
    return _BY_STATUS.get(status, GpuportError)(status, message)
