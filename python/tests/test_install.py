"""`pip install ./python` works from a checkout: the package builds libgpuport and the CLI with
CMake, bundles both, and then runs a kernel with no build folder in sight."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (PKG.parent / "CMakeLists.txt").is_file(), reason="not in a gpuport checkout")
def test_pip_install_bundles_the_library(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPUPORT_")}
    env["GPUPORT_CACHE_DIR"] = str(tmp_path / "cache")
    build = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-build-isolation",
                            "--disable-pip-version-check", str(PKG)],
                           capture_output=True, text=True, env=env, cwd=tmp_path)
    assert build.returncode == 0, build.stdout + build.stderr
    code = textwrap.dedent("""
        import numpy as np, gpuport, os
        assert "_lib" in gpuport._native.library_path(), gpuport._native.library_path()
        dev = gpuport.Device("cpu")
        y = np.zeros(8, np.float32)
        dev.program("GP_KERNEL(k, GP_BUF(float, y)) { y[gp_global_id(0)] = 3.0f; }").k(8, y)
        assert (y == 3).all()
        print("ok", gpuport.tools.executable())
    """)
    run = subprocess.run([str(py), "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok" in run.stdout and "_lib" in run.stdout
