"""The C library, loaded with ctypes: where it is found, and the declaration of every entry point.

libgpuport is searched in this order: ``$GPUPORT_LIBRARY`` (a file), ``$GPUPORT_BUILD_DIR`` (a
CMake build folder, for development: set, it wins over the bundled copy, which an editable install
keeps beside the sources), the copy bundled inside the package (``gpuport/_lib``, put there by
``pip install`` or ``pip install -e``), then the system's library path.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path
from typing import List, Optional

_HERE = Path(__file__).resolve().parent


def library_names(platform: str = sys.platform) -> List[str]:
    """The library's file names on a platform (``sys.platform``'s spelling)."""
    if platform == "darwin":
        return ["libgpuport.dylib"]
    if platform == "win32":
        return ["gpuport.dll"]
    return ["libgpuport.so", "libgpuport.so.0"]


def library_candidates(platform: str = sys.platform) -> List[Path]:
    """Every path tried for libgpuport, in order."""
    out: List[Path] = []
    env = os.environ.get("GPUPORT_LIBRARY")
    if env:
        out.append(Path(env))
    names = library_names(platform)
    build = os.environ.get("GPUPORT_BUILD_DIR")
    if build:
        for name in names:
            out.append(Path(build) / name)
    for name in names:
        out.append(_HERE / "_lib" / name)
    return out


def _load() -> ctypes.CDLL:
    tried = []
    for path in library_candidates():
        if path.is_file():
            return ctypes.CDLL(str(path))
        tried.append(str(path))
    found = ctypes.util.find_library("gpuport")
    if found:
        return ctypes.CDLL(found)
    # the folder to install from, as a path that works from wherever Python was started
    here = _HERE.parent
    src = str(here) if (here / "setup.py").is_file() else "./python (in a gpuport checkout)"
    raise ImportError(
        "libgpuport not found (tried: " + ", ".join(tried) + ", and the system library path). "
        f"Install the package with `pip install {src}` (or `pip install -e {src}`; both build "
        "the library with CMake, see docs/python.md), or set GPUPORT_LIBRARY to the library or "
        "GPUPORT_BUILD_DIR to a CMake build folder."
    )


lib = _load()

c_status = ctypes.c_int
vp = ctypes.c_void_p
u32 = ctypes.c_uint32
i32 = ctypes.c_int32
u64 = ctypes.c_uint64
size_t = ctypes.c_size_t


class SelectionEntry(ctypes.Structure):
    _fields_ = [
        ("backend", i32),
        ("outcome", i32),
        ("code", i32),
        ("device_index", i32),
        ("device_count", u32),
        ("reserved", u32),
        ("detail", ctypes.c_char * 512),
    ]


class DeviceInfoC(ctypes.Structure):
    _fields_ = [
        ("backend", i32),
        ("index", i32),
        ("spec", ctypes.c_char * 32),
        ("name", ctypes.c_char * 256),
        ("vendor", ctypes.c_char * 128),
        ("driver_version", ctypes.c_char * 128),
        ("arch", ctypes.c_char * 64),
        ("total_memory", u64),
        ("max_shared_memory", u64),
        ("max_buffer_size", u64),
        ("compute_units", u32),
        ("max_group_size", u32),
        ("max_group_dims", u32 * 3),
        ("simd_width", u32),
        ("compute_capability_major", i32),
        ("compute_capability_minor", i32),
        ("unified_memory", u32),
        ("fp64", u32),
        ("fp16", u32),
        ("simd_group_width", u32),
        ("clock_mhz", u32),
        ("memory_clock_mhz", u32),
        ("memory_bus_width", u32),
        ("l2_cache_kib", u32),
        ("pci_bus_id", u32),
        ("atomic64", u32),
    ]


class BuildOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", u32),
        ("flags", u32),
        ("source_name", ctypes.c_char_p),
        ("defines", ctypes.POINTER(ctypes.c_char_p)),
        ("num_defines", u32),
        ("checks", u32),
    ]


class ArgInfoC(ctypes.Structure):
    _fields_ = [
        ("kind", i32),
        ("size", u32),
        ("type_name", ctypes.c_char * 64),
        ("name", ctypes.c_char * 64),
    ]


class ArgC(ctypes.Structure):
    _fields_ = [
        ("kind", i32),
        ("flags", u32),
        ("buffer", vp),
        ("value", vp),
        ("size", size_t),
    ]


class CheckReportC(ctypes.Structure):
    _fields_ = [
        ("check", u32),
        ("line", u32),
        ("column", u32),
        ("count", u64),
        ("file", ctypes.c_char * 256),
        ("kernel", ctypes.c_char * 128),
        ("message", ctypes.c_char * 1024),
        ("group", i32 * 3),
        ("local", i32 * 3),
        ("other_line", u32),
        ("other_column", u32),
        ("other_group", i32 * 3),
        ("other_local", i32 * 3),
    ]


def _declare(name: str, restype, *argtypes) -> None:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


P = ctypes.POINTER
_declare("gp_last_error", ctypes.c_char_p)
_declare("gp_status_name", ctypes.c_char_p, c_status)
_declare("gp_version_string", ctypes.c_char_p)
_declare("gp_backend_name", ctypes.c_char_p, ctypes.c_int)
_declare("gp_select_outcome_name", ctypes.c_char_p, ctypes.c_int)
_declare("gp_backend_probe", c_status, ctypes.c_int, P(SelectionEntry))
_declare("gp_device_spec_parse", c_status, ctypes.c_char_p, P(i32), P(i32))
_declare("gp_device_count", c_status, P(u32))
_declare("gp_device_enumerate", c_status, u32, P(DeviceInfoC))
_declare("gp_device_open", c_status, ctypes.c_char_p, P(vp))
_declare("gp_device_release", c_status, vp)
_declare("gp_device_get_info", c_status, vp, P(DeviceInfoC))
_declare("gp_device_selection", c_status, vp, P(SelectionEntry), u32, P(u32))
_declare("gp_device_selection_text", c_status, vp, ctypes.c_char_p, size_t, P(size_t))
_declare("gp_device_synchronize", c_status, vp)
_declare("gp_queue_create", c_status, vp, P(vp))
_declare("gp_queue_release", c_status, vp)
_declare("gp_queue_finish", c_status, vp)
_declare("gp_device_queue", c_status, vp, P(vp))
_declare("gp_event_record", c_status, vp, P(vp))
_declare("gp_queue_wait_event", c_status, vp, vp)
_declare("gp_event_wait", c_status, vp)
_declare("gp_event_elapsed_ms", c_status, vp, vp, P(ctypes.c_double))
_declare("gp_event_release", c_status, vp)
_declare("gp_buffer_create", c_status, vp, ctypes.c_int, size_t, P(vp))
_declare("gp_buffer_release", c_status, vp)
_declare("gp_buffer_size", c_status, vp, P(size_t))
_declare("gp_buffer_map", c_status, vp, P(vp))
_declare("gp_buffer_unmap", c_status, vp)
_declare("gp_buffer_write", c_status, vp, size_t, vp, size_t)
_declare("gp_buffer_read", c_status, vp, size_t, vp, size_t)
_declare("gp_buffer_copy", c_status, vp, size_t, vp, size_t, size_t)
_declare("gp_buffer_fill", c_status, vp, size_t, vp, size_t, size_t)
_declare("gp_buffer_write_async", c_status, vp, vp, size_t, vp, size_t)
_declare("gp_buffer_read_async", c_status, vp, vp, size_t, vp, size_t)
_declare("gp_buffer_copy_async", c_status, vp, vp, size_t, vp, size_t, size_t)
_declare("gp_buffer_fill_async", c_status, vp, vp, size_t, vp, size_t, size_t)
_declare("gp_buffer_kind_of", c_status, vp, P(ctypes.c_int))
_declare("gp_buffer_wrap", c_status, vp, ctypes.c_int, vp, size_t, size_t, P(vp))
_declare("gp_buffer_native", c_status, vp, P(vp), P(size_t), P(vp))
_declare("gp_queue_wrap", c_status, vp, vp, P(vp))
_declare("gp_queue_native", c_status, vp, P(vp))
_declare("gp_program_create", c_status, vp, ctypes.c_char_p, size_t, P(BuildOptions), P(vp))
_declare("gp_program_create_builtin", c_status, vp, ctypes.c_char_p, P(vp))
_declare("gp_builtin_program_count", u32)
_declare("gp_builtin_program_name", ctypes.c_char_p, u32)
_declare("gp_program_release", c_status, vp)
_declare("gp_program_kernel_count", c_status, vp, P(u32))
_declare("gp_program_kernel_name", c_status, vp, u32, P(ctypes.c_char_p))
_declare("gp_kernel_create", c_status, vp, ctypes.c_char_p, P(vp))
_declare("gp_kernel_release", c_status, vp)
_declare("gp_kernel_arg_count", c_status, vp, P(u32))
_declare("gp_kernel_arg_info", c_status, vp, u32, P(ArgInfoC))
_declare("gp_kernel_max_group_size", c_status, vp, P(u32))
_declare("gp_kernel_auto_group", c_status, vp, u32, P(size_t), P(size_t))
_declare("gp_interrupt", None)
_declare("gp_interrupt_on_signal", c_status, ctypes.c_int)
_declare("gp_event_wait_for", c_status, vp, u32, P(ctypes.c_int))
_declare("gp_kernel_launch", c_status, vp, vp, u32, P(size_t), P(size_t), u32, P(ArgC))
_declare("gp_cache_set_dir", c_status, ctypes.c_char_p)
_declare("gp_cache_get_dir", c_status, ctypes.c_char_p, size_t, P(size_t))
_declare("gp_cache_stats", c_status, P(u64), P(u64))
_declare("gp_cache_clear", c_status)
_declare("gp_dialect_prelude", ctypes.c_char_p, P(size_t))
# checking (docs/check.md)
_declare("gp_program_create_from_file", c_status, vp, ctypes.c_char_p, P(BuildOptions), P(vp))
_declare("gp_device_open_for_source", c_status, ctypes.c_char_p, ctypes.c_char_p, size_t,
         P(BuildOptions), ctypes.c_char_p, P(vp))
_declare("gp_check_parse", c_status, ctypes.c_char_p, P(u32))
_declare("gp_check_name", ctypes.c_char_p, u32)
_declare("gp_device_set_checks", c_status, vp, u32)
_declare("gp_device_get_checks", c_status, vp, P(u32))
_declare("gp_check_report_count", c_status, P(u32), P(u64))
_declare("gp_check_report_get", c_status, u32, P(CheckReportC))
_declare("gp_check_report_format", c_status, P(CheckReportC), ctypes.c_char_p, size_t, P(size_t))
# printing from kernels and the timeline (docs/debugging.md)
PRINT_FN = ctypes.CFUNCTYPE(None, vp, P(ctypes.c_char), size_t)
_declare("gp_print_set_handler", c_status, PRINT_FN, vp)
_declare("gp_print_set_limit", c_status, u32)
_declare("gp_print_get_limit", c_status, P(u32))
_declare("gp_trace_start", c_status, ctypes.c_char_p)
_declare("gp_trace_stop", c_status)
_declare("gp_trace_summary", c_status, ctypes.c_char_p, size_t, P(size_t))


def library_path() -> Optional[str]:
    """The file the library was loaded from, when ctypes knows it."""
    return getattr(lib, "_name", None)
