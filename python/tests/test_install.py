"""Installing from a checkout: `pip wheel ./python` builds libgpuport and the CLI with CMake and
bundles both; on Linux `auditwheel repair` bundles the shared libraries they link and gives the
wheel a manylinux tag. The wheel then installs into a fresh virtual environment and works there
with no compiler on PATH and no build folder in sight: the `gpuport` console script and
`python -m gpuport` run the bundled CLI (its exit codes included), and the package runs a kernel
from its bundled library. `pip install ./python` gives the same console script."""

import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (PKG.parent / "CMakeLists.txt").is_file(),
                                reason="not in a gpuport checkout")


def _run(argv, **kw):
    p = subprocess.run([str(a) for a in argv], capture_output=True, text=True, **kw)
    assert p.returncode == 0, f"{argv} exited with {p.returncode}:\n{p.stdout}{p.stderr}"
    return p


def _clean_env(tmp):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPUPORT_")}
    env["GPUPORT_CACHE_DIR"] = str(tmp / "cache")
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    env = _clean_env(tmp)
    p = _run([sys.executable, "-m", "pip", "wheel", "-v", "--no-build-isolation", "--no-deps",
              "--disable-pip-version-check", "-w", tmp / "dist", PKG], env=env, cwd=tmp)
    (tmp / "build.log").write_text(p.stdout + p.stderr)
    (whl,) = (tmp / "dist").glob("gpuport-*.whl")
    assert whl.name.startswith("gpuport-0.1.0-py3-none-"), whl.name
    if sys.platform.startswith("linux"):
        auditwheel = shutil.which("auditwheel")
        assert auditwheel, "auditwheel is not installed (scripts/install-deps.sh installs it from PyPI)"
        _run([auditwheel, "repair", "-w", tmp / "repaired", whl], env=env, cwd=tmp)
        (whl,) = (tmp / "repaired").glob("gpuport-*.whl")
        assert "manylinux" in whl.name, whl.name
    return whl


def _venv(where):
    # numpy from the system's site-packages (no network needed); gpuport only from the wheel
    _run([sys.executable, "-m", "venv", "--system-site-packages", where])
    return where / "bin"


def test_wheel_bundles_the_library_the_cli_and_what_they_link(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    lib = "libgpuport.dylib" if sys.platform == "darwin" else "libgpuport.so"
    assert f"gpuport/_lib/{lib}" in names and "gpuport/_lib/gpuport" in names
    entry = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt")))
    assert b"gpuport = gpuport.__main__:main" in entry
    if sys.platform.startswith("linux"):
        bundled = [n for n in names if n.startswith("gpuport.libs/")]
        assert any("libcjson" in n for n in bundled), bundled  # not on a machine without it


def test_the_python_package_carries_the_licence_of_the_project():
    assert (PKG / "LICENSE").read_text() == (PKG.parent / "LICENSE").read_text()
    assert "MIT License" in (PKG / "LICENSE").read_text()
    assert "the gpuport authors" in (PKG / "LICENSE").read_text()


def test_wheel_metadata_names_the_licence(wheel):
    z = zipfile.ZipFile(wheel)
    meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "License: MIT" in meta or "License-Expression: MIT" in meta, meta
    assert "License-File: LICENSE" in meta, meta
    (lic,) = [n for n in z.namelist() if ".dist-info/" in n and n.endswith("LICENSE")]
    assert z.read(lic).decode() == (PKG.parent / "LICENSE").read_text()


def test_the_build_says_what_it_does(wheel):
    # pip -v shows what pip otherwise captures; at a terminal the same lines go to /dev/tty
    log = (wheel.parent.parent / "build.log").read_text()
    assert "gpuport: configuring libgpuport with CMake" in log, log[-3000:]
    assert re.search(r"gpuport: building libgpuport and the gpuport CLI: \d+%", log), log[-3000:]
    assert "gpuport: built; bundling them into" in log, log[-3000:]


def test_editable_install_finds_the_library(request, tmp_path):
    # a copy of this folder (an editable install writes gpuport/_lib beside the sources), with
    # the library of a build folder: the one GPUPORT_BUILD_DIR names, or the one the wheel's build made
    prebuilt = os.environ.get("GPUPORT_BUILD_DIR")
    if not prebuilt:
        request.getfixturevalue("wheel")
        prebuilt = str(PKG / "build" / "cmake")
    src = tmp_path / "python"
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("build", "_lib", "*.egg-info",
                                                            "__pycache__", ".pytest_cache"))
    bin_ = _venv(tmp_path / "venv")
    env = _clean_env(tmp_path)
    env["GPUPORT_PREBUILT_DIR"] = prebuilt
    _run([bin_ / "python", "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps",
          "--disable-pip-version-check", "-e", src], env=env, cwd=tmp_path)
    del env["GPUPORT_PREBUILT_DIR"]
    code = ("import gpuport, numpy as np; lib = gpuport._native.library_path(); "
            "k = gpuport.Device('cpu').builtin_program('basic').kernel('gp_saxpy'); "
            "y = np.ones(4, np.float32); k(4, y, np.arange(4, dtype=np.float32), 2.0, 4); "
            "print(lib); print(gpuport.tools.executable(search_path=False)); print(y.tolist())")
    p = _run([bin_ / "python", "-c", code], env=env, cwd=tmp_path)
    lib, exe, y = p.stdout.splitlines()
    assert lib.startswith(str(src / "gpuport" / "_lib")), p.stdout  # the sources' own copy
    assert exe.startswith(str(src / "gpuport" / "_lib")), p.stdout
    assert y == "[1.0, 3.0, 5.0, 7.0]", p.stdout
    # an editable install's copy never hides a build folder the developer names
    env["GPUPORT_BUILD_DIR"] = prebuilt
    p = _run([bin_ / "python", "-c", code], env=env, cwd=tmp_path)
    assert p.stdout.splitlines()[0].startswith(prebuilt), p.stdout


