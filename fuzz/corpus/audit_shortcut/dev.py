import torch
model = torch.nn.Linear(2, 2)
model = model.cuda()
x = torch.ones(2).cuda(0)
