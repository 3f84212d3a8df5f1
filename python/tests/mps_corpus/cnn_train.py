"""Negative control: a small CNN, one AdamW step, on whichever device there is."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    nn.Dropout(0.1), nn.Linear(16, 10),
).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
x = torch.randn(4, 3, 16, 16).to(device)
y = torch.randint(0, 10, (4,)).to(device)
loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
opt.zero_grad()
loss.backward()
torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
opt.step()
print(f"loss {loss.item():.3f}")
