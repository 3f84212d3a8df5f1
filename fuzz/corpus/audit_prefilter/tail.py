from torch.utils.cpp_extension import load
load('m', ['''k.cuab'