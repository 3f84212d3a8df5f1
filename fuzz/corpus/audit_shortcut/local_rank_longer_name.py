if local_ranks  f(x)
    e = g
    torch.cuda.set_device(0)
