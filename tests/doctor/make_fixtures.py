#!/usr/bin/env python3
"""Writes the fixture machine trees under tests/doctor/fixtures/ (committed; rerun after a change
here, then review the diff). Each tree is a machine as doctor reads it with --root: procfs,
sysfs, /dev, the toolkit, Python and PyTorch files. Driver libraries come from the stand-ins in
tests/standins/, set up per test through GPUPORT_STANDIN_* variables.

usage: python3 tests/doctor/make_fixtures.py [tests/doctor/fixtures]
"""
import os
import sys

base = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'fixtures')
def w(root, path, text, mode=0o644):
    p = os.path.join(base, root, path.lstrip('/'))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'wb') as f:
        f.write(text if isinstance(text, bytes) else text.encode())
    os.chmod(p, mode)

def ln(root, path, target):
    p = os.path.join(base, root, path.lstrip('/'))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if os.path.lexists(p): os.remove(p)
    os.symlink(target, p)

def mkdir(root, path):
    os.makedirs(os.path.join(base, root, path.lstrip('/')), exist_ok=True)
    open(os.path.join(base, root, path.lstrip('/'), '.keep'), 'w').close()

ELF_X86 = b'\x7fELF\x02\x01\x01' + b'\0' * 9 + b'\x02\x00' + b'\x3e\x00' + b'\x01\0\0\0' + b'\0' * 40

UBUNTU = 'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\nID_LIKE=debian\n'
DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n'

def system(root, osr=UBUNTU, kernel='5.15.0-105-generic', cpus='0-31', model='AMD EPYC 7763 64-Core Processor', mem_kb=263840860):
    w(root, '/etc/os-release', osr)
    w(root, '/proc/sys/kernel/osrelease', kernel + '\n')
    w(root, '/sys/devices/system/cpu/online', cpus + '\n')
    w(root, '/proc/cpuinfo', 'processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: %s\n\n' % model)
    w(root, '/proc/meminfo', 'MemTotal:       %d kB\nMemFree:         1000 kB\n' % mem_kb)

def pci_gpu(root, bdf='0000:01:00.0', device='0x2330', cls='0x030200', driver='nvidia'):
    d = '/sys/bus/pci/devices/' + bdf
    w(root, d + '/vendor', '0x10de\n')
    w(root, d + '/device', device + '\n')
    w(root, d + '/class', cls + '\n')
    if driver:
        ln(root, d + '/driver', '../../../bus/pci/drivers/' + driver)

def pci_other(root, bdf='0000:00:02.0'):
    d = '/sys/bus/pci/devices/' + bdf
    w(root, d + '/vendor', '0x8086\n')
    w(root, d + '/device', '0x4680\n')
    w(root, d + '/class', '0x030000\n')

def kmod(root, ver, model, uuid, bdf='0000:01:00.0', open_=False):
    kind = 'Open Kernel Module for x86_64  ' if open_ else 'UNIX x86_64 Kernel Module  '
    w(root, '/proc/driver/nvidia/version',
      'NVRM version: NVIDIA %s%s  Thu Oct 26 20:41:46 UTC 2023\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n' % (kind, ver))
    w(root, '/proc/driver/nvidia/gpus/%s/information' % bdf,
      'Model: \t\t %s\nIRQ:   \t\t 130\nGPU UUID: \t %s\nVideo BIOS: \t ??.??.??.??.??\nBus Type: \t PCIe\nDMA Size: \t 52 bits\nDevice Minor: \t 0\nBus Location: \t %s\n' % (model, uuid, bdf))

def devnodes(root, n=1):
    w(root, '/dev/nvidiactl', '')
    w(root, '/dev/nvidia-uvm', '')
    for i in range(n): w(root, '/dev/nvidia%d' % i, '')

