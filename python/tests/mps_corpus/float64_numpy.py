"""numpy arrays are float64: moving one to mps as it is fails on a Mac."""
import numpy as np
import torch

device = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
features = np.random.default_rng(0).normal(size=(8, 4))
labels = np.arange(8) % 2
x = torch.from_numpy(features).to(device)  # mps: float64 aten::_to_copy
y = torch.from_numpy(labels).to(device)
w = torch.zeros(4, 1, device=device, requires_grad=True)
pred = torch.sigmoid(x.float() @ w).squeeze(1)
loss = torch.nn.functional.binary_cross_entropy(pred, y.float())
loss.backward()
