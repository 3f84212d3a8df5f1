#!/usr/bin/env bash
# The commands PyTorch's torch/utils/collect_env.py runs to describe a machine, for machines
# without torch (collect_env also imports torch, which this leaves out, so it is a lower
# bound): the driver and GPUs, the toolkit, cuDNN, compilers, the OS, pip and conda packages,
# the CPU. A missing command fails fast, as it does in collect_env.
run() { "$@" >/dev/null 2>&1 || true; }
run nvidia-smi
run nvidia-smi -L
run nvidia-smi --query-gpu=driver_version --format=csv,noheader
run nvcc --version
run bash -c 'ldconfig -p | grep -E "libcudnn|libcudart|libnvidia-ml"'
run gcc --version
run clang --version
run cmake --version
run lsb_release -a
run bash -c 'cat /etc/*-release'
run python3 -c 'import sys, platform; print(sys.version, platform.platform())'
run python3 -m pip list --format=freeze
run conda list
run lscpu
run hipcc --version
