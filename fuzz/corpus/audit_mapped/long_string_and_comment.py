import torch
model = torch.nn.Linear(4, 4).cuda()
x = torch.ones(4).to("cuda")
torch.cuda.synchronize()


import torch

def pick():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")

try:
    import flash_attn
except ImportError:
    flash_attn = None

import torch
if use_cuda:
    scaler = torch.cuda.amp.GradScaler()

import torch
scaler = torch.amp.GradScaler()
# torch.cuda.amp.autocast()

import torch
from torch.cuda.amp import autocast, GradScaler
scaler = torch.cuda.amp.GradScaler()

import torch
if torch.cuda.is_available():
    model = torch.compile(model)

import re
pat = re.compile("x")

import torch
model = torch.compile(model)
from torch._inductor import config

import torch
# torch.backends.cudnn.benchmark = True
benchmark = True

import torch
torch.backends.cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True

import torch
model = torch.nn.Linear(2, 2)
if torch.cuda.is_available():
    model = model.cuda()
x = model if not torch.cuda.is_available() else model.cuda()

"""Call model.cuda() to move it: a docstring, not code."""
import numpy as np
# model.cuda() in a comment
y = np.cumsum([1, 2])
cudaless_mode = True
msg = "x.cuda()"
def cuda():
    return 1
cuda()

import torch
model = torch.nn.Linear(2, 2)
model = model.cuda()
x = torch.ones(2).cuda(0)

import torch
device = "cuda" if torch.cuda.is_available() else "mps"
if torch.cuda.is_available():
    t = torch.zeros(2, device="cuda")

import torch
print("cuda")
# t.to("cuda")
name = "cuda"
if str(dev) == "cuda":
    pass

import torch
t = torch.zeros(2, device="cuda")
u = t.to("cuda:0")
dev = torch.device('cuda')
DEVICE = "cuda"

import torch
if torch.cuda.is_available():
    torch.cuda.synchronize()
else:
    torch.mps.synchronize()

import torch
ok = torch.cuda.is_available()
# torch.cuda.synchronize()
mycuda.synchronize()

import torch
torch.cuda.synchronize()
torch.cuda.manual_seed_all(0)
mem = torch.cuda.memory_allocated()

import torch
if torch.cuda.is_available():
    device = "cuda"
elif torch.backends.mps.is_available():
    device = "mps"
else:
    device = "cpu"

import torch
device = "cuda" if torch.cuda.is_available() else "cpu"

import torch
if torch.cuda.is_available():
    g = torch.cuda.CUDAGraph()

import torch
# torch.cuda.graph(g)
graph = build_graph()

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    pass

import torch
import torch.distributed as dist
backend = "nccl" if torch.cuda.is_available() else "gloo"

import torch.distributed as dist
dist.init_process_group("gloo")
# dist.init_process_group("nccl")
lib = "nccl"

import torch.distributed as dist
dist.init_process_group("nccl")
dist.init_process_group(backend="nccl", world_size=2)

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
if torch.cuda.is_available():
    model = DDP(model, device_ids=[rank])

from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model)
note = "see NCCL_DEBUG docs"

import os
from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model, device_ids=[rank])
os.environ["NCCL_DEBUG"] = "INFO"

from torch.utils.data import DataLoader

def main():
    loader = DataLoader(ds, num_workers=2)

if __name__ == "__main__":
    main()

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=0, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
def make(ds):
    return DataLoader(ds, num_workers=4, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=2)
for b in loader:
    pass

import torch
if not torch.cuda.is_available():
    x = torch.zeros(3, dtype=torch.float64)

import numpy as np
a = np.zeros(3, dtype=np.float64)
b = np.double(2)
c = calc.double(2)

import torch
x = torch.zeros(3, dtype=torch.float64)
y = x.double()

import os
from setuptools import setup
from torch.utils import cpp_extension
exts = []
if os.environ.get("WITH_CUDA") == "1":
    exts.append(cpp_extension.CUDAExtension("k", ["k.cpp"]))
setup(name="k", ext_modules=exts)

