"""torch_device(): the choice and its reasons, with stand-ins for torch's device queries (a CUDA
GPU and an Apple GPU cannot be here), and the import-order warning with a real import."""

import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from gpuport import torchdev

PKG = Path(__file__).resolve().parents[1]


def fake_torch(cuda=False, mps_built=False, mps=False, cuda_version="12.6"):
    t = types.SimpleNamespace()
    t.cuda = types.SimpleNamespace(is_available=lambda: cuda, device_count=lambda: 2 if cuda else 0,
                                   get_device_name=lambda i: "NVIDIA H200")
    t.version = types.SimpleNamespace(cuda=cuda_version)
    t.backends = types.SimpleNamespace(mps=types.SimpleNamespace(is_built=lambda: mps_built,
                                                                 is_available=lambda: mps))
    return t


def test_cuda_first():
    name, why = torchdev.choose(torch=fake_torch(cuda=True, mps_built=True, mps=True))
    assert name == "cuda"
    assert why == ["cuda: chosen (2 device(s), NVIDIA H200)"]


def test_mps_when_no_cuda():
    name, why = torchdev.choose(torch=fake_torch(mps_built=True, mps=True, cuda_version=None))
    assert name == "mps"
    assert why[0] == "cuda: not available (this torch is a CPU-only build)"
    assert why[1] == "mps: chosen (Apple GPU)"


def test_cpu_with_reasons():
    name, why = torchdev.choose(torch=fake_torch(mps_built=True, mps=False))
    assert name == "cpu"
    assert "no usable GPU or driver" in why[0]
    assert "arm64 Python" in why[1]
    assert why[2] == "cpu: chosen (always available)"


def test_prefer_puts_a_backend_first():
    name, _ = torchdev.choose("cpu", torch=fake_torch(cuda=True))
    assert name == "cpu"
    name, _ = torchdev.choose("cuda:1", torch=fake_torch(cuda=True))
    assert name == "cuda:1"
    with pytest.raises(ValueError):
        torchdev.choose("tpu", torch=fake_torch())


def _run(code, tmp_path, env_extra=None):
    # A minimal importable `torch` package, so the import order is real.
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(textwrap.dedent("""
        import types
        class device(str):
            pass
        cuda = types.SimpleNamespace(is_available=lambda: False)
        version = types.SimpleNamespace(cuda=None)
        backends = types.SimpleNamespace(mps=types.SimpleNamespace(is_built=lambda: True,
                                                                   is_available=lambda: True))
    """))
    env = dict(os.environ, PYTHONPATH=f"{PKG}{os.pathsep}{tmp_path}")
    env.pop("PYTORCH_ENABLE_MPS_FALLBACK", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-W", "always", "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, env=env)


def test_importing_gpuport_does_not_import_torch(tmp_path):
    p = _run("import sys, gpuport; print('torch' in sys.modules)", tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"


def test_fallback_variable_set_after_import_warns(tmp_path):
    p = _run("""
        import os, gpuport, torch
        os.environ['PYTORCH_ENABLE_MPS_FALLBACK'] = '1'
        print(gpuport.torch_device())
    """, tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "mps"
    assert "set after torch was imported" in p.stderr


def test_fallback_variable_set_before_import_is_fine(tmp_path):
    p = _run("""
        import gpuport, torch
        print(gpuport.torch_device())
    """, tmp_path, {"PYTORCH_ENABLE_MPS_FALLBACK": "1"})
    assert p.returncode == 0, p.stderr
    assert "set after torch was imported" not in p.stderr


def test_without_torch_it_says_torch_is_not_installed(monkeypatch):
    import gpuport

    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError
    with pytest.raises(ImportError, match="torch is not installed"):
        gpuport.torch_device()
    with pytest.raises(ImportError, match="torch is not installed"):
        torchdev.choose()


def test_a_preference_that_cannot_be_honoured_says_so():
    with pytest.warns(RuntimeWarning, match=r"prefer='cuda'\) cannot be honoured: cuda: not "
                                            r"available \(this torch is a CPU-only build\).*using cpu"):
        name, _ = torchdev.choose("cuda", torch=fake_torch(cuda_version=None))
    assert name == "cpu"
    with pytest.warns(RuntimeWarning, match="cuda:5 does not exist.*using cuda"):
        name, why = torchdev.choose("cuda:5", torch=fake_torch(cuda=True))
    assert name == "cuda" and why[-1] == "cuda: chosen (2 device(s), NVIDIA H200)"
    with pytest.warns(RuntimeWarning, match="prefer='mps'.*using cuda"):
        torchdev.choose("mps", torch=fake_torch(cuda=True))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # honoured: no warning
        assert torchdev.choose("cuda:1", torch=fake_torch(cuda=True))[0] == "cuda:1"
        assert torchdev.choose("cpu", torch=fake_torch(cuda=True))[0] == "cpu"
