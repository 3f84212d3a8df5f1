"""Negative control: recurrent layers (the CPU runs them through oneDNN, a Mac through _lstm_mps),
packed sequences, transposed, grouped and 3-d convolutions, normalisation layers and statistics
whose CPU path computes in float64 (quantile) — all of it runs on MPS."""
import torch
import torch.nn as nn
import torch.nn.functional as F

dev = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
for cls in (nn.LSTM, nn.GRU, nn.RNN):
    rnn = cls(8, 16, num_layers=2, batch_first=True, bidirectional=True).to(dev)
    out, _ = rnn(torch.randn(2, 5, 8, device=dev))
    out.sum().backward()
seqs = torch.randn(2, 5, 8, device=dev)
packed = nn.utils.rnn.pack_padded_sequence(seqs, torch.tensor([5, 3]), batch_first=True)
out, _ = nn.LSTM(8, 4, batch_first=True).to(dev)(packed)
padded, lengths = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
for layer, shape in ((nn.ConvTranspose2d(3, 4, 3, stride=2), (1, 3, 8, 8)),
                     (nn.Conv3d(2, 4, 3, padding=1), (1, 2, 6, 6, 6)),
                     (nn.Conv2d(4, 4, 3, groups=4, dilation=2), (1, 4, 9, 9)),
                     (nn.GroupNorm(2, 4), (2, 4, 5, 5)),
                     (nn.InstanceNorm2d(4, affine=True), (2, 4, 5, 5))):
    layer.to(dev)(torch.randn(*shape, device=dev)).sum().backward()
x = torch.randn(4, 10, device=dev, requires_grad=True)
F.kl_div(x.log_softmax(1), torch.rand(4, 10, device=dev), reduction="batchmean").backward()
stats = (torch.quantile(x.detach(), 0.9), torch.median(x.detach()), torch.topk(x, 3).values,
         torch.cdist(x, x), torch.linalg.svd(x.detach()).S, torch.unique(x.detach().round()))
print(padded.shape, lengths.tolist(), [s.shape for s in stats])
