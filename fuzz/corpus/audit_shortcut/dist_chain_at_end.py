import torch
if args.distributed:
    torch.cuda.set_device(x)
else:
    raise NotImplementedError("x")