import os
# reading where CUDA lives at run time is not a build of a CUDA extension
cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
arch = os.environ.get("TORCH_CUDA_ARCH_LIST")

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
# CUDAExtension("k", ["k.cu"]) once lived here
setup(name="k", ext_modules=[CppExtension("k", ["k.cpp"])])

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(
    name="k",
    ext_modules=[CUDAExtension("k", ["k.cpp", "k_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)

import torch
from torch.utils.cpp_extension import load
if torch.cuda.is_available():
    m = load(name="k", sources=["k.cu"])

import torch
state = torch.load("model.cu.pt")
cfg = json.load(open("k.cu"))

from torch.utils.cpp_extension import load, load_inline
m = load(name="k", sources=["k.cpp", "k.cu"])
n = load_inline(name="x", cpp_sources=src, cuda_sources=cu)

import numba
# import cupy
flash_attention = 1
import flash_attention_utils
"""import xformers"""

import flash_attn
from xformers.ops import memory_efficient_attention
import numba.cuda
from numba import cuda
import cupy as cp

try:
    import cupy as cp
except ValueError:
    cp = None

try:
    import cupy as cp
except ImportError:
    cp = None

if HAS_APEX:
    from apex import amp

import torch
if torch.cuda.is_available():
    x = batch.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=use_pin)
# x.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=True)
x = batch.pin_memory()

try:
    import triton
except ImportError:
    triton = None

# import triton
tritonish = 1

import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    pass

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = model(x)

import torch
from flash_attn import flash_attn_func

def attend(q, k, v):
    return flash_attn_func(q, k, v)

import torch.distributed as dist
dist.init_process_group(backend="nccl")

import torch
x = torch.ones(2).cuda()  # gpuport: ignore[PY-DEV-001]
# gpuport: ignore[PY-DEV-003]
torch.cuda.synchronize()
y = x.cuda()  # gpuport: ignore[PY-DEV-002]
z = x.cuda()  # gpuport: ignore

import torch
model = torch.nn.Linear(4, 4).cuda()
x = torch.ones(4).to("cuda")
torch.cuda.synchronize()


import torch

def pick():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")

try:
    import flash_attn
except ImportError:
    flash_attn = None

import torch
if use_cuda:
    scaler = torch.cuda.amp.GradScaler()

import torch
scaler = torch.amp.GradScaler()
# torch.cuda.amp.autocast()

import torch
from torch.cuda.amp import autocast, GradScaler
scaler = torch.cuda.amp.GradScaler()

import torch
if torch.cuda.is_available():
    model = torch.compile(model)

import re
pat = re.compile("x")

import torch
model = torch.compile(model)
from torch._inductor import config

import torch
# torch.backends.cudnn.benchmark = True
benchmark = True

import torch
torch.backends.cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True

import torch
model = torch.nn.Linear(2, 2)
if torch.cuda.is_available():
    model = model.cuda()
x = model if not torch.cuda.is_available() else model.cuda()

"""Call model.cuda() to move it: a docstring, not code."""
import numpy as np
# model.cuda() in a comment
y = np.cumsum([1, 2])
cudaless_mode = True
msg = "x.cuda()"
def cuda():
    return 1
cuda()

import torch
model = torch.nn.Linear(2, 2)
model = model.cuda()
x = torch.ones(2).cuda(0)

import torch
device = "cuda" if torch.cuda.is_available() else "mps"
if torch.cuda.is_available():
    t = torch.zeros(2, device="cuda")

import torch
print("cuda")
# t.to("cuda")
name = "cuda"
if str(dev) == "cuda":
    pass

import torch
t = torch.zeros(2, device="cuda")
u = t.to("cuda:0")
dev = torch.device('cuda')
DEVICE = "cuda"

import torch
if torch.cuda.is_available():
    torch.cuda.synchronize()
else:
    torch.mps.synchronize()

import torch
ok = torch.cuda.is_available()
# torch.cuda.synchronize()
mycuda.synchronize()

import torch
torch.cuda.synchronize()
torch.cuda.manual_seed_all(0)
mem = torch.cuda.memory_allocated()

import torch
if torch.cuda.is_available():
    device = "cuda"
elif torch.backends.mps.is_available():
    device = "mps"
else:
    device = "cpu"

import torch
device = "cuda" if torch.cuda.is_available() else "cpu"

import torch
if torch.cuda.is_available():
    g = torch.cuda.CUDAGraph()

import torch
# torch.cuda.graph(g)
graph = build_graph()

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    pass

import torch
import torch.distributed as dist
backend = "nccl" if torch.cuda.is_available() else "gloo"

import torch.distributed as dist
dist.init_process_group("gloo")
# dist.init_process_group("nccl")
lib = "nccl"

import torch.distributed as dist
dist.init_process_group("nccl")
dist.init_process_group(backend="nccl", world_size=2)

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
if torch.cuda.is_available():
    model = DDP(model, device_ids=[rank])

from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model)
note = "see NCCL_DEBUG docs"

import os
from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model, device_ids=[rank])
os.environ["NCCL_DEBUG"] = "INFO"

from torch.utils.data import DataLoader

def main():
    loader = DataLoader(ds, num_workers=2)

if __name__ == "__main__":
    main()

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=0, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
def make(ds):
    return DataLoader(ds, num_workers=4, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=2)
for b in loader:
    pass

import torch
if not torch.cuda.is_available():
    x = torch.zeros(3, dtype=torch.float64)

import numpy as np
a = np.zeros(3, dtype=np.float64)
b = np.double(2)
c = calc.double(2)

import torch
x = torch.zeros(3, dtype=torch.float64)
y = x.double()

import os
from setuptools import setup
from torch.utils import cpp_extension
exts = []
if os.environ.get("WITH_CUDA") == "1":
    exts.append(cpp_extension.CUDAExtension("k", ["k.cpp"]))
setup(name="k", ext_modules=exts)

import os
# reading where CUDA lives at run time is not a build of a CUDA extension
cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
arch = os.environ.get("TORCH_CUDA_ARCH_LIST")

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
# CUDAExtension("k", ["k.cu"]) once lived here
setup(name="k", ext_modules=[CppExtension("k", ["k.cpp"])])

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(
    name="k",
    ext_modules=[CUDAExtension("k", ["k.cpp", "k_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)

import torch
from torch.utils.cpp_extension import load
if torch.cuda.is_available():
    m = load(name="k", sources=["k.cu"])

import torch
state = torch.load("model.cu.pt")
cfg = json.load(open("k.cu"))

from torch.utils.cpp_extension import load, load_inline
m = load(name="k", sources=["k.cpp", "k.cu"])
n = load_inline(name="x", cpp_sources=src, cuda_sources=cu)

import numba
# import cupy
flash_attention = 1
import flash_attention_utils
"""import xformers"""

import flash_attn
from xformers.ops import memory_efficient_attention
import numba.cuda
from numba import cuda
import cupy as cp

try:
    import cupy as cp
except ValueError:
    cp = None

try:
    import cupy as cp
except ImportError:
    cp = None

if HAS_APEX:
    from apex import amp

import torch
if torch.cuda.is_available():
    x = batch.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=use_pin)
# x.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=True)
x = batch.pin_memory()

try:
    import triton
except ImportError:
    triton = None

# import triton
tritonish = 1

import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    pass

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = model(x)

import torch
from flash_attn import flash_attn_func

def attend(q, k, v):
    return flash_attn_func(q, k, v)

import torch.distributed as dist
dist.init_process_group(backend="nccl")

import torch
x = torch.ones(2).cuda()  # gpuport: ignore[PY-DEV-001]
# gpuport: ignore[PY-DEV-003]
torch.cuda.synchronize()
y = x.cuda()  # gpuport: ignore[PY-DEV-002]
z = x.cuda()  # gpuport: ignore

DOC = """text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
text about cuda and mps, nothing else
"""
# xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
import torch
model = torch.nn.Linear(4, 4).cuda()
x = torch.ones(4).to("cuda")
torch.cuda.synchronize()


import torch

def pick():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")

try:
    import flash_attn
except ImportError:
    flash_attn = None

import torch
if use_cuda:
    scaler = torch.cuda.amp.GradScaler()

import torch
scaler = torch.amp.GradScaler()
# torch.cuda.amp.autocast()

import torch
from torch.cuda.amp import autocast, GradScaler
scaler = torch.cuda.amp.GradScaler()

import torch
if torch.cuda.is_available():
    model = torch.compile(model)

import re
pat = re.compile("x")

import torch
model = torch.compile(model)
from torch._inductor import config

import torch
# torch.backends.cudnn.benchmark = True
benchmark = True

import torch
torch.backends.cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True

import torch
model = torch.nn.Linear(2, 2)
if torch.cuda.is_available():
    model = model.cuda()
x = model if not torch.cuda.is_available() else model.cuda()

"""Call model.cuda() to move it: a docstring, not code."""
import numpy as np
# model.cuda() in a comment
y = np.cumsum([1, 2])
cudaless_mode = True
msg = "x.cuda()"
def cuda():
    return 1
cuda()

import torch
model = torch.nn.Linear(2, 2)
model = model.cuda()
x = torch.ones(2).cuda(0)

import torch
device = "cuda" if torch.cuda.is_available() else "mps"
if torch.cuda.is_available():
    t = torch.zeros(2, device="cuda")

import torch
print("cuda")
# t.to("cuda")
name = "cuda"
if str(dev) == "cuda":
    pass

import torch
t = torch.zeros(2, device="cuda")
u = t.to("cuda:0")
dev = torch.device('cuda')
DEVICE = "cuda"

import torch
if torch.cuda.is_available():
    torch.cuda.synchronize()
else:
    torch.mps.synchronize()

import torch
ok = torch.cuda.is_available()
# torch.cuda.synchronize()
mycuda.synchronize()

import torch
torch.cuda.synchronize()
torch.cuda.manual_seed_all(0)
mem = torch.cuda.memory_allocated()

import torch
if torch.cuda.is_available():
    device = "cuda"
elif torch.backends.mps.is_available():
    device = "mps"
else:
    device = "cpu"

import torch
device = "cuda" if torch.cuda.is_available() else "cpu"

import torch
if torch.cuda.is_available():
    g = torch.cuda.CUDAGraph()

import torch
# torch.cuda.graph(g)
graph = build_graph()

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    pass

import torch
import torch.distributed as dist
backend = "nccl" if torch.cuda.is_available() else "gloo"

import torch.distributed as dist
dist.init_process_group("gloo")
# dist.init_process_group("nccl")
lib = "nccl"

import torch.distributed as dist
dist.init_process_group("nccl")
dist.init_process_group(backend="nccl", world_size=2)

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
if torch.cuda.is_available():
    model = DDP(model, device_ids=[rank])

from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model)
note = "see NCCL_DEBUG docs"

import os
from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model, device_ids=[rank])
os.environ["NCCL_DEBUG"] = "INFO"

from torch.utils.data import DataLoader

def main():
    loader = DataLoader(ds, num_workers=2)

if __name__ == "__main__":
    main()

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=0, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
def make(ds):
    return DataLoader(ds, num_workers=4, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=2)
for b in loader:
    pass

import torch
if not torch.cuda.is_available():
    x = torch.zeros(3, dtype=torch.float64)

import numpy as np
a = np.zeros(3, dtype=np.float64)
b = np.double(2)
c = calc.double(2)

import torch
x = torch.zeros(3, dtype=torch.float64)
y = x.double()

import os
from setuptools import setup
from torch.utils import cpp_extension
exts = []
if os.environ.get("WITH_CUDA") == "1":
    exts.append(cpp_extension.CUDAExtension("k", ["k.cpp"]))
setup(name="k", ext_modules=exts)

import os
# reading where CUDA lives at run time is not a build of a CUDA extension
cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
arch = os.environ.get("TORCH_CUDA_ARCH_LIST")

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
# CUDAExtension("k", ["k.cu"]) once lived here
setup(name="k", ext_modules=[CppExtension("k", ["k.cpp"])])

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(
    name="k",
    ext_modules=[CUDAExtension("k", ["k.cpp", "k_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)

import torch
from torch.utils.cpp_extension import load
if torch.cuda.is_available():
    m = load(name="k", sources=["k.cu"])

import torch
state = torch.load("model.cu.pt")
cfg = json.load(open("k.cu"))

from torch.utils.cpp_extension import load, load_inline
m = load(name="k", sources=["k.cpp", "k.cu"])
n = load_inline(name="x", cpp_sources=src, cuda_sources=cu)

import numba
# import cupy
flash_attention = 1
import flash_attention_utils
"""import xformers"""

import flash_attn
from xformers.ops import memory_efficient_attention
import numba.cuda
from numba import cuda
import cupy as cp

try:
    import cupy as cp
except ValueError:
    cp = None

try:
    import cupy as cp
except ImportError:
    cp = None

if HAS_APEX:
    from apex import amp

import torch
if torch.cuda.is_available():
    x = batch.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=use_pin)
# x.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=True)
x = batch.pin_memory()

try:
    import triton
except ImportError:
    triton = None

# import triton
tritonish = 1

import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    pass

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = model(x)

import torch
from flash_attn import flash_attn_func

def attend(q, k, v):
    return flash_attn_func(q, k, v)

import torch.distributed as dist
dist.init_process_group(backend="nccl")

import torch
x = torch.ones(2).cuda()  # gpuport: ignore[PY-DEV-001]
# gpuport: ignore[PY-DEV-003]
torch.cuda.synchronize()
y = x.cuda()  # gpuport: ignore[PY-DEV-002]
z = x.cuda()  # gpuport: ignore

import torch
model = torch.nn.Linear(4, 4).cuda()
x = torch.ones(4).to("cuda")
torch.cuda.synchronize()


import torch

def pick():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")

try:
    import flash_attn
except ImportError:
    flash_attn = None

import torch
if use_cuda:
    scaler = torch.cuda.amp.GradScaler()

import torch
scaler = torch.amp.GradScaler()
# torch.cuda.amp.autocast()

import torch
from torch.cuda.amp import autocast, GradScaler
scaler = torch.cuda.amp.GradScaler()

import torch
if torch.cuda.is_available():
    model = torch.compile(model)

import re
pat = re.compile("x")

import torch
model = torch.compile(model)
from torch._inductor import config

import torch
# torch.backends.cudnn.benchmark = True
benchmark = True

import torch
torch.backends.cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True

import torch
model = torch.nn.Linear(2, 2)
if torch.cuda.is_available():
    model = model.cuda()
x = model if not torch.cuda.is_available() else model.cuda()

"""Call model.cuda() to move it: a docstring, not code."""
import numpy as np
# model.cuda() in a comment
y = np.cumsum([1, 2])
cudaless_mode = True
msg = "x.cuda()"
def cuda():
    return 1
cuda()

import torch
model = torch.nn.Linear(2, 2)
model = model.cuda()
x = torch.ones(2).cuda(0)

import torch
device = "cuda" if torch.cuda.is_available() else "mps"
if torch.cuda.is_available():
    t = torch.zeros(2, device="cuda")

import torch
print("cuda")
# t.to("cuda")
name = "cuda"
if str(dev) == "cuda":
    pass

import torch
t = torch.zeros(2, device="cuda")
u = t.to("cuda:0")
dev = torch.device('cuda')
DEVICE = "cuda"

import torch
if torch.cuda.is_available():
    torch.cuda.synchronize()
else:
    torch.mps.synchronize()

import torch
ok = torch.cuda.is_available()
# torch.cuda.synchronize()
mycuda.synchronize()

import torch
torch.cuda.synchronize()
torch.cuda.manual_seed_all(0)
mem = torch.cuda.memory_allocated()

import torch
if torch.cuda.is_available():
    device = "cuda"
elif torch.backends.mps.is_available():
    device = "mps"
else:
    device = "cpu"

import torch
device = "cuda" if torch.cuda.is_available() else "cpu"

import torch
if torch.cuda.is_available():
    g = torch.cuda.CUDAGraph()

import torch
# torch.cuda.graph(g)
graph = build_graph()

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    pass

import torch
import torch.distributed as dist
backend = "nccl" if torch.cuda.is_available() else "gloo"

import torch.distributed as dist
dist.init_process_group("gloo")
# dist.init_process_group("nccl")
lib = "nccl"

import torch.distributed as dist
dist.init_process_group("nccl")
dist.init_process_group(backend="nccl", world_size=2)

import torch
from torch.nn.parallel import DistributedDataParallel as DDP
if torch.cuda.is_available():
    model = DDP(model, device_ids=[rank])

from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model)
note = "see NCCL_DEBUG docs"

import os
from torch.nn.parallel import DistributedDataParallel as DDP
model = DDP(model, device_ids=[rank])
os.environ["NCCL_DEBUG"] = "INFO"

from torch.utils.data import DataLoader

def main():
    loader = DataLoader(ds, num_workers=2)

if __name__ == "__main__":
    main()

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=0, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
def make(ds):
    return DataLoader(ds, num_workers=4, collate_fn=lambda b: b)

from torch.utils.data import DataLoader
loader = DataLoader(ds, num_workers=2)
for b in loader:
    pass

import torch
if not torch.cuda.is_available():
    x = torch.zeros(3, dtype=torch.float64)

import numpy as np
a = np.zeros(3, dtype=np.float64)
b = np.double(2)
c = calc.double(2)

import torch
x = torch.zeros(3, dtype=torch.float64)
y = x.double()

import os
from setuptools import setup
from torch.utils import cpp_extension
exts = []
if os.environ.get("WITH_CUDA") == "1":
    exts.append(cpp_extension.CUDAExtension("k", ["k.cpp"]))
setup(name="k", ext_modules=exts)

import os
# reading where CUDA lives at run time is not a build of a CUDA extension
cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
arch = os.environ.get("TORCH_CUDA_ARCH_LIST")

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension
# CUDAExtension("k", ["k.cu"]) once lived here
setup(name="k", ext_modules=[CppExtension("k", ["k.cpp"])])

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(
    name="k",
    ext_modules=[CUDAExtension("k", ["k.cpp", "k_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)

import torch
from torch.utils.cpp_extension import load
if torch.cuda.is_available():
    m = load(name="k", sources=["k.cu"])

import torch
state = torch.load("model.cu.pt")
cfg = json.load(open("k.cu"))

from torch.utils.cpp_extension import load, load_inline
m = load(name="k", sources=["k.cpp", "k.cu"])
n = load_inline(name="x", cpp_sources=src, cuda_sources=cu)

import numba
# import cupy
flash_attention = 1
import flash_attention_utils
"""import xformers"""

import flash_attn
from xformers.ops import memory_efficient_attention
import numba.cuda
from numba import cuda
import cupy as cp

try:
    import cupy as cp
except ValueError:
    cp = None

try:
    import cupy as cp
except ImportError:
    cp = None

if HAS_APEX:
    from apex import amp

import torch
if torch.cuda.is_available():
    x = batch.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=use_pin)
# x.pin_memory()

from torch.utils.data import DataLoader
loader = DataLoader(ds, pin_memory=True)
x = batch.pin_memory()

try:
    import triton
except ImportError:
    triton = None

# import triton
tritonish = 1

import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    pass

import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = model(x)

import torch
from flash_attn import flash_attn_func

def attend(q, k, v):
    return flash_attn_func(q, k, v)

import torch.distributed as dist
dist.init_process_group(backend="nccl")

import torch
x = torch.ones(2).cuda()  # gpuport: ignore[PY-DEV-001]
# gpuport: ignore[PY-DEV-003]
torch.cuda.synchronize()
y = x.cuda()  # gpuport: ignore[PY-DEV-002]
z = x.cuda()  # gpuport: ignore

