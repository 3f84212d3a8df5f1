"""Negative control (look-alike of eig): eigh on a symmetric matrix has an MPS kernel."""
import torch

device = "mps" if torch.backends.mps.is_available() else "cpu"
a = torch.randn(5, 5).to(device)
sym = a @ a.T
vals, vecs = torch.linalg.eigh(sym)
print(vals.shape, vecs.shape)
