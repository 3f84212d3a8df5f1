"""Pooling a uint8 image without converting it: the MPS kernel refuses uint8 (the CPU too)."""
import torch
import torch.nn.functional as F

device = "mps" if torch.backends.mps.is_available() else "cpu"
img = torch.randint(0, 255, (1, 3, 8, 8), dtype=torch.uint8).to(device)
small = F.avg_pool2d(img, 2)  # mps: dtype aten::avg_pool2d
print(small.shape)