def toolkit(root, ver, how='json', link=True, ldconf=True):
    mm = '.'.join(ver.split('.')[:2])
    d = '/usr/local/cuda-' + mm
    w(root, d + '/bin/nvcc', '#!/bin/sh\necho "stand-in nvcc of a machine tree: never run"\nexit 1\n', 0o755)
    if how == 'json':
        w(root, d + '/version.json', '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   },\n   "cuda_cudart" : {\n      "name" : "CUDA Runtime (cudart)",\n      "version" : "%s"\n   }\n}\n' % (ver, ver))
    elif how == 'cuda.h':
        maj, mi = ver.split('.')[:2]
        w(root, d + '/include/cuda.h', '/* excerpt */\n#ifndef __cuda_cuda_h__\n#define __cuda_cuda_h__\n#define CUDA_VERSION %d\n#endif\n' % (int(maj) * 1000 + int(mi) * 10))
    w(root, d + '/lib64/libnvrtc.so.' + ver.split('.')[0], '')
    w(root, d + '/lib64/libcudart.so.' + ver.split('.')[0], '')
    if ldconf: w(root, '/etc/ld.so.conf.d/cuda-%s.conf' % mm.replace('.', '-'), d + '/lib64\n')
    if link: ln(root, '/usr/local/cuda', 'cuda-' + mm)

def python(root, ver='3.10', site='dist'):
    w(root, '/usr/bin/python' + ver, ELF_X86, 0o755)
    ln(root, '/usr/bin/python3', 'python' + ver)
    mkdir(root, '/usr/lib/python3/dist-packages')

def torch(root, version, cuda, plat='manylinux_2_28_x86_64', site='/usr/local/lib/python3.10/dist-packages', pyver='310'):
    cu = "'%s'" % cuda if cuda else 'None'
    w(root, site + '/torch/version.py',
      "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
      "__version__ = '%s'\ndebug = False\ncuda: Optional[str] = %s\ngit_version = '0123456789abcdef'\nhip: Optional[str] = None\nxpu: Optional[str] = None\n" % (version, cu))
    w(root, site + '/torch-%s.dist-info/WHEEL' % version,
      'Wheel-Version: 1.0\nGenerator: bdist_wheel (0.43.0)\nRoot-Is-Purelib: false\nTag: cp%s-cp%s-%s\n\n' % (pyver, pyver, plat))

# 1. no NVIDIA GPU: a laptop with Intel graphics, CPU-only PyTorch, no toolkit
r = 'no-gpu'
system(r, cpus='0-7', model='13th Gen Intel(R) Core(TM) i7-1360P', mem_kb=32000000, kernel='6.5.0-35-generic')
pci_other(r)
python(r)
torch(r, '2.5.1+cpu', None)

# 2. H100, driver 535.129.03, toolkit 12.4: the driver is too old for the toolkit
r = 'h100-driver-535-toolkit-12.4'
system(r)
pci_gpu(r)
kmod(r, '535.129.03', 'NVIDIA H100 80GB HBM3', 'GPU-8f3b5a4c-0000-1111-2222-333344445555')
devnodes(r)
toolkit(r, '12.4.1')
w(r, '/opt/old-cuda/lib64/libcudart.so.11.0', '')
python(r)
torch(r, '2.3.1+cu121', '12.1')

# 3. kernel module and NVML disagree after an unattended upgrade
r = 'kmod-nvml-mismatch'
system(r)
pci_gpu(r, device='0x20b5')
kmod(r, '550.54.14', 'NVIDIA A100 80GB PCIe', 'GPU-aaaa0000-1111-2222-3333-444455556666')
devnodes(r)
toolkit(r, '12.4.1')
python(r)

# 4. WSL2 done right: Windows driver through /usr/lib/wsl/lib, toolkit 12.6 inside
r = 'wsl2-ok'
system(r, kernel='5.15.153.1-microsoft-standard-WSL2', cpus='0-15', model='AMD Ryzen 9 7950X 16-Core Processor')
w(r, '/dev/dxg', '')
w(r, '/usr/lib/wsl/lib/libcuda.so.1', '')
w(r, '/usr/lib/wsl/lib/libnvidia-ml.so.1', '')
w(r, '/etc/ld.so.conf.d/ld.wsl.conf', '/usr/lib/wsl/lib\n')
toolkit(r, '12.6.2')
python(r)
torch(r, '2.6.0+cu126', '12.6')

