"""The examples of docs/python.md run: every block fenced as ```python example``` is run as a script
of its own, from a folder of its own, against this checkout's package. A block whose first line is
`# needs: torch` (or cupy, cuda, mps) runs only where that is there, and is skipped with the reason
elsewhere."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "python.md"
PKG = ROOT / "python"


def examples():
    if not DOC.is_file():
        return []
    text = DOC.read_text()
    out = []
    for m in re.finditer(r"^```python example\n(.*?)^```", text, re.S | re.M):
        line = text.count("\n", 0, m.start()) + 1
        out.append(pytest.param(m.group(1), id=f"python.md:{line}"))
    return out


def _has(module):
    try:
        __import__(module)
        return True
    except Exception:
        return False


def _missing(needs):
    import gpuport as gp

    # the hardware first: where it is missing, so is the reason to install anything
    if "cuda" in needs and not any(d.backend == "cuda" for d in gp.devices()):
        return "no CUDA device: these tests run on a GPU machine (scripts/gpu-check.sh)"
    if "mps" in needs and not any(d.backend == "metal" for d in gp.devices()):
        return "no Metal device (a Mac)"
    for need in needs:
        if need in ("torch", "cupy") and not _has(need):
            return f"{need} is not installed"
    return None


def test_the_page_has_examples():
    assert len(examples()) >= 4


@pytest.mark.parametrize("code", examples())
def test_example_runs(code, tmp_path):
    first = code.splitlines()[0]
    needs = [n.strip() for n in first.split(":", 1)[1].split(",")] if first.startswith("# needs:") else []
    why = _missing(needs)
    if why:
        pytest.skip(why)
    script = tmp_path / "example.py"
    script.write_text(code)
    env = dict(os.environ, PYTHONPATH=str(PKG), GPUPORT_CACHE_DIR=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
