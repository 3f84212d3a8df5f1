"""A program that calls sys.exit after one step: the report covers that step."""
import sys

import torch

device = "mps" if torch.backends.mps.is_available() else "cpu"
a = torch.randn(3, 3, device=device)
q, r = torch.linalg.qr(a)
d = torch.pdist(a)  # mps: no-mps-kernel aten::_pdist_forward
sys.exit(0)