# 5. WSL2 with a Linux driver installed inside
r = 'wsl2-linux-driver'
system(r, kernel='5.15.153.1-microsoft-standard-WSL2', cpus='0-15', model='AMD Ryzen 9 7950X 16-Core Processor')
w(r, '/dev/dxg', '')
w(r, '/usr/lib/wsl/lib/libcuda.so.1', '')
w(r, '/etc/ld.so.conf.d/ld.wsl.conf', '/usr/lib/wsl/lib\n')
w(r, '/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14', '')
ln(r, '/usr/lib/x86_64-linux-gnu/libcuda.so.1', 'libcuda.so.550.54.14')
toolkit(r, '12.4.1')

# 6. a container on a GPU host, started without --gpus: sysfs and /proc show the host's GPU
r = 'container-no-devices'
system(r)
w(r, '/.dockerenv', '')
pci_gpu(r)
kmod(r, '550.54.14', 'NVIDIA H100 80GB HBM3', 'GPU-8f3b5a4c-0000-1111-2222-333344445555')
toolkit(r, '12.4.1', ldconf=False)
python(r)

# 7. RTX 4090 with a CPU-only PyTorch wheel
r = 'gpu-cpu-torch'
system(r, cpus='0-23', model='13th Gen Intel(R) Core(TM) i9-13900K')
pci_gpu(r, device='0x2684', cls='0x030000')
kmod(r, '550.54.14', 'NVIDIA GeForce RTX 4090', 'GPU-4090aaaa-0000-1111-2222-333344445555')
devnodes(r)
toolkit(r, '12.4.1')
python(r)
torch(r, '2.7.1+cpu', None)
w(r, '/usr/local/cuda-12.4/compat/libcuda.so.1', '')

# 8. RTX 5090 (CC 12.0) with a cu126 wheel
r = 'rtx5090-cu126'
system(r, cpus='0-31', model='AMD Ryzen 9 9950X 16-Core Processor')
pci_gpu(r, device='0x2b85', cls='0x030000')
kmod(r, '570.124.04', 'NVIDIA GeForce RTX 5090', 'GPU-5090bbbb-0000-1111-2222-333344445555', open_=True)
devnodes(r)
toolkit(r, '12.8.1')
python(r)
torch(r, '2.6.0+cu126', '12.6')

# 9. nouveau bound to the GPU, no NVIDIA driver
r = 'nouveau'
system(r, osr=DEBIAN, kernel='6.1.0-21-amd64')
pci_gpu(r, device='0x2684', cls='0x030000', driver='nouveau')
mkdir(r, '/sys/module/nouveau')
python(r)

# 10. a toolkit and no driver (like a CI machine): CUDA 13.0 whose version is only in cuda.h
r = 'toolkit-no-driver'
system(r, osr=DEBIAN, kernel='6.1.0-21-amd64', cpus='0-1', model='AMD EPYC')
w(r, '/.dockerenv', '')
toolkit(r, '13.0.88', how='cuda.h')
python(r, ver='3.11')

# 11. a stale distribution nvcc first on PATH while CUDA_HOME names 12.4
r = 'stale-nvcc'
system(r)
toolkit(r, '12.4.1')
w(r, '/usr/bin/nvcc', '#!/bin/sh\nexit 1\n', 0o755)
w(r, '/usr/include/cuda.h', '#define CUDA_VERSION 11050\n')
python(r)

