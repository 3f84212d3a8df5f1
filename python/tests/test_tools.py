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
