"""A script written for the CUDA server: .cuda() is what a Mac cannot run."""
import torch

model = torch.nn.Linear(8, 2)
x = torch.randn(4, 8)
if torch.cuda.is_available() or True:
    model = model.cuda()  # mps: stop torch.Tensor.cuda
print(model(x.cuda()).shape)