# 12. malformed files everywhere
r = 'bad-input'
w(r, '/etc/os-release', b'\x00\x01garbage without keys\n=\n==\nID\n')
w(r, '/proc/sys/kernel/osrelease', b'\xff\xfe')
w(r, '/proc/driver/nvidia/version', 'NVRM version: NVIDIA UNIX x86_64 Kernel Mod')
w(r, '/proc/driver/nvidia/gpus', 'a file where a folder belongs\n')
w(r, '/sys/bus/pci/devices', 'not a folder\n')
w(r, '/sys/devices/system/cpu/online', '-\n')
w(r, '/proc/meminfo', 'MemTotal: lots\n')
w(r, '/usr/local/cuda-12.4/bin/nvcc', '#!/bin/sh\nexit 1\n', 0o755)
w(r, '/usr/local/cuda-12.4/version.json', '{"cuda": {"version": 12')
w(r, '/usr/local/cuda-12.4/version.txt', 'CUDA Version\n')
ln(r, '/usr/local/cuda', 'cuda-12.4')
ln(r, '/opt/cuda-loop', 'cuda-loop')
w(r, '/usr/bin/python3.10', b'#!garbage', 0o755)
ln(r, '/usr/bin/python3', 'python3.10')
w(r, '/usr/local/lib/python3.10/dist-packages/torch/version.py', b"__version__ = 2.7\ncuda = '12.'\x00\xff\n")
w(r, '/usr/local/lib/python3.10/dist-packages/torch-2.7.dist-info/WHEEL', 'Tag: broken\n')
ln(r, '/usr/lib/python3/dist-packages', '/usr/lib/python3/dist-packages')


ELF_ARM = b'\x7fELF\x02\x01\x01' + b'\0' * 9 + b'\x02\x00' + b'\xb7\x00' + b'\x01\0\0\0' + b'\0' * 40
# 13. Python environments: a pyenv shim, a user site, a virtualenv, a conda env, Debian's
#     dist-packages
r = 'python-envs'
system(r, cpus='0-7', model='Neoverse-V2', kernel='6.8.0-1010-nvidia-64k')
python(r, ver='3.11')
w(r, '/home/u/.pyenv/shims/python3', '#!/usr/bin/env bash\nset -e\n[ -n "$PYENV_DEBUG" ] && set -x\nprogram="${0##*/}"\nexport PYENV_ROOT="/home/u/.pyenv"\nexec "/home/u/.pyenv/libexec/pyenv" exec "$program" "$@"\n', 0o755)
w(r, '/home/u/.pyenv/version', '3.12.4\n')
w(r, '/home/u/.pyenv/versions/3.12.4/bin/python3.12', ELF_ARM, 0o755)
ln(r, '/home/u/.pyenv/versions/3.12.4/bin/python3', 'python3.12')
torch(r, '2.6.0+cu126', '12.6', plat='manylinux_2_28_aarch64', site='/home/u/.pyenv/versions/3.12.4/lib/python3.12/site-packages', pyver='312')
torch(r, '2.3.0', '12.1', plat='manylinux2014_aarch64', site='/home/u/.local/lib/python3.12/site-packages', pyver='312')
w(r, '/home/u/proj/.venv/pyvenv.cfg', 'home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n')
ln(r, '/home/u/proj/.venv/bin/python3', '/usr/bin/python3.11')
torch(r, '2.4.1+cu124', '12.4', plat='manylinux_2_28_aarch64', site='/home/u/proj/.venv/lib/python3.11/site-packages', pyver='311')
torch(r, '2.5.1', '12.4', plat='linux_aarch64', site='/opt/conda/envs/ml/lib/python3.11/site-packages', pyver='311')
torch(r, '2.1.2', None, plat='linux_aarch64', site='/usr/lib/python3/dist-packages', pyver='311')


# ---- Jetson (L4T), other architectures, GPUs known only by PCI id or by name ---------------
def elf(machine, cls=2):
    """An ELF header: class (1 = 32-bit, 2 = 64-bit), little-endian, e_machine."""
    return b'\x7fELF' + bytes([cls, 1, 1]) + b'\0' * 9 + b'\x02\x00' + machine.to_bytes(2, 'little') + b'\x01\0\0\0' + b'\0' * 40

