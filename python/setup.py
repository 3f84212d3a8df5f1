"""Builds libgpuport and the gpuport CLI with CMake from the source tree this folder sits in, and
bundles both inside the package (gpuport/_lib), so `pip install ./python` needs nothing else; an
editable install (`pip install -e ./python`) puts them into this folder's gpuport/_lib, where the
package it points at finds them. The build says how far it is (on the terminal, which pip's
captured output would hide; `pip install -v` shows all of CMake's output). The
wheel (`pip wheel ./python`) is tagged py3-none-<platform>; on Linux `auditwheel repair` then
bundles the shared libraries it links (cJSON, OpenSSL's libcrypto) and gives it a manylinux tag,
on macOS `delocate-wheel` does the same (docs/python.md, "Installing")."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class _Progress:
    """Lines for the person waiting: on stderr, and on the terminal too when pip captures stderr
    (then stderr is not a terminal; /dev/tty is, where there is one)."""

    def __init__(self):
        self.tty = None
        if not sys.stderr.isatty():
            try:
                self.tty = open("/dev/tty", "w")
            except OSError:
                self.tty = None

    def say(self, msg):
        print(f"gpuport: {msg}", file=sys.stderr, flush=True)
        if self.tty:
            try:
                self.tty.write(f"gpuport: {msg}\n")
                self.tty.flush()
            except OSError:
                self.tty = None


def _cmake_build(cmd, progress):
    """Runs CMake's build, its output passed on (pip keeps it for -v and for failures) and its
    percentage said every tenth."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace")
    last = -10
    for line in p.stdout:
        sys.stdout.write(line)
        m = re.match(r"\[\s*(\d+)%\]", line)
        if m and int(m.group(1)) >= last + 10:
            last = int(m.group(1))
            progress.say(f"building libgpuport and the gpuport CLI: {last}%")
    if p.wait() != 0:
        sys.exit(f"gpuport: the build failed (exit {p.returncode}); CMake's output is above "
                 "(with pip: pip install -v ./python shows it all)")


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):  # pip install -e: beside the sources
            dest = HERE / "gpuport" / "_lib"
        else:
            dest = Path(self.build_lib) / "gpuport" / "_lib"
        dest.mkdir(parents=True, exist_ok=True)
        prebuilt = os.environ.get("GPUPORT_PREBUILT_DIR")  # a CMake build folder to take as is
        if prebuilt:
            build = Path(prebuilt)
        else:
            if not (ROOT / "CMakeLists.txt").is_file():
                sys.exit("gpuport: the C sources are not beside this folder; build from a checkout "
                         "of the repository, or set GPUPORT_PREBUILT_DIR to a CMake build folder")
            build = HERE / "build" / "cmake"
            cfg = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                   "-DGPUPORT_TESTS=OFF"]
            brew = shutil.which("brew") if sys.platform == "darwin" else None
            if brew:  # Homebrew's OpenSSL is keg-only: CMake needs the hint
                prefix = subprocess.run([brew, "--prefix", "openssl@3"], capture_output=True,
                                        text=True).stdout.strip()
                if prefix:
                    cfg.append(f"-DOPENSSL_ROOT_DIR={prefix}")
            progress = _Progress()
            if shutil.which("cmake") is None:
                sys.exit("gpuport: CMake is needed to build libgpuport (3.20 or newer, with a C "
                         "compiler, OpenSSL and cJSON: docs/python.md, \"Installing\")")
            progress.say(f"configuring libgpuport with CMake in {build}")
            subprocess.check_call(cfg)
            jobs = str(os.cpu_count() or 2)
            progress.say(f"building libgpuport and the gpuport CLI ({jobs} jobs; about a minute "
                         "the first time)")
            _cmake_build(["cmake", "--build", str(build), "-j", jobs, "--target", "gpuport",
                          "gpuport_cli"], progress)
            progress.say(f"built; bundling them into {dest}")
        lib = {"darwin": "libgpuport.dylib", "win32": "gpuport.dll"}.get(sys.platform, "libgpuport.so")
        exe = "gpuport.exe" if sys.platform == "win32" else "gpuport"
        real = (build / lib).resolve()
        if not real.is_file():
            sys.exit(f"gpuport: {build / lib} was not built")
        shutil.copy2(real, dest / lib)
        shutil.copy2(build / exe, dest / exe)


try:  # setuptools 70.1+ has bdist_wheel; before, the wheel package did
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    from wheel.bdist_wheel import bdist_wheel


class PlatformWheel(bdist_wheel):
    """The wheel carries a native library and executable but no extension module: it fits every
    Python 3 of its platform (py3-none-<platform>)."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        return "py3", "none", super().get_tag()[2]


class BinaryDistribution(Distribution):
    def has_ext_modules(self):  # the wheel carries a native library: tag it per platform
        return True


setup(cmdclass={"build_py": BuildWithLibrary, "bdist_wheel": PlatformWheel},
      distclass=BinaryDistribution)
