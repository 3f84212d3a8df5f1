"""The files the package looks for are each platform's own: gpuport.dll and gpuport.exe on
Windows, libgpuport.dylib on macOS, libgpuport.so elsewhere (the lookup itself, for sys.platform as
each platform's Python spells it; the files are never opened)."""

import sys

import pytest

import gpuport._native as native
import gpuport.tools as tools


@pytest.mark.parametrize("plat,names", [("win32", ["gpuport.dll"]),
                                        ("darwin", ["libgpuport.dylib"]),
                                        ("linux", ["libgpuport.so", "libgpuport.so.0"])])
def test_library_names(monkeypatch, tmp_path, plat, names):
    monkeypatch.delenv("GPUPORT_LIBRARY", raising=False)
    monkeypatch.setenv("GPUPORT_BUILD_DIR", str(tmp_path))
    got = native.library_candidates(plat)
    assert [p.name for p in got] == names + names, got
    # the build folder, when set, before the bundled copy (an editable install's stays beside the
    # sources and must not hide a fresher build)
    assert got[0].parent == tmp_path and got[-1].parent.name == "_lib", got


@pytest.mark.parametrize("plat,exe", [("win32", "gpuport.exe"), ("linux", "gpuport")])
def test_cli_name(monkeypatch, tmp_path, plat, exe):
    monkeypatch.delenv("GPUPORT_CLI", raising=False)
    monkeypatch.setenv("GPUPORT_BUILD_DIR", str(tmp_path))
    monkeypatch.setattr(sys, "platform", plat)
    with pytest.raises(FileNotFoundError) as e:
        tools.executable(search_path=False)
    assert str(tmp_path / exe) in str(e.value), e.value