ELF_AARCH64 = elf(183)

def cpuinfo_arm(n, part='0xd42'):
    """/proc/cpuinfo of an arm64 kernel: no 'model name', one block per core."""
    block = ('processor\t: %d\nBogoMIPS\t: 62.50\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp uscat ilrcpc flagm paca pacg\n'
             'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: %s\nCPU revision\t: 1\n\n')
    return ''.join(block % (i, part) for i in range(n))

def dpkg_status(*pkgs):
    """var/lib/dpkg/status stanzas: (package, version, architecture)."""
    out = []
    for name, ver, arch in pkgs:
        out.append('Package: %s\nStatus: install ok installed\nPriority: standard\nSection: admin\nInstalled-Size: 1024\n'
                   'Maintainer: NVIDIA Corporation\nArchitecture: %s\nVersion: %s\nDescription: %s\n the package\n' % (name, arch, ver, name))
    return '\n'.join(out) + '\n'

def dt(*strings):
    """A device-tree string list: NUL-terminated strings, as /proc/device-tree/* holds them."""
    return b''.join(s.encode() + b'\0' for s in strings)

UBUNTU_2204 = 'PRETTY_NAME="Ubuntu 22.04.5 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\nID=ubuntu\nID_LIKE=debian\n'
UBUNTU_2004 = 'PRETTY_NAME="Ubuntu 20.04.6 LTS"\nNAME="Ubuntu"\nVERSION_ID="20.04"\nID=ubuntu\nID_LIKE=debian\n'
UBUNTU_1804 = 'PRETTY_NAME="Ubuntu 18.04.6 LTS"\nNAME="Ubuntu"\nVERSION_ID="18.04"\nID=ubuntu\nID_LIKE=debian\n'
UBUNTU_2404 = 'PRETTY_NAME="Ubuntu 24.04.2 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n'

def jetson_base(root, osr, kernel, cores, mem_kb, release=None, model=None, compat=(), chipid=None, pkgs=()):
    w(root, '/etc/os-release', osr)
    w(root, '/proc/sys/kernel/osrelease', kernel + '\n')
    w(root, '/proc/cpuinfo', cpuinfo_arm(cores))        # no sys/.../cpu/online: the count comes from here
    w(root, '/proc/meminfo', 'MemTotal:       %d kB\nMemFree:         1000 kB\n' % mem_kb)
    if release: w(root, '/etc/nv_tegra_release', release)
    if model: w(root, '/proc/device-tree/model', dt(model))
    if compat: w(root, '/proc/device-tree/compatible', dt(*compat))
    if chipid:
        w(root, '/etc/nv_boot_control.conf', 'TNSPEC 3701-500-0005-G.0-1-0-jetson-agx-orin-devkit-\nCOMPATIBLE_SPEC 3701--0005--1--jetson-agx-orin-devkit-\n'
          'TEGRA_LEGACY_UPDATE false\nTEGRA_BOOT_STORAGE mmcblk0\nTEGRA_EMMC_ONLY false\nTEGRA_CHIPID %s\nTEGRA_OTA_BOOT_DEVICE /dev/mtdblock0\nTEGRA_OTA_GPT_DEVICE /dev/mtdblock0\n' % chipid)
    if pkgs:
        w(root, '/var/lib/dpkg/status', dpkg_status(*pkgs))
        for name, _, _ in pkgs:
            w(root, '/var/lib/dpkg/info/%s.list' % name, '/.\n')

