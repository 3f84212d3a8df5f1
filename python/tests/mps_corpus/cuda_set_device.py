"""A launcher that pins the GPU before anything else: torch.cuda needs CUDA, a Mac has none."""
import os

import torch

local_rank = int(os.environ.get("LOCAL_RANK", "0"))
torch.cuda.set_device(local_rank)  # mps: stop torch.cuda
model = torch.nn.Linear(4, 4)
