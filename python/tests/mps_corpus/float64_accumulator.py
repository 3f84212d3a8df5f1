"""A float64 accumulator made on the device, only where the device is not CUDA (the Mac branch)."""
import torch

device = torch.device("cuda" if torch.cuda.is_available() else
                      "mps" if torch.backends.mps.is_available() else "cpu")
acc_dtype = torch.float32 if device.type == "cuda" else torch.float64
total = torch.zeros((), dtype=acc_dtype, device=device)  # mps: float64 aten::zeros
for _ in range(3):
    batch = torch.rand(16, device=device)
    total += batch.sum()
print(float(total))
