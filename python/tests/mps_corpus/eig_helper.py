"""A spectral feature computed in a helper module: linalg.eig has no MPS kernel."""
# helpers: corpus_lib/spectral.py
import torch

from corpus_lib.spectral import spectral_radius

device = "mps" if torch.backends.mps.is_available() else "cpu"
adj = (torch.rand(6, 6) > 0.5).float().to(device)
print(spectral_radius(adj))
