"""step.py — one training step of the example model on whichever device there is, the slice
`gpuport mps-check` runs to find what the Mac would refuse before the Mac (docs/workflow.md)."""

import numpy as np
import torch
import torch.nn as nn

device = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
features = np.random.default_rng(0).normal(size=(8, 16))  # numpy's default: float64
x = torch.from_numpy(features).to(device)
loss = model(x.float()).pow(2).mean()
loss.backward()
opt.step()
print(f"loss {loss.item():.4f} on {device}")
