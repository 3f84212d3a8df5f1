"""A checkpoint written in float64 (by a numpy pipeline) loaded straight onto the device."""
import os
import tempfile

import numpy as np
import torch

device = torch.device("mps" if torch.backends.mps.is_available() else "cpu")
path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
torch.save({"weight": torch.from_numpy(np.eye(4)), "bias": torch.zeros(4)}, path)
model = torch.nn.Linear(4, 4)
state = torch.load(path, map_location=device)  # mps: float64 torch.load
model.load_state_dict({k: v.float() for k, v in state.items()})
model.to(device)
print(model(torch.ones(1, 4, device=device)).sum().item())
