"""A program that fails by itself after a Mac problem: both are reported."""
import torch

device = "mps" if torch.backends.mps.is_available() else "cpu"
x = torch.tensor([1.0, 2.0], dtype=torch.float64, device=device)  # mps: float64 aten::lift_fresh
raise ValueError("the data set is empty")