def test_without_the_library_the_message_names_the_folder_to_install(tmp_path):
    # the package's sources on PYTHONPATH with no library anywhere: the hint is a path that
    # works from the folder Python runs in (not "./python", relative to a checkout's root)
    src = tmp_path / "checkout" / "python"
    shutil.copytree(PKG / "gpuport", src / "gpuport",
                    ignore=shutil.ignore_patterns("_lib", "__pycache__"))
    shutil.copy2(PKG / "setup.py", src / "setup.py")
    elsewhere = tmp_path / "project" / "sub"
    elsewhere.mkdir(parents=True)
    env = _clean_env(tmp_path)
    env["PYTHONPATH"] = str(src)
    env["GPUPORT_BUILD_DIR"] = str(tmp_path / "no-build")
    p = subprocess.run([sys.executable, "-c", "import gpuport._native"], env=env, cwd=elsewhere,
                       capture_output=True, text=True)
    assert p.returncode != 0, p.stdout
    assert f"pip install {src}`" in p.stderr, p.stderr[-2000:]


def test_wheel_works_in_a_fresh_venv_without_a_compiler(wheel, tmp_path):
    bin_ = _venv(tmp_path / "venv")
    env = _clean_env(tmp_path)
    _run([bin_ / "python", "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
          "--disable-pip-version-check", wheel], env=env, cwd=tmp_path)
    env["PATH"] = str(bin_)  # the venv only: no cc, no build folder, no other gpuport
    env.pop("CC", None)

    p = _run([bin_ / "gpuport", "version"], env=env, cwd=tmp_path)
    assert "0.1.0" in p.stdout
    p = _run([bin_ / "gpuport", "devices"], env=env, cwd=tmp_path)
    assert "cpu" in p.stdout and "C compiler: none" in p.stdout
    p = _run([bin_ / "python", "-m", "gpuport", "devices", "--json"], env=env, cwd=tmp_path)
    assert '"cpu"' in p.stdout
    # the CLI's own exit codes come through: 2 for bad input
    bad = subprocess.run([bin_ / "gpuport", "compare", "missing-a.npy", "missing-b.npy"], env=env,
                         cwd=tmp_path, capture_output=True, text=True)
    assert bad.returncode == 2 and "missing-a.npy" in bad.stderr
    bad = subprocess.run([bin_ / "python", "-m", "gpuport", "no-such-command"], env=env,
                         cwd=tmp_path, capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown command" in bad.stderr

    code = textwrap.dedent("""
        import numpy as np, gpuport, os, sys
        lib = gpuport._native.library_path()
        assert lib.startswith(sys.prefix) and "_lib" in lib, lib
        assert gpuport.tools.executable().startswith(sys.prefix)
        dev = gpuport.Device("cpu")
        x = np.arange(8, dtype=np.float32)
        y = np.ones(8, dtype=np.float32)
        k = dev.builtin_program("basic").kernel("gp_saxpy")  # built into the library: no compiler
        k(8, y, x, 2.0, 8)
        assert (y == 2 * x + 1).all(), y
        g = gpuport.from_dlpack(x, device=dev)
        x[0] = 5
        assert np.from_dlpack(g)[0] == 5
        try:
            dev.program("GP_KERNEL(k, GP_BUF(float, y)) { y[0] = 1.0f; }")
        except gpuport.UnsupportedError as e:
            assert "C compiler" in e.message, e.message
        else:
            raise AssertionError("compiled without a compiler")
        print("ok")
    """)
    p = _run([bin_ / "python", "-c", code], env=env, cwd=tmp_path)
    assert p.stdout.strip() == "ok"


def test_pip_install_gives_the_console_script(tmp_path):
    bin_ = _venv(tmp_path / "venv")
    env = _clean_env(tmp_path)
    _run([bin_ / "python", "-m", "pip", "install", "--quiet", "--no-build-isolation",
          "--disable-pip-version-check", PKG], env=env, cwd=tmp_path)
    env["PATH"] = f"{bin_}{os.pathsep}{env.get('PATH', '')}"
    p = _run(["gpuport", "version"], env=env, cwd=tmp_path)
    assert "0.1.0" in p.stdout
    p = _run([bin_ / "python", "-c", "import gpuport; print(gpuport._native.library_path())"],
             env=env, cwd=tmp_path)
    assert str(tmp_path / "venv") in p.stdout
