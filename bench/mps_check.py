"""bench/mps_check.py — what `gpuport mps-check` costs: one training step of a small CNN and of a
transformer block with attention, timed plain on the CPU and traced (simulated mps device,
recorder on), side by side. Also checks that the recorder keeps no tensor alive.

    GPUPORT_BUILD_DIR=build python3 bench/mps_check.py [--steps N] [--threads T]
"""

import argparse
import gc
import os
import statistics
import sys
import time
import weakref

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from gpuport.mps.check import Check  # noqa: E402


def cnn(device):
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 8 * 8, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    x = torch.randn(32, 3, 32, 32).to(device)
    y = torch.randint(0, 10, (32,)).to(device)

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss
    return step


def transformer(device):
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(128, 4, 256, batch_first=True, dropout=0.1).to(device)
    head = nn.Linear(128, 100).to(device)
    opt = torch.optim.AdamW(list(layer.parameters()) + list(head.parameters()), lr=1e-3)
    x = torch.randn(16, 64, 128).to(device)
    y = torch.randint(0, 100, (16 * 64,)).to(device)
    mask = nn.Transformer.generate_square_subsequent_mask(64).to(device)

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(head(layer(x, src_mask=mask, is_causal=True)).view(-1, 100), y)
        loss.backward()
        opt.step()
        return loss
    return step


def tiny_mlp(device):
    """Overhead-bound: tiny tensors, so the per-call cost of the recorder is what is seen."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = torch.randn(4, 8).to(device)
    y = torch.randint(0, 2, (4,)).to(device)

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss
    return step


def timed(make, device, steps, check=None):
    """Median seconds per step (after two warm-up steps)."""
    def run():
        step = make(device)
        step()
        step()
        times = []
        for _ in range(steps):
            t = time.perf_counter()
            step()
            times.append(time.perf_counter() - t)
        return statistics.median(times)
    if check is None:
        return run()
    with check:
        return run()


def kept_alive():
    check = Check(simulate=True)
    with check:
        x = torch.randn(64, 64, device="mps", requires_grad=True)
        (x @ x).relu().sum().backward()
        refs = [weakref.ref(x), weakref.ref(x.grad)]
        del x
    gc.collect()
    return sum(r() is not None for r in refs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    print(f"torch {torch.__version__}, {a.threads} thread(s), median of {a.steps} steps")
    print(f"{'workload':<26}{'plain cpu':>12}{'traced':>12}{'ratio':>8}{'ATen calls/step':>18}")
    for name, make in (("cnn training step", cnn), ("transformer block step", transformer),
                       ("tiny MLP step (overhead)", tiny_mlp)):
        plain = timed(make, "cpu", a.steps)
        check = Check(simulate=True)
        traced = timed(make, "mps", a.steps, check)
        calls = check.rec.calls / (a.steps + 2)
        print(f"{name:<26}{plain * 1e3:>10.2f}ms{traced * 1e3:>10.2f}ms{traced / plain:>7.2f}x"
              f"{calls:>18.0f}")
        assert check.report()["verdict"] == "ready", check.report()["findings"]
    print(f"tensors the recorder kept alive: {kept_alive()}")


if __name__ == "__main__":
    main()
