#!/usr/bin/env python3
"""compare_numpy.py — the numpy side of the compare benchmark, and the generator of its data.

  compare_numpy.py make DIR [MIB]   writes DIR/ref.npy and DIR/port.npy (float32, MIB MiB each,
                                    default 1024), in slices so that generating stays small
  compare_numpy.py run A B          what a user would write: np.load both, np.allclose with the
                                    port-acceptance f32 tolerances, max and mean absolute error
"""
import os
import sys

import numpy as np


def make(folder, mib):
    os.makedirs(folder, exist_ok=True)
    n = mib * (1 << 20) // 4
    rng = np.random.default_rng(1234)
    ref = np.lib.format.open_memmap(os.path.join(folder, "ref.npy"), mode="w+", dtype="<f4", shape=(n,))
    port = np.lib.format.open_memmap(os.path.join(folder, "port.npy"), mode="w+", dtype="<f4", shape=(n,))
    step = 1 << 24
    for i in range(0, n, step):
        x = rng.standard_normal(min(step, n - i), dtype=np.float32)
        ref[i : i + len(x)] = x
        # a port that differs by a few ULP, as reordered reductions do
        port[i : i + len(x)] = x * np.float32(1 + 2e-7) + np.float32(1e-7)
    ref.flush()
    port.flush()


def run(pa, pb):
    a = np.load(pa)
    b = np.load(pb)
    ok = np.allclose(b, a, rtol=1e-4, atol=1e-5)
    d = np.abs(b - a)
    print(f"allclose={ok} max_abs={d.max():.6g} mean_abs={d.mean(dtype=np.float64):.6g}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1024)
    elif len(sys.argv) == 4 and sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
