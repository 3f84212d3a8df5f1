"""An extension operator registered for CPU and CUDA only (as a compiled extension would be)."""
import torch

lib = torch.library.Library("myext", "DEF")
lib.define("fused_gelu(Tensor x) -> Tensor")
lib.impl("fused_gelu", lambda x: torch.nn.functional.gelu(x), "CPU")
lib.impl("fused_gelu", lambda x: torch.nn.functional.gelu(x), "CUDA")

device = "mps" if torch.backends.mps.is_available() else "cpu"
x = torch.randn(8, device=device)
y = torch.ops.myext.fused_gelu(x)  # mps: custom-op myext::fused_gelu
z = torch.ops.myext.fused_gelu(torch.randn(3))
print(y.sum(), z.sum())
