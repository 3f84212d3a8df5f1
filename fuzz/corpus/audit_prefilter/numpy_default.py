import numpy as np, torch
z = np.random.randn(4, 2)
w = np.zeros((3,), dtype=dt)
t = torch.as_tensor(z)
u = torch.from_numpy(np.linspace(0, 1, 5)).to(dev)
class A:
    def f(self):
        self.q = np.eye(3)
        return torch.from_numpy(self.q).to(dev), t.to(dev)
