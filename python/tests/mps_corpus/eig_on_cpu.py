"""Negative control: eig on purpose on the CPU, and float64 metrics after .cpu()."""
import numpy as np
import torch

device = "mps" if torch.backends.mps.is_available() else "cpu"
x = torch.randn(4, 4, device=device)
m = (x @ x.T).cpu()
vals = torch.linalg.eig(m).eigenvalues
scores = x.sum(1).cpu().double()
print(vals.real.max().item(), np.mean(scores.numpy()), torch.tensor(np.ones(3)).sum())
