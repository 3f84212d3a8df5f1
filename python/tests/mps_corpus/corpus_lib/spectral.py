"""Helper module of eig_helper.py (in the mps-check corpus)."""
import torch


def spectral_radius(a):
    vals = torch.linalg.eigvals(a)  # mps: no-mps-kernel aten::linalg_eig
    return vals.abs().max().item()