# 14. Jetson AGX Orin, JetPack 6.2 (L4T R36.4.3), with PyPI's CPU-only aarch64 torch; the tree's
#     python3 is not executable (copied without modes), so PyTorch is found from site-packages
r = 'jetson-orin-jp62'
jetson_base(r, UBUNTU_2204, '5.15.148-tegra', 12, 64000000,
            release='# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64, DATE: Wed Jan  8 01:49:37 UTC 2025\n'
                    '# KERNEL_VARIANT: oot\nTARGET_USERSPACE_LIB_DIR=nvidia\nTARGET_USERSPACE_LIB_DIR_PATH=usr/lib/aarch64-linux-gnu/nvidia\n',
            model='NVIDIA Jetson AGX Orin Developer Kit',
            compat=('nvidia,p3737-0000+p3701-0005', 'nvidia,p3701-0005', 'nvidia,tegra234'), chipid='0x23',
            pkgs=[('nvidia-l4t-core', '36.4.3-20250107174145', 'arm64'), ('nvidia-jetpack', '6.2+b77', 'arm64'),
                  ('dpkg', '1.21.1ubuntu2.3', 'arm64')])
w(r, '/bin/sh', ELF_AARCH64, 0o755)
mkdir(r, '/sys/module/nvgpu')
mkdir(r, '/sys/devices/platform/bus@0/17000000.gpu')
w(r, '/dev/nvgpu/igpu0/ctrl', '')
w(r, '/dev/nvhost-ctrl-gpu', '')
w(r, '/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1.1', '')
ln(r, '/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1', 'libcuda.so.1.1')
toolkit(r, '12.6.68')
w(r, '/usr/bin/python3.10', ELF_AARCH64, 0o644)
ln(r, '/usr/bin/python3', 'python3.10')
torch(r, '2.5.1', None, plat='manylinux_2_17_aarch64.manylinux2014_aarch64')

# 15. Jetson Orin Nano on L4T R36.4.4 with the GPU driver and L4T's CUDA gone (a broken upgrade)
r = 'jetson-orin-no-driver'
jetson_base(r, UBUNTU_2204, '5.15.148-tegra', 6, 7800000,
            release='# R36 (release), REVISION: 4.4, GCID: 41062509, BOARD: generic, EABI: aarch64, DATE: Mon Jun 16 16:07:13 UTC 2025\n',
            model='NVIDIA Jetson Orin Nano Engineering Reference Developer Kit Super',
            compat=('nvidia,p3768-0000+p3767-0005-super', 'nvidia,p3767-0005', 'nvidia,tegra234'))
w(r, '/bin/sh', ELF_AARCH64, 0o755)

# 16. Jetson Xavier NX, JetPack 5.1.2: no nv_tegra_release (the L4T release comes from the
#     nvidia-l4t-core package), no ELF binaries (the architecture from dpkg), an SBSA CUDA torch
r = 'jetson-xavier-jp5'
jetson_base(r, UBUNTU_2004, '5.10.120-tegra', 6, 7900000,
            model='NVIDIA Jetson Xavier NX Developer Kit', compat=('nvidia,p3509-0000+p3668-0001', 'nvidia,tegra194'),
            pkgs=[('nvidia-l4t-core', '35.4.1-20230801124926', 'arm64'), ('nvidia-jetpack', '5.1.2-b104', 'arm64')])
w(r, '/var/lib/dpkg/arch', 'arm64\n')
mkdir(r, '/sys/devices/platform/17000000.gv11b')
w(r, '/dev/nvhost-ctrl-gpu', '')
w(r, '/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1.1', '')
ln(r, '/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1', 'libcuda.so.1.1')
toolkit(r, '11.4.19')
toolkit(r, '12.6.68', link=False, ldconf=False)
torch(r, '2.6.0+cu126', '12.6', plat='manylinux_2_28_aarch64', site='/usr/local/lib/python3.8/dist-packages', pyver='38')

