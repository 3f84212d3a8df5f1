"""Negative control: the default device set to mps, a seeded generator on it, pinned batches,
autocast to float16 and the torch.mps utilities — everything a Mac script does, all on MPS."""
import torch
import torch.nn as nn

if torch.backends.mps.is_available():
    torch.set_default_device("mps")
    torch.mps.manual_seed(0)
gen = torch.Generator(device=torch.get_default_device()).manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.SiLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batch = torch.randn(8, 16).pin_memory() if not torch.backends.mps.is_available() else torch.randn(8, 16)
with torch.autocast(device_type=torch.get_default_device().type, dtype=torch.float16):
    out = model(batch)
loss = out.float().pow(2).mean()
loss.backward()
opt.step()
noise = torch.rand(3, generator=gen, device=torch.get_default_device())
if torch.backends.mps.is_available():
    torch.mps.synchronize()
    print(torch.mps.current_allocated_memory() >= 0)
torch.set_default_device(None)
print(loss.item(), noise.shape)
