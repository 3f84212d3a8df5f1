"""softmax.py — runs the translated softmax (kernels.gpk) on the device gpuport picks (or
$GPUPORT_DEVICE) and saves the result, so two machines' outputs can be compared."""

import argparse
import os
from pathlib import Path

import numpy as np

import gpuport as gp

HERE = Path(__file__).resolve().parent
ROWS, COLS, BLOCK = 512, 1000, 128


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out/softmax.npy")
    args = ap.parse_args()
    x = np.random.default_rng(0).standard_normal((ROWS, COLS)).astype(np.float32) * 4
    dev = gp.Device(os.environ.get("GPUPORT_DEVICE", "auto"))
    prog = dev.program((HERE / "kernels.gpk").read_text(), name="kernels.gpk")
    y = np.empty_like(x)
    prog.softmax_rows((ROWS * BLOCK,), y, x, COLS, group=(BLOCK,))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    np.save(args.out, y)
    print(f"softmax of {ROWS}x{COLS} on {dev.info.spec} ({dev.info.name}) -> {args.out}")


if __name__ == "__main__":
    main()
