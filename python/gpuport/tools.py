"""The CLI's tools from Python: ``doctor()``, ``audit()``, ``compare()``, ``archcheck()``,
``freeze()`` run the bundled ``gpuport`` executable with ``--json`` and return its JSON as Python
objects. A failed check (exit 1) is a result, not an error; bad input (exit 2) and internal
errors (exit 3) raise :class:`ToolError` with the tool's message."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

_HERE = Path(__file__).resolve().parent
PathLike = Union[str, "os.PathLike[str]"]


class ToolError(RuntimeError):
    """A gpuport tool refused its input (exit 2) or failed (exit 3)."""

    def __init__(self, argv: List[str], code: int, stderr: str):
        super().__init__(f"{' '.join(argv[:2])} exited with {code}: {stderr.strip()}")
        self.argv = argv
        self.code = code
        self.stderr = stderr


def executable(search_path: bool = True) -> str:
    """The gpuport CLI used: $GPUPORT_CLI, $GPUPORT_BUILD_DIR's, the copy bundled in the package,
    then (with ``search_path``) `gpuport` on PATH."""
    env = os.environ.get("GPUPORT_CLI")
    candidates = [Path(env)] if env else []
    exe = "gpuport.exe" if sys.platform == "win32" else "gpuport"
    if os.environ.get("GPUPORT_BUILD_DIR"):
        candidates.append(Path(os.environ["GPUPORT_BUILD_DIR"]) / exe)
    candidates.append(_HERE / "_lib" / exe)
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = shutil.which("gpuport") if search_path else None
    if found:
        return found
    raise FileNotFoundError("the gpuport executable was not found (tried: " +
                            ", ".join(map(str, candidates)) + (", and PATH" if search_path else "") +
                            "); reinstall the package (pip install ./python) or set GPUPORT_CLI")


def run_tool(command: str, args: Sequence[str], json_flag: str = "--json") -> Dict[str, Any]:
    """Runs ``gpuport COMMAND ARGS --json`` and returns the parsed JSON."""
    argv = [executable(), command, *args]
    if json_flag:
        argv.append(json_flag)
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise ToolError(argv, p.returncode, p.stderr)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError as e:
        raise ToolError(argv, p.returncode, f"output is not JSON ({e}): {p.stderr}") from e


def _paths(paths: Union[PathLike, Iterable[PathLike]]) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def doctor(deep: bool = False) -> Dict[str, Any]:
    """What this machine can do and what is broken (schema gpuport.doctor/1)."""
    return run_tool("doctor", ["--deep"] if deep else [])


def audit(paths: Union[PathLike, Iterable[PathLike]] = ".", *extra: str) -> Dict[str, Any]:
    """What in a code base is tied to CUDA (schema gpuport.audit/1)."""
    return run_tool("audit", [*extra, *_paths(paths)])


def compare(a: PathLike, b: PathLike, *extra: str) -> Dict[str, Any]:
    """Do two results agree within tolerance (schema gpuport.compare/1); ``result["pass"]``."""
    return run_tool("compare", [*extra, os.fspath(a), os.fspath(b)])


def archcheck(paths: Union[PathLike, Iterable[PathLike]], cc: Iterable[str] = (), gpu: Optional[str] = None,
              *extra: str) -> Dict[str, Any]:
    """Will these binaries' CUDA kernels run on those GPUs (schema gpuport.archcheck/1)."""
    args: List[str] = []
    for c in cc:
        args += ["--cc", c]
    if gpu:
        args += ["--gpu", gpu]
    return run_tool("archcheck", [*args, *extra, *_paths(paths)])


def freeze(data: Iterable[PathLike] = (), seeds: Optional[Dict[str, Any]] = None,
           python: Optional[str] = None, mps_report: Optional[PathLike] = None) -> Dict[str, Any]:
    """The reproducibility manifest of this run (schema gpuport.freeze/1); the Python described is
    this interpreter unless ``python`` names another; ``mps_report``: a gpuport mps-check report
    whose verdict and CPU-fallback operators go in the manifest's "mps" section."""
    args: List[str] = []
    if mps_report is not None:
        args += ["--mps-report", os.fspath(mps_report)]
    for d in data:
        args += ["--data", os.fspath(d)]
    for k, v in (seeds or {}).items():
        args += ["--seed", f"{k}={v}"]
    args += ["--python", python or sys.executable]
    return run_tool("freeze", args, json_flag="")
