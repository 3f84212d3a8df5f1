"""A complex64 matrix inverse: MPS has no complex linalg.inv."""
import torch

device = "mps" if torch.backends.mps.is_available() else "cpu"
h = torch.randn(4, 4, dtype=torch.complex64).to(device)
eye = torch.eye(4, dtype=torch.complex64, device=device)
w = torch.linalg.inv(h + 4 * eye)  # mps: complex aten::linalg_inv_ex
print((w @ h).abs().sum())
spectrum = torch.fft.rfft(torch.randn(16, device=device))
print(spectrum.abs().max())
