"""gpuport mps-check: the corpus of small programs (every marked finding, with its operator and
line, and nothing else), the command's exit codes and bad input, the report's JSON, PyTorch's Mac
messages, and the context manager. Runs the programs in this process (one torch import)."""

import json
import os
import re
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")

from gpuport.mps import Check, parse_mac_message, run_program  # noqa: E402
from gpuport.mps import tables as mps_tables  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "mps_corpus"
PROGRAMS = sorted(p for p in CORPUS.glob("*.py"))
MARK = re.compile(r"#\s*mps:\s*(\S+)\s+(\S+)")
PYTHON_DIR = str(Path(__file__).resolve().parents[1])


def expected(program: Path):
    files = [program]
    text = program.read_text()
    m = re.search(r"^# helpers: (.+)$", text, re.M)
    if m:
        files += [CORPUS / h.strip() for h in m.group(1).split(",")]
    want = set()
    for f in files:
        for n, line in enumerate(f.read_text().splitlines(), 1):
            mm = MARK.search(line)
            if mm:
                want.add((mm.group(1), mm.group(2), f.name, n))
    return want


def options(program: Path):
    m = re.search(r"^# mps-check: (.+)$", program.read_text(), re.M)
    return m.group(1).split() if m else []


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_corpus(program, capsys):
    opts = options(program)
    as_device = "cpu" if "--as" in opts and "cpu" in opts else "mps"
    check = Check(as_device=as_device, fallback="--fallback" in opts, simulate=True)
    run_program(check, [sys.executable, str(program)])
    report = check.report()
    got = {(f["kind"], f["operator"], os.path.basename(f["file"]), f["line"])
           for f in report["findings"]}
    assert got == expected(program), json.dumps(report["findings"], indent=1)
    want = expected(program)
    if not want:
        assert report["verdict"] == "ready"
        assert report["program"]["status"] == "completed", report["program"]
    if not any(k == "stop" for k, *_ in want):
        assert report["operators"]["device_calls"] > 0


def test_corpus_is_big_enough():
    negatives = [p for p in PROGRAMS if not expected(p)]
    assert len(PROGRAMS) >= 15 and len(negatives) >= 5


def _cli(*args, env=None, cwd=None):
    e = dict(os.environ, PYTHONPATH=PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    e.pop("PYTORCH_ENABLE_MPS_FALLBACK", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "gpuport", "mps-check", *args],
                          capture_output=True, text=True, env=e, cwd=cwd, timeout=300)


def test_cli_json_fails_and_first_failure():
    r = _cli("--json", "--", "python", str(CORPUS / "float64_numpy.py"))
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert doc["schema"] == "gpuport.mps-check/1"
    assert doc["verdict"] == "fails" and doc["mode"] == "simulated"
    assert doc["torch"] == torch.__version__
    f = doc["first_failure"]
    assert f["kind"] == "float64" and f["line"] == 8 and "float64" in f["message"]


def test_cli_fallback_verdict_text(tmp_path):
    r = _cli(str(CORPUS / "mode_fallback.py"), env={"PYTORCH_ENABLE_MPS_FALLBACK": "1"})
    assert r.returncode == 0, r.stderr
    assert "runs with CPU fallback" in r.stdout
    assert re.search(r"mode_fallback.py:8: fallback: aten::mode \(int64\) x2", r.stdout), r.stdout
    r = _cli(str(CORPUS / "mode_fallback.py"))
    assert r.returncode == 1 and "fails on MPS" in r.stdout


def test_cli_program_error_is_the_programs(tmp_path):
    r = _cli(str(CORPUS / "raises_after.py"))
    assert r.returncode == 1
    assert "ValueError: the data set is empty" in r.stderr
    assert "gpuport/mps" not in r.stderr and "runpy" not in r.stderr
    assert re.search(r"the program raised at .*raises_after.py:6: ValueError", r.stdout)


