import numpy as np, torch
z = torch.from_numpy(np.random.RandomState(1).randn(2, 3)).to(d)
g = np.random.default_rng(
    7).normal(size=(2,))
h = torch.as_tensor(g).to(d)
k = torch.from_numpy(np.random.RandomState().randint(3)).to(d)
