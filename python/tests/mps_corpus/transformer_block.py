"""Negative control: a transformer block with causal attention, forward, backward and Adam."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm2 = nn.RMSNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.norm2(x))


device = "mps" if torch.backends.mps.is_available() else "cpu"
emb = nn.Embedding(100, 32).to(device)
block = Block().to(device)
opt = torch.optim.Adam(list(emb.parameters()) + list(block.parameters()))
tokens = torch.randint(0, 100, (2, 12), device=device)
out = block(emb(tokens))
loss = F.cross_entropy(out.view(-1, 32)[:, :10], tokens.view(-1) % 10)
loss.backward()
opt.step()
enc = nn.TransformerEncoderLayer(32, 4, 64, batch_first=True).to(device).eval()
with torch.no_grad():
    enc(emb(tokens))