def test_cli_exit_and_timeout(tmp_path):
    prog = tmp_path / "loop.py"
    prog.write_text("import sys, torch\nx = torch.ones(2, device='mps')\n"
                    "if len(sys.argv) > 1:\n    sys.exit(int(sys.argv[1]))\nwhile True:\n"
                    "    x = x + 1\n")
    r = _cli("--json", "--", "python", str(prog), "3")
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    assert doc["program"] == {"argv": [str(prog), "3"], "status": "exited", "exit_code": 3}
    r = _cli("--json", "--timeout", "1", "--", "python", str(prog))
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["program"]["status"] == "timeout" and doc["verdict"] == "ready"
    assert doc["operators"]["device_calls"] > 10


def test_cli_bad_input(tmp_path):
    r = _cli("--", "python", str(tmp_path / "missing.py"))
    assert r.returncode == 2 and "missing.py: no such script" in r.stderr
    r = _cli()
    assert r.returncode == 2 and "no program given" in r.stderr
    r = _cli("--timeout", "0", "x.py")
    assert r.returncode == 2 and "--timeout" in r.stderr
    r = _cli("--bogus", "--", "x.py")
    assert r.returncode == 2
    r = _cli("--help")
    assert r.returncode == 0 and "usage: gpuport mps-check" in r.stdout


def test_no_torch_is_exit_2(tmp_path):
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text("raise ImportError('no torch here')\n")
    prog = tmp_path / "p.py"
    prog.write_text("print(1)\n")
    r = _cli(str(prog), env={"PYTHONPATH": str(tmp_path) + os.pathsep + PYTHON_DIR})
    assert r.returncode == 2 and "torch is not installed" in r.stderr and "pip install" in r.stderr


def test_mac_messages_parse():
    # PyTorch's words (aten/src/ATen/mps/MPSFallback.mm and the float64 check), as printed
    warn = ("The operator 'aten::linalg_eig' is not currently supported on the MPS backend and "
            "will fall back to run on the CPU. This may have performance implications. (Triggered "
            "internally at /Users/builder/pytorch/aten/src/ATen/mps/"
            "MPSFallback.mm:14.)")
    err = ("The operator 'aten::_linalg_eigvals' is not currently implemented for the MPS device. "
           "If you want this op to be considered for addition please comment on "
           "https://github.com/pytorch/pytorch/issues/141287 and mention use-case, that resulted "
           "in missing op as well as commit hash 2236df1770800ffea5697b11b0bb0d910b2e59e1. As a "
           "temporary fix, you can set the environment variable `PYTORCH_ENABLE_MPS_FALLBACK=1` "
           "to use the CPU as a fallback for this op. WARNING: this will be slower than running "
           "natively on MPS.")
    f64 = ("Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support "
           "float64. Please use float32 instead.")
    assert parse_mac_message(warn) == {"kind": "fallback", "operator": "aten::linalg_eig"}
    assert parse_mac_message(err) == {"kind": "no-mps-kernel", "operator": "aten::_linalg_eigvals"}
    assert parse_mac_message(f64) == {"kind": "float64", "operator": ""}
    assert parse_mac_message("CUDA out of memory") is None


def test_tables_come_from_the_wheel():
    t = mps_tables.load()
    assert t.torch_version == torch.__version__.split("+")[0]
    assert t.yaml_path.endswith("native_functions.yaml") and os.path.isfile(t.yaml_path)
    assert t.status("add", "Tensor") == "mps"
    assert t.status("linalg_eig", "") == "missing"
    assert t.status("linalg_solve", "") in ("mps", "composite")
    assert t.status("no_such_op", "") == "unknown"
    assert t.counts()["mps_kernels"] > 300


