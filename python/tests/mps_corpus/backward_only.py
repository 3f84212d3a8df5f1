"""A loss whose problem is in the backward pass only: multilabel margin loss's gradient."""
import torch
import torch.nn.functional as F

device = "mps" if torch.backends.mps.is_available() else "cpu"
logits = torch.randn(4, 6, device=device, requires_grad=True)
target = torch.tensor([[1, 3, -1, 0, 0, 0]] * 4, device=device)
loss = F.multilabel_soft_margin_loss(logits, (target > 0).float())
loss = loss + F.multi_margin_loss(logits, target[:, 0])  # mps: no-mps-kernel aten::multi_margin_loss
loss.backward()  # mps: no-mps-kernel aten::multi_margin_loss_backward
