import torch
if args.distributed:
    torch.cud.aset_device(x)
else:
    raise NotImplementedError("x")
