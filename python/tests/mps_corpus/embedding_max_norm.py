"""nn.Embedding with max_norm renormalises on the CPU on MPS (always, no setting needed)."""
import torch
import torch.nn as nn

device = "mps" if torch.backends.mps.is_available() else "cpu"
emb = nn.Embedding(50, 8, max_norm=1.0).to(device)
ids = torch.tensor([[1, 2, 3], [4, 5, 6]], device=device)
out = emb(ids)  # mps: always-cpu aten::embedding_renorm_
out.sum().backward()