def test_context_manager_and_no_tensor_kept():
    import gpuport.torch as gpt

    with gpt.mps_check() as check:
        assert torch.backends.mps.is_available()
        x = torch.randn(3, 3, device="mps")
        assert x.device.type == "mps" and x.is_mps
        y = (x @ x).cpu()
        assert y.device.type == "cpu"
        ref = weakref.ref(x)
        del x
        torch.linalg.eig(y)  # on the CPU: not a finding
    assert ref() is None
    assert not torch.backends.mps.is_available() or sys.platform == "darwin"
    r = check.report()
    assert r["verdict"] == "ready" and r["findings"] == []


def test_c_command_runs_the_programs_interpreter(tmp_path):
    from gpuport.tools import executable

    exe = executable(search_path=False)
    env = dict(os.environ)
    env.pop("PYTORCH_ENABLE_MPS_FALLBACK", None)
    r = subprocess.run([exe, "mps-check", "--json", "--", sys.executable,
                        str(CORPUS / "embedding_max_norm.py")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr  # always-cpu: runs, with that operator on the CPU
    doc = json.loads(r.stdout)
    assert doc["verdict"] == "fallback"
    assert doc["fallback_operators"] == [{"operator": "aten::embedding_renorm_", "count": 1}]
    r = subprocess.run([exe, "mps-check", "--as", "gpu", "x.py"], capture_output=True, text=True)
    assert r.returncode == 2 and "--as takes mps or cpu" in r.stderr
    r = subprocess.run([exe, "mps-check", "--", str(tmp_path / "python-none"), "x.py"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "cannot run it" in r.stderr


def test_freeze_records_the_report(tmp_path):
    import gpuport

    out = tmp_path / "mps.json"
    r = _cli("--output", str(out), str(CORPUS / "embedding_max_norm.py"))
    assert r.returncode == 0, r.stderr
    m = gpuport.freeze(mps_report=out)
    assert m["mps"]["verdict"] == "fallback"
    assert m["mps"]["fallback_operators"] == {"aten::embedding_renorm_": 1}
    assert m["mps"]["report"] == str(out)


def test_cli_module_form_and_json_error(tmp_path):
    (tmp_path / "stepmod.py").write_text(
        "import torch\nx = torch.randn(3, 3, device='mps')\nw = torch.linalg.eig(x)\n")
    r = _cli("--json", "--", "python", "-m", "stepmod", cwd=str(tmp_path))
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    f = doc["first_failure"]
    assert (f["operator"], os.path.basename(f["file"]), f["line"]) == \
        ("aten::linalg_eig", "stepmod.py", 3)
    r = _cli("--json", "--", "python", str(tmp_path / "nope.py"))
    assert r.returncode == 2
    assert json.loads(r.stdout) == {"schema": "gpuport.error/1", "command": "mps-check",
                                    "exit_code": 2, "error": f"{tmp_path / 'nope.py'}: no such script"}


def test_on_a_mac_pytorchs_own_messages_are_kept():
    # the device path (simulate=False) as it runs on a Mac: PyTorch's fallback warning and its
    # missing-operator error, in their own words, are recorded next to the prediction
    import warnings

    check = Check(simulate=False)
    assert check.mode == "device"
    with pytest.raises(NotImplementedError):
        with check:
            warnings.warn("The operator 'aten::linalg_eig' is not currently supported on the MPS "
                          "backend and will fall back to run on the CPU. This may have "
                          "performance implications.", UserWarning)
            raise NotImplementedError("The operator 'aten::_linalg_eigvals' is not currently "
                                      "implemented for the MPS device. If you want this op to be "
                                      "considered for addition please comment on "
                                      "https://github.com/pytorch/pytorch/issues/141287")
    r = check.report()
    assert [(o["kind"], o["operator"]) for o in r["observed"]] == [
        ("fallback", "aten::linalg_eig"), ("no-mps-kernel", "aten::_linalg_eigvals")]
    assert all(o["file"].endswith("test_mps_check.py") and o["line"] > 0 for o in r["observed"])
    assert r["program"]["error"]["type"] == "NotImplementedError"