# 17. Jetson Nano, JetPack 4.6.1 (L4T R32.7.1, CUDA 10.2) with NVIDIA's Jetson wheel
r = 'jetson-nano-jp4'
jetson_base(r, UBUNTU_1804, '4.9.253-tegra', 4, 4000000,
            release='# R32 (release), REVISION: 7.1, GCID: 29818004, BOARD: t210ref, EABI: aarch64, DATE: Sat Feb 19 17:05:08 UTC 2022\n'
                    '4b2cf7e9cb98bc0d3b2c14c31a1e6ef3a65bb0a8 */usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1.1\n',
            model='NVIDIA Jetson Nano Developer Kit', compat=('nvidia,p3449-0000-b00+p3448-0002-b00', 'nvidia,jetson-nano', 'nvidia,tegra210'))
w(r, '/bin/sh', ELF_AARCH64, 0o755)
mkdir(r, '/sys/devices/57000000.gpu')
w(r, '/dev/nvhost-ctrl-gpu', '')
w(r, '/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1.1', '')
ln(r, '/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1', 'libcuda.so.1.1')
d = '/usr/local/cuda-10.2'
w(r, d + '/bin/nvcc', '#!/bin/sh\nexit 1\n', 0o755)
w(r, d + '/version.txt', 'CUDA Version 10.2.300\n')
w(r, d + '/lib64/libcudart.so.10.2', '')
w(r, '/etc/ld.so.conf.d/cuda-10-2.conf', d + '/lib64\n')
ln(r, '/usr/local/cuda', 'cuda-10.2')
toolkit(r, '11.4.19', link=False, ldconf=False)
w(r, '/usr/bin/python3.6', ELF_AARCH64, 0o755)
ln(r, '/usr/bin/python3', 'python3.6')
torch(r, '1.10.0', '10.2', plat='linux_aarch64', site='/usr/local/lib/python3.6/dist-packages', pyver='36')

# 18. Jetson AGX Thor, JetPack 7.0 (L4T R38.2.0): the NVIDIA open kernel module, CUDA 13, and
#     PyTorch's own aarch64 CUDA 13 wheel
r = 'jetson-thor-jp7'
jetson_base(r, UBUNTU_2404, '6.8.12-tegra', 14, 128000000,
            release='# R38 (release), REVISION: 2.0, GCID: 41844464, BOARD: generic, EABI: aarch64, DATE: Fri Aug 22 00:55:42 UTC 2025\n',
            model='NVIDIA Jetson AGX Thor Developer Kit', compat=('nvidia,p3971-0080+p3834-0008', 'nvidia,p3834-0008', 'nvidia,tegra264'),
            pkgs=[('nvidia-l4t-core', '38.2.0-20250821174705', 'arm64')])
w(r, '/bin/sh', ELF_AARCH64, 0o755)
w(r, '/proc/driver/nvidia/version', 'NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.00  Release Build  (buildbrain@mobile-u64-8)  Thu Aug 21 17:32:22 PDT 2025\nGCC version:  collect2: error: ld returned 1 exit status\n')
devnodes(r)
w(r, '/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1', '')
toolkit(r, '13.0.48')
w(r, '/usr/bin/python3.12', ELF_AARCH64, 0o755)
ln(r, '/usr/bin/python3', 'python3.12')
torch(r, '2.9.0+cu130', '13.0', plat='manylinux_2_28_aarch64', site='/usr/local/lib/python3.12/dist-packages', pyver='312')

# 19. A100 known only by its PCI id (no NVML, no /proc/driver/nvidia/gpus), on driver 470 with
#     toolkit 12.4: the driver is too old for the toolkit's major
r = 'a100-pci-id-driver-470'
system(r)
pci_gpu(r, device='0x20b5', cls='0x030200')
w(r, '/proc/driver/nvidia/version', 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.256.02  Thu May  2 14:37:44 UTC 2024\nGCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)\n')
devnodes(r)
toolkit(r, '12.4.1')
python(r)
torch(r, '2.3.1+cu121', '12.1')

