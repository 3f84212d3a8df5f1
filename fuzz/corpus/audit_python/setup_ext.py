import os

import torch
from setuptools import find_packages, setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

# the kernels are built when a GPU (or FORCE_CUDA=1) is there at install time
ext_modules = []
if torch.cuda.is_available() or os.environ.get("FORCE_CUDA", "0") == "1":
    ext_modules.append(
        CUDAExtension(
            name="fastops._C",
            sources=["csrc/bindings.cpp", "csrc/fused_kernel.cu"],
        )
    )

setup(
    name="fastops",
    packages=find_packages(),
    ext_modules=ext_modules,
    cmdclass={"build_ext": BuildExtension},
)
if not ext_modules:
    ext_modules = [CppExtension("fastops._C", ["csrc/bindings.cpp"]), Extension(name="x._ops", sources=[])]
bad = CUDAExtension(name=f"{pkg}._C", sources=[]), CUDAExtension(, CUDAExtension("a" "b")
