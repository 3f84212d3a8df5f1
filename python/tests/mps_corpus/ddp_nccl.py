"""A DDP script that asks for NCCL: there is no NCCL on a Mac."""
import os

import torch
import torch.distributed as dist

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29533")
dist.init_process_group(backend="nccl", rank=0, world_size=1)  # mps: stop torch.distributed.init_process_group
model = torch.nn.Linear(4, 4)
