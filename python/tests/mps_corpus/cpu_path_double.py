"""Traced with --as cpu: the CPU path's float64 parameters would not move to MPS."""
# mps-check: --as cpu
import torch

model = torch.nn.Linear(4, 2).double()  # mps: float64 aten::_to_copy
out = model(torch.randn(3, 4, dtype=torch.float32).double())  # mps: float64 aten::_to_copy
print(out.sum().item())
