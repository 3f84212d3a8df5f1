"""The tools from Python return the CLI's JSON: a failed check is a result, bad input raises."""

import numpy as np
import pytest

import gpuport as gp


def test_compare_pass_fail_and_bad_input(tmp_path):
    a = np.linspace(0, 1, 1000, dtype=np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", a + 1e-7)
    np.save(tmp_path / "c.npy", a + 0.5)
    ok = gp.compare(tmp_path / "a.npy", tmp_path / "b.npy")
    assert ok["schema"] == "gpuport.compare/1" and ok["pass"] is True
    bad = gp.compare(tmp_path / "a.npy", tmp_path / "c.npy")
    assert bad["pass"] is False
    assert bad["tensors"][0]["max_abs"] == pytest.approx(0.5, rel=1e-6)
    (tmp_path / "junk.npy").write_bytes(b"not an npy file")
    with pytest.raises(gp.ToolError) as e:
        gp.compare(tmp_path / "a.npy", tmp_path / "junk.npy")
    assert e.value.code == 2 and "junk.npy" in e.value.stderr


def test_freeze_describes_this_python(tmp_path):
    (tmp_path / "in.bin").write_bytes(b"abc")
    m = gp.freeze(data=[tmp_path / "in.bin"], seeds={"torch": 7})
    assert m["schema"] == "gpuport.freeze/1"
    assert m["seeds"] == {"torch": "7"}
    assert m["data"][0]["sha256"] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert "numpy" in m["python"]["distributions"]


def test_doctor_returns_its_schema():
    d = gp.doctor()
    assert d["schema"] == "gpuport.doctor/1"
    assert {"cuda", "metal", "opencl", "cpu"} <= set(d["capabilities"])
    assert all({"id", "status"} <= set(c) for c in d["checks"])


def test_audit_finds_cuda_in_the_example(tmp_path):
    (tmp_path / "train.py").write_text("import torch\nx = torch.zeros(3).cuda()\n")
    (tmp_path / "clean.py").write_text("import numpy as np\nprint(np.cumsum([1, 2]))\n")
    r = gp.audit(tmp_path)
    assert r["schema"] == "gpuport.audit/1"
    rules = {(f["rule"], f["file"].split("/")[-1], f["line"]) for f in r["findings"]}
    assert ("PY-DEV-001", "train.py", 2) in rules
    assert not any(f["file"].endswith("clean.py") for f in r["findings"])
    with pytest.raises(gp.ToolError) as e:
        gp.audit(tmp_path / "missing")
    assert e.value.code == 2


def test_archcheck_judges_a_fatbin(tmp_path):
    import struct

    def entry(kind, arch, isa=(0, 0)):
        return struct.pack("<HHIQIIHHIIIQQQ", kind, 0x101, 0x40, 8, 0, 0, isa[1], isa[0], arch,
                           0, 0, 0x11, 0, 0) + b"\0" * 8
    body = entry(2, 86) + entry(1, 86, (8, 5))  # sm_86 SASS + compute_86 PTX
    f = tmp_path / "k.fatbin"
    f.write_bytes(struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(body)) + body)
    r = gp.archcheck(f, cc=["8.6", "12.0", "7.5"])
    assert r["schema"] == "gpuport.archcheck/1"
    v = {x["cc"]: x["status"] for x in r["files"][0]["verdicts"]}
    assert v == {"8.6": "runs", "12.0": "runs_after_jit", "7.5": "no_image"}
