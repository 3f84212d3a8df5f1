"""gpuport: write GPU code once; run and trust it on CUDA, Metal, OpenCL and the CPU.

The runtime (devices chosen with a recorded reason, arrays that speak numpy's, DLPack's and the
CUDA Array Interface's protocols, kernels in the portable dialect that take torch tensors, CuPy and
numpy arrays in place) is loaded from libgpuport with ctypes; the tools (doctor, audit, compare,
archcheck, freeze) return the CLI's JSON as Python objects; ``torch_device()`` picks cuda, mps or
cpu for PyTorch and says why — without importing torch until it is called.
"""

from .errors import (  # noqa: F401
    BackendError,
    BuildError,
    CheckError,
    CheckReport,
    GpuportError,
    InvalidArgumentError,
    LaunchError,
    NotFoundError,
    OutOfMemoryError,
    UnsupportedError,
)

try:
    from .runtime import (  # noqa: F401
        BACKENDS,
        Array,
        ArgInfo,
        Buffer,
        Device,
        DeviceInfo,
        Event,
        Kernel,
        Program,
        Queue,
        Selection,
        Shared,
        TranslateError,
        builtin_programs,
        cache_dir,
        CHECKS,
        cache_stats,
        check_reports,
        clear_cache,
        devices,
        dialect_prelude,
        probe,
        set_cache_dir,
        version,
    )
    from .interop import asarray, from_cuda_array_interface, from_dlpack  # noqa: F401
    from .observe import get_print_limit, set_print_limit, trace, trace_summary  # noqa: F401
except ImportError as _e:  # libgpuport missing: the tools and torch_device() still work
    _runtime_error = _e

    def __getattr__(name: str):  # type: ignore[no-redef]
        raise ImportError(f"gpuport.{name} needs libgpuport: {_runtime_error}")

from .tools import ToolError, archcheck, audit, compare, doctor, freeze  # noqa: F401
from .torchdev import torch_device  # noqa: F401

__version__ = "0.1.0"