# 20. an RTX 3060 known only by the name in /proc/driver/nvidia (no PCI sysfs in the tree), with
#     a cuda-compat folder that the image's ld.so.conf puts first
r = 'rtx3060-name-compat'
system(r, cpus='0-15', model='AMD Ryzen 7 5800X 8-Core Processor')
kmod(r, '535.183.01', 'NVIDIA GeForce RTX 3060', 'GPU-3060cccc-0000-1111-2222-333344445555')
devnodes(r)
toolkit(r, '12.2.2')
w(r, '/usr/local/cuda-12.2/compat/libcuda.so.1', '')
w(r, '/etc/ld.so.conf.d/00-cuda-compat.conf', '/usr/local/cuda-12.2/compat\n')
python(r)
torch(r, '2.4.1+cu121', '12.1')

# 21. a Grace Hopper server (aarch64, SBSA): an NVIDIA GPU on the PCI bus, not a Jetson; PyTorch
#     without torch/version.py (read from the wheel's METADATA and RECORD)
r = 'gh200-aarch64'
w(r, '/etc/os-release', UBUNTU_2204)
w(r, '/proc/sys/kernel/osrelease', '6.8.0-1013-nvidia-64k\n')
w(r, '/proc/cpuinfo', cpuinfo_arm(72, '0xd4f'))
w(r, '/proc/meminfo', 'MemTotal:       493000000 kB\n')
w(r, '/usr/bin/env', ELF_AARCH64, 0o755)
pci_gpu(r, bdf='0009:01:00.0', device='0x2342', cls='0x030200')
w(r, '/proc/driver/nvidia/version', 'NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  560.35.03  Release Build  (dvs-builder@U16-I3-B03-4-3)  Fri Aug 16 21:42:42 UTC 2024\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n')
devnodes(r)
toolkit(r, '12.6.68')
w(r, '/usr/bin/python3.10', ELF_AARCH64, 0o755)
ln(r, '/usr/bin/python3', 'python3.10')
site = '/usr/local/lib/python3.10/dist-packages'
w(r, site + '/torch/__init__.py', '# torch\n')
w(r, site + '/torch-2.6.0+cu126.dist-info/METADATA', 'Metadata-Version: 2.1\nName: torch\nVersion: 2.6.0+cu126\nSummary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n'
  'Requires-Dist: filelock\nRequires-Dist: nvidia-cuda-nvrtc-cu12==12.6.77; platform_system == "Linux"\nRequires-Dist: nvidia-cuda-runtime-cu12==12.6.77; platform_system == "Linux"\n')
w(r, site + '/torch-2.6.0+cu126.dist-info/RECORD', 'torch/__init__.py,sha256=abc,100\ntorch/lib/libtorch_cuda.so,sha256=def,1000\n')
w(r, site + '/torch-2.6.0+cu126.dist-info/WHEEL', 'Wheel-Version: 1.0\nGenerator: bdist_wheel (0.45.1)\nRoot-Is-Purelib: false\nTag: cp310-cp310-manylinux_2_28_aarch64\n\n')

# 22. an Orin on JetPack 5.1.1 (L4T R35.3.1) with no device tree and no packages in the tree: the
#     SoC comes from the GPU's platform device; NVIDIA's JetPack 6 wheel (CUDA 12.2) is installed
r = 'jetson-orin-jp511-minimal'
jetson_base(r, UBUNTU_2004, '5.10.104-tegra', 8, 31000000,
            release='# R35 (release), REVISION: 3.1, GCID: 32827747, BOARD: t186ref, EABI: aarch64, DATE: Sun Mar 19 15:19:21 UTC 2023\n')
w(r, '/bin/sh', ELF_AARCH64, 0o755)
mkdir(r, '/sys/devices/platform/17000000.ga10b')
w(r, '/dev/nvhost-ctrl-gpu', '')
w(r, '/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1', '')
w(r, '/usr/bin/python3.8', ELF_AARCH64, 0o755)
ln(r, '/usr/bin/python3', 'python3.8')
torch(r, '2.1.0a0+41361538.nv23.06', '12.2', plat='linux_aarch64', site='/usr/local/lib/python3.8/dist-packages', pyver='38')
