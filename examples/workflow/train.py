"""train.py — the training script of a typical CUDA-first PyTorch project, kept here so that
`gpuport audit` has something real to judge (it is never run)."""

import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from model import Net  # noqa: F401  (not part of this example)


def main():
    dist.init_process_group(backend="nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = DDP(Net().cuda(), device_ids=[local_rank])
    scaler = torch.cuda.amp.GradScaler()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    batch = torch.randn(64, 1024, device="cuda").pin_memory()
    with torch.cuda.amp.autocast():
        loss = model(batch).float().pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
