"""Negative control: a DataLoader with worker processes, a thread, and a compiled model."""
import threading

import torch
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
ds = TensorDataset(torch.randn(32, 6), torch.randint(0, 3, (32,)))
loader = DataLoader(ds, batch_size=8, num_workers=2, shuffle=True)
model = torch.compile(torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(),
                                          torch.nn.Linear(16, 3)).to(device))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for xb, yb in loader:
    xb, yb = xb.to(device), yb.to(device)
    loss = torch.nn.functional.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()

seen = []
t = threading.Thread(target=lambda: seen.append(model(torch.randn(2, 6, device=device)).sum()))
t.start()
t.join()
print(len(seen), loss.item())
