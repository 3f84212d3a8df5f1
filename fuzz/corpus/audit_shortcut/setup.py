from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
setup(
    name="k",
    ext_modules=[CUDAExtension("k", ["k.cpp", "k_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
