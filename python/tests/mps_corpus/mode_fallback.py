"""torch.mode on the device: with PYTORCH_ENABLE_MPS_FALLBACK=1 it runs on the CPU."""
# mps-check: --fallback
import torch

device = "mps" if torch.backends.mps.is_available() else "cpu"
votes = torch.randint(0, 5, (3, 7), device=device)
for _ in range(2):
    winner = torch.mode(votes, dim=1).values  # mps: no-mps-kernel aten::mode
print(winner)
