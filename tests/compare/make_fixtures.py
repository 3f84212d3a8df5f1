#!/usr/bin/env python3
"""make_fixtures.py DIR — writes the inputs of test_compare_cli.sh with numpy (and the
expected numbers, computed here with numpy, into DIR/expected.json)."""
import json
import os
import struct
import sys
import zipfile

import numpy as np


def safetensors(path, tensors, header_patch=None, raw_header=None):
    """A minimal safetensors writer: tensors is [(name, dtype, shape, bytes)]."""
    header, data, off = {}, b"", 0
    for name, dt, shape, blob in tensors:
        header[name] = {"dtype": dt, "shape": list(shape), "data_offsets": [off, off + len(blob)]}
        data += blob
        off += len(blob)
    text = raw_header if raw_header is not None else json.dumps(header)
    if header_patch:
        text = header_patch(text)
    hb = text.encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(hb)) + hb + data)


def bf16_bytes(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    return (u >> 16).astype("<u2").tobytes()


def main(d):
    os.makedirs(d, exist_ok=True)
    p = lambda *n: os.path.join(d, *n)
    rng = np.random.default_rng(7)
    ref = rng.standard_normal((3, 4)).astype(np.float32)
    port = ref.copy()
    port[1, 2] += np.float32(0.5)
    port[2, 0] -= np.float32(0.25)
    np.save(p("ref.npy"), ref)
    np.save(p("same.npy"), ref.copy())
    np.save(p("port.npy"), port)
    np.save(p("ref_fortran.npy"), np.asfortranarray(ref))
    np.save(p("port_fortran_be.npy"), np.asfortranarray(port).astype(">f4"))
    ref.tofile(p("ref.f32"))
    d_abs = np.abs(port.astype(np.float64) - ref)
    fl = 0.01 * np.sqrt(np.mean(ref.astype(np.float64) ** 2))
    tol = 1e-5 + 1e-4 * np.maximum(np.abs(ref.astype(np.float64)), fl)
    exp = {
        "max_abs": float(d_abs.max()),
        "max_abs_index": [int(i) for i in np.unravel_index(int(d_abs.argmax()), ref.shape)],
        "mean_abs": float(d_abs.mean()),
        "rmse": float(np.sqrt(np.mean(d_abs**2))),
        "nmse": float(np.sum(d_abs**2) / np.sum(ref.astype(np.float64) ** 2)),
        "mismatched": int(np.sum(d_abs > tol)),
        "max_ulp": int(np.max(np.abs(port.view(np.int32).astype(np.int64) - ref.view(np.int32).astype(np.int64)))),
    }
    # asymmetric: |x - ref| <= rtol |ref| passes with ref = 110, fails with ref = 100
    np.save(p("hundred.npy"), np.array([100.0]))
    np.save(p("hundred_ten.npy"), np.array([110.0]))
    # npz: stored vs deflated, one tensor missing on each side, one with another shape/dtype
    np.savez(p("a.npz"), w=ref, b=np.arange(5, dtype=np.int64), only_a=np.zeros(2), shp=np.zeros(4), dt=np.zeros(3, np.float32))
    np.savez_compressed(p("b.npz"), w=port, b=np.arange(5, dtype=np.int64), only_b=np.ones(2), shp=np.zeros(5), dt=np.zeros(3, np.float64))
    np.savez_compressed(p("a_same.npz"), w=ref, b=np.arange(5, dtype=np.int64))
    np.savez(p("a_same_stored.npz"), w=ref, b=np.arange(5, dtype=np.int64))
    # safetensors with bf16, and the same bf16 values as an ml_dtypes-style <V2 .npy
    h = rng.standard_normal(6).astype(np.float32)
    safetensors(p("h.safetensors"), [("h", "BF16", (2, 3), bf16_bytes(h)), ("i", "I32", (2,), np.array([1, -2], "<i4").tobytes())])
    np.save(p("h_v2.npy"), np.frombuffer(bf16_bytes(h), dtype="V2").reshape(2, 3))
    safetensors(p("h2.safetensors"), [("h", "BF16", (2, 3), bf16_bytes(h)), ("i", "I32", (2,), np.array([1, -2], "<i4").tobytes())])
    # f16 port within the port-acceptance tolerance but outside torch's strict one
    f = rng.standard_normal(100).astype(np.float16)
    g = (f.astype(np.float32) * np.float32(1 + 3e-3)).astype(np.float16)
    np.save(p("f16_ref.npy"), f)
    np.save(p("f16_port.npy"), g)
    # csv / tsv
    with open(p("t.csv"), "w") as fh:
        fh.write("a,b\n1,2\n3,4.5\n")
    with open(p("t.tsv"), "w") as fh:
        fh.write("1\t2\n3\t4.5\n")
    # folders paired by relative path
    for side, arr in (("dir_a", ref), ("dir_b", port)):
        os.makedirs(p(side, "sub"), exist_ok=True)
        np.save(p(side, "x.npy"), ref)
        np.save(p(side, "sub", "y.npy"), arr)
        with open(p(side, "README.txt"), "w") as fh:
            fh.write("not data\n")
    np.save(p("dir_a", "only_here.npy"), ref)
    np.savez(p("dir_a", "m.npz"), w=ref, v=np.zeros(3))
    np.savez_compressed(p("dir_b", "m.npz"), w=port, v=np.zeros(3))
    # NaN and Inf placement
    nn = np.array([1.0, np.nan, np.inf, 4.0], np.float32)
    np.save(p("nan_a.npy"), nn)
    np.save(p("nan_b.npy"), np.array([1.0, 2.0, -np.inf, np.nan], np.float32))
    # complex and bool
    np.save(p("c.npy"), np.array([1 + 2j, 3 - 4j], np.complex64))
    np.save(p("c2.npy"), np.array([1 + 2j, 3 - 4.5j], np.complex64))
    np.save(p("bool_a.npy"), np.array([True, False, True]))
    np.save(p("bool_b.npy"), np.array([True, True, True]))
    # bad inputs
    bad = p("bad")
    os.makedirs(bad, exist_ok=True)
    raw = open(p("ref.npy"), "rb").read()
    open(os.path.join(bad, "truncated.npy"), "wb").write(raw[:-5])
    lie = bytearray(raw)
    lie[8:10] = struct.pack("<H", 9000)
    open(os.path.join(bad, "header_lies.npy"), "wb").write(bytes(lie))
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }"
    hdr += " " * (117 - len(hdr)) + "\n"
    open(os.path.join(bad, "overflow.npy"), "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
    np.save(os.path.join(bad, "object.npy"), np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    np.savez_compressed(os.path.join(bad, "bomb.npz"), z=np.zeros(16 << 20, np.uint8))
    # a member whose directory entry declares less than it inflates to
    with zipfile.ZipFile(os.path.join(bad, "liar.npz"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("z.npy", open(p("ref.npy"), "rb").read())
    blob = bytearray(open(os.path.join(bad, "liar.npz"), "rb").read())
    cd = blob.rfind(b"PK\x01\x02")
    blob[cd + 24 : cd + 28] = struct.pack("<I", 64)
    lh = blob.find(b"PK\x03\x04")
    blob[lh + 22 : lh + 26] = struct.pack("<I", 64)
    open(os.path.join(bad, "liar.npz"), "wb").write(bytes(blob))
    four = np.zeros(2, "<f4").tobytes()
    safetensors(os.path.join(bad, "overlap.safetensors"), [], raw_header=json.dumps({
        "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
        "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}))
    with open(os.path.join(bad, "overlap.safetensors"), "ab") as fh:
        fh.write(b"\0" * 12)
    safetensors(os.path.join(bad, "gap.safetensors"), [], raw_header=json.dumps({
        "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
        "b": {"dtype": "F32", "shape": [2], "data_offsets": [12, 20]}}))
    with open(os.path.join(bad, "gap.safetensors"), "ab") as fh:
        fh.write(b"\0" * 20)
    safetensors(os.path.join(bad, "dup.safetensors"), [], raw_header=
        '{"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}, '
        '"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}}')
    with open(os.path.join(bad, "dup.safetensors"), "ab") as fh:
        fh.write(four * 2)
    with open(os.path.join(bad, "huge_header.safetensors"), "wb") as fh:
        fh.write(struct.pack("<Q", 100_000_001) + b"{}")
    open(os.path.join(bad, "mystery.bin"), "wb").write(b"\1\2\3")
    with open(os.path.join(bad, "ragged.csv"), "w") as fh:
        fh.write("1,2\n3\n")
    json.dump(exp, open(p("expected.json"), "w"))


if __name__ == "__main__":
    main(sys.argv[1])
