#!/usr/bin/env python3
"""Writes the Windows fixture machine trees under tests/doctor/fixtures/win-* (committed; rerun after
a change here, then review the diff). A tree is a copy of a Windows system drive as doctor reads it
with --root (C:\\ is its root, so it holds Windows/System32), with what the tools printed on that
machine in captured/: environment.txt (`set`), nvidia-smi-q.txt (`nvidia-smi -q`),
nvcc-version.txt (`nvcc --version`), vswhere.txt (`vswhere -latest -products *`), wsl-l-v.txt
(`wsl.exe -l -v`, UTF-16LE as wsl.exe writes it) and registry exports (*.reg: regedit's UTF-16LE
with a byte-order mark, or REGEDIT4's 8-bit text). Executables are 2-byte "MZ" placeholders: nothing
in a tree is run. No symbolic links, so the trees read the same under Wine.

usage: python3 tests/doctor/make_windows_fixtures.py [tests/doctor/fixtures]
"""
import os
import shutil
import sys

base = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'fixtures')


def w(root, path, data):
    p = os.path.join(base, root, path.replace('\\', '/').lstrip('/'))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def crlf(text):
    return text.replace('\r\n', '\n').replace('\n', '\r\n')


def exe(root, winpath):
    w(root, winpath[2:], b'MZ')


def utf16(text, bom=True):
    return (b'\xff\xfe' if bom else b'') + crlf(text).encode('utf-16-le')


def reg_hex(data, prefix):
    """regedit's hex list: 'hex(N):aa,bb,...' wrapped at 80 columns with '\\' continuations."""
    items = ['%02x' % b for b in data]
    lines, cur = [], prefix
    for i, it in enumerate(items):
        piece = it + (',' if i < len(items) - 1 else '')
        if len(cur) + len(piece) > 76:
            lines.append(cur + '\\')
            cur = '  '
        cur += piece
    lines.append(cur)
    return '\n'.join(lines)


def reg_sz16(s):
    return (s + '\0').encode('utf-16-le')


def machine(root, build='22631', display='23H2', product='Windows 10 Pro', adapters=(),
            reg_utf16=True, cpus=24, cpu='Intel64 Family 6 Model 183 Stepping 1, GenuineIntel',
            env=None, path=(), system32=('nvidia-smi.exe',)):
    shutil.rmtree(os.path.join(base, root), ignore_errors=True)
    for e in ('cmd.exe', 'reg.exe') + tuple(system32):
        exe(root, 'C:\\Windows\\System32\\' + e)
    user = 'C:\\Users\\dev'
    vars_ = {
        'ALLUSERSPROFILE': 'C:\\ProgramData', 'APPDATA': user + '\\AppData\\Roaming',
        'CommonProgramFiles': 'C:\\Program Files\\Common Files', 'COMPUTERNAME': root.upper()[:15],
        'ComSpec': 'C:\\Windows\\system32\\cmd.exe', 'HOMEDRIVE': 'C:', 'HOMEPATH': '\\Users\\dev',
        'LOCALAPPDATA': user + '\\AppData\\Local', 'NUMBER_OF_PROCESSORS': str(cpus), 'OS': 'Windows_NT',
        'PATHEXT': '.COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC;.PY;.PYW',
        'PROCESSOR_ARCHITECTURE': 'AMD64', 'PROCESSOR_IDENTIFIER': cpu, 'PROCESSOR_LEVEL': '6',
        'ProgramData': 'C:\\ProgramData', 'ProgramFiles': 'C:\\Program Files',
        'ProgramFiles(x86)': 'C:\\Program Files (x86)', 'ProgramW6432': 'C:\\Program Files',
        'PUBLIC': 'C:\\Users\\Public', 'SystemDrive': 'C:', 'SystemRoot': 'C:\\Windows',
        'TEMP': user + '\\AppData\\Local\\Temp', 'TMP': user + '\\AppData\\Local\\Temp',
        'USERNAME': 'dev', 'USERPROFILE': user, 'windir': 'C:\\Windows',
    }
    vars_.update(env or {})
    p = list(path) + ['C:\\Windows\\system32', 'C:\\Windows', 'C:\\Windows\\System32\\Wbem',
                      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\',
                      'C:\\Windows\\System32\\OpenSSH\\', user + '\\AppData\\Local\\Microsoft\\WindowsApps']
    vars_['Path'] = ';'.join(p) + ';'
    exe(root, user + '\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe')  # the Store's alias
    w(root, 'captured/environment.txt',
      crlf(''.join('%s=%s\n' % (k, vars_[k]) for k in sorted(vars_, key=str.lower))))
    # the registry: the OS's version key and the display adapter class
    v5 = reg_utf16
    text = ('Windows Registry Editor Version 5.00\n\n' if v5 else 'REGEDIT4\n\n')
    text += ('[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion]\n'
             '"SystemRoot"="C:\\\\Windows"\n"BuildBranch"="ni_release"\n'
             '"CurrentBuild"="%s"\n"CurrentBuildNumber"="%s"\n"CurrentMajorVersionNumber"=dword:0000000a\n'
             '"DisplayVersion"="%s"\n"EditionID"="Professional"\n"InstallationType"="Client"\n'
             '"ProductName"="%s"\n"RegisteredOwner"="dev"\n"InstallDate"=dword:65a1b2c3\n'
             % (build, build, display, product))
    text += reg_hex(b'\xa4\0\0\0\x03\0\0\0' + b'00330-80000-00000-AA442\0' + bytes(40),
                    '"DigitalProductId"=hex:') + '\n\n'
    cls = 'HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}'
    text += '[%s]\n"Class"="Display"\n@="Display adapters"\n\n' % cls
    for i, (desc, provider, version, dev, mem) in enumerate(adapters):
        key = '%s\\%04d' % (cls, i)
        um = reg_sz16('C:\\Windows\\System32\\DriverStore\\FileRepository\\nv_dispi.inf_amd64\\nvldumdx.dll') + b'\0\0' \
            if v5 else b'nvldumdx.dll\0\0'
        text += ('[%s]\n"DriverDesc"="%s"\n"ProviderName"="%s"\n"DriverVersion"="%s"\n"DriverDate"="9-13-2024"\n'
                 '"MatchingDeviceId"="%s"\n"InfPath"="oem42.inf"\n' % (key, desc, provider, version, dev))
        text += reg_hex(mem.to_bytes(8, 'little'), '"HardwareInformation.qwMemorySize"=hex(b):') + '\n'
        text += reg_hex(um, '"UserModeDriverName"=hex(7):') + '\n'
        text += reg_hex(reg_sz16('%SystemRoot%\\System32') if v5 else b'%SystemRoot%\\System32\0',
                        '"DriverStorePath"=hex(2):') + '\n\n'
        text += '[%s\\Settings]\n"Device Description"="%s"\n\n' % (key, desc)
    w(root, 'captured/registry.reg', utf16(text) if v5 else crlf(text).encode('latin-1'))


SMI_HEAD = '''
==============NVSMI LOG==============

Timestamp                                              : Mon Sep 23 10:12:01 2024
Driver Version                                         : {driver}
CUDA Version                                           : {cuda}

Attached GPUs                                          : {count}
'''

SMI_GPU = '''GPU 00000000:{bus}:00.0
    Product Name                                       : {name}
    Product Brand                                      : {brand}
    Product Architecture                               : {arch}
    Display Mode                                       : {display}
    Display Active                                     : {display}
    Persistence Mode                                   : N/A
    Addressing Mode                                    : N/A
    MIG Mode
        Current                                        : N/A
        Pending                                        : N/A
    Accounting Mode                                    : Disabled
    Accounting Mode Buffer Size                        : 4000
    Driver Model
        Current                                        : {model}
        Pending                                        : {pending}
    Serial Number                                      : N/A
    GPU UUID                                           : {uuid}
    Minor Number                                       : N/A
    VBIOS Version                                      : 95.02.18.80.87
    MultiGPU Board                                     : No
    Board ID                                           : 0x{bus}00
    GPU Part Number                                    : N/A
    Module ID                                          : 1
    PCI
        Bus                                            : 0x{bus}
        Device                                         : 0x00
        Domain                                         : 0x0000
        Device Id                                      : 0x{devid}10DE
        Bus Id                                         : 00000000:{bus}:00.0
        Sub System Id                                  : 0x889E1043
        GPU Link Info
            PCIe Generation
                Max                                    : 4
                Current                                : 4
            Link Width
                Max                                    : 16x
                Current                                : 16x
    Fan Speed                                          : 30 %
    Performance State                                  : P8
    FB Memory Usage
        Total                                          : {mem} MiB
        Reserved                                       : 325 MiB
        Used                                           : 1200 MiB
        Free                                           : {free} MiB
    BAR1 Memory Usage
        Total                                          : 32768 MiB
        Used                                           : 1 MiB
        Free                                           : 32767 MiB
    Compute Mode                                       : Default
    ECC Mode
        Current                                        : N/A
        Pending                                        : N/A
    Temperature
        GPU Current Temp                               : 38 C
    Processes                                          : None

'''


def smi(root, driver, cuda, gpus):
    out = SMI_HEAD.format(driver=driver, cuda=cuda, count=len(gpus))
    for i, g in enumerate(gpus):
        d = dict(bus='%02X' % (i + 1), brand='GeForce', arch='Ada Lovelace', display='Enabled',
                 model='WDDM', uuid='GPU-0b4f7f0e-5a1c-3d2e-9f10-%012x' % (0xabc000 + i), mem=24564)
        d.update(g)
        d.setdefault('pending', d['model'])
        d['free'] = d['mem'] - 1525
        out += SMI_GPU.format(**d)
    w(root, 'captured/nvidia-smi-q.txt', crlf(out))


def toolkit(root, ver, with_json=True, nvrtc=True):
    major, minor = ver.split('.')[:2]
    d = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v%s.%s' % (major, minor)
    exe(root, d + '\\bin\\nvcc.exe')
    if nvrtc:
        w(root, (d + '\\bin\\nvrtc64_%s0_0.dll' % major)[2:], b'MZ')
    w(root, (d + '\\include\\cuda.h')[2:], '#define CUDA_VERSION %s0%s0\n' % (major, minor))
    if with_json:
        w(root, (d + '\\version.json')[2:], crlf(
            '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   },\n'
            '   "cuda_nvcc" : {\n      "name" : "CUDA NVCC",\n      "version" : "%s"\n   }\n}\n' % (ver, ver)))
    return d


def nvcc_output(root, ver, build):
    major, minor = ver.split('.')[:2]
    w(root, 'captured/nvcc-version.txt', crlf(
        'nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2024 NVIDIA Corporation\n'
        'Built on %s\nCuda compilation tools, release %s.%s, V%s\nBuild cuda_%s.r%s.%s/compiler.34714021_0\n'
        % (build, major, minor, ver, ver, major, minor)))


VS2022 = 'C:\\Program Files\\Microsoft Visual Studio\\2022\\Community'
VS_BT = 'C:\\Program Files (x86)\\Microsoft Visual Studio\\2022\\BuildTools'


def visual_studio(root, path=VS2022, name='Visual Studio Community 2022', version='17.9.34607.119',
                  cl=True):
    msvc = path + '\\VC\\Tools\\MSVC\\14.39.33519\\bin\\Hostx64\\x64'
    if cl:
        exe(root, msvc + '\\cl.exe')
    else:
        w(root, (path + '\\Common7\\IDE\\devenv.exe')[2:], b'MZ')
    w(root, 'captured/vswhere.txt', crlf(
        'Visual Studio Locator version 3.1.7+f39851e70f [query version 3.9.2164.25864]\n'
        'Copyright (C) Microsoft Corporation. All rights reserved.\n\n'
        'instanceId: 0b5b3ca4\ninstallDate: 1/15/2024 9:12:44 AM\ninstallationName: VisualStudio/%s+34607.119\n'
        'installationPath: %s\ninstallationVersion: %s\nproductId: Microsoft.VisualStudio.Product.Community\n'
        'productPath: %s\\Common7\\IDE\\devenv.exe\nstate: 4294967295\nisComplete: 1\nisLaunchable: 1\n'
        'isPrerelease: 0\nisRebootRequired: 0\ndisplayName: %s\ndescription: Powerful IDE\n'
        'channelId: VisualStudio.17.Release\nupdateDate: 2024-03-13T08:13:56.2546437Z\n'
        'catalog_productDisplayVersion: 17.9.3\n' % (version, path, version, path, name)))
    return msvc


def python(root, ver='311', user=False, torch=None, cuda=None):
    if user:
        pydir = 'C:\\Users\\dev\\AppData\\Local\\Programs\\Python\\Python%s' % ver
        site = 'C:\\Users\\dev\\AppData\\Roaming\\Python\\Python%s\\site-packages' % ver
    else:
        pydir = 'C:\\Users\\dev\\AppData\\Local\\Programs\\Python\\Python%s' % ver
        site = pydir + '\\Lib\\site-packages'
    exe(root, pydir + '\\python.exe')
    if torch:
        w(root, (site + '\\torch\\version.py')[2:], crlf(
            "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
            "__version__ = '%s'\ndebug = False\ncuda: Optional[str] = %s\n"
            "git_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\nhip: Optional[str] = None\n"
            "xpu: Optional[str] = None\n" % (torch, repr(cuda) if cuda else 'None')))
        w(root, (site + '\\torch-%s.dist-info\\WHEEL' % torch)[2:], crlf(
            'Wheel-Version: 1.0\nGenerator: setuptools (72.1.0)\nRoot-Is-Purelib: false\nTag: cp%s-cp%s-win_amd64\n\n' % (ver, ver)))
    return pydir


def wsl(root, rows, bom=False):
    text = '  NAME                   STATE           VERSION\n'
    for i, (name, state, ver) in enumerate(rows):
        text += '%s %-22s %-15s %d\n' % ('*' if i == 0 else ' ', name, state, ver)
    w(root, 'captured/wsl-l-v.txt', utf16(text, bom))


def cuda_env(d):
    major, minor = d.rsplit('v', 1)[1].split('.')
    return {'CUDA_PATH': d, 'CUDA_PATH_V%s_%s' % (major, minor): d}


# 1. A GeForce workstation where everything fits: driver 560.94 (CUDA 12.6), CUDA 12.4 on CUDA_PATH,
#    Visual Studio 2022's cl.exe on PATH, PyTorch 2.5.1+cu124.
r = 'win-rtx4090-workstation'
tk = cuda_env('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4')
machine(r, adapters=[('NVIDIA GeForce RTX 4090', 'NVIDIA', '32.0.15.6094', 'pci\\ven_10de&dev_2684', 25757220864)],
        env=tk, path=[tk['CUDA_PATH'] + '\\bin', tk['CUDA_PATH'] + '\\libnvvp',
                      VS2022 + '\\VC\\Tools\\MSVC\\14.39.33519\\bin\\Hostx64\\x64',
                      'C:\\Users\\dev\\AppData\\Local\\Programs\\Python\\Python311\\Scripts\\',
                      'C:\\Users\\dev\\AppData\\Local\\Programs\\Python\\Python311\\'])
toolkit(r, '12.4.1')
visual_studio(r)
python(r, torch='2.5.1+cu124', cuda='12.4')
smi(r, '560.94', '12.6', [dict(name='NVIDIA GeForce RTX 4090', devid='2684')])

# 2. A laptop with the driver only and PyTorch's CPU wheel (installed with pip --user).
r = 'win-laptop-cpu-torch'
machine(r, build='19045', display='22H2', product='Windows 10 Home', cpus=16,
        cpu='Intel64 Family 6 Model 154 Stepping 3, GenuineIntel',
        adapters=[('Intel(R) Iris(R) Xe Graphics', 'Intel Corporation', '31.0.101.4502', 'pci\\ven_8086&dev_46a6', 1073741824),
                  ('NVIDIA GeForce RTX 3050 Laptop GPU', 'NVIDIA', '31.0.15.5222', 'pci\\ven_10de&dev_25a2', 4294967296)],
        path=['C:\\Users\\dev\\AppData\\Local\\Programs\\Python\\Python312\\'])
python(r, ver='312', user=True, torch='2.4.0+cpu')
smi(r, '552.22', '12.4', [dict(name='NVIDIA GeForce RTX 3050 Laptop GPU', devid='25A2', arch='Ampere', mem=4096,
                               display='Disabled')])

# 3. A Windows Server with a Tesla T4 in TCC, the Build Tools installed but cl.exe not on PATH, and a
#    REGEDIT4 (8-bit) registry export.
r = 'win-server-t4-tcc'
tk = cuda_env('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2')
machine(r, build='20348', display='21H2', product='Windows Server 2022 Datacenter', reg_utf16=False, cpus=8,
        cpu='Intel64 Family 6 Model 85 Stepping 7, GenuineIntel',
        adapters=[('Microsoft Basic Display Adapter', 'Microsoft', '10.0.20348.1', 'pci\\ven_1414&dev_008e', 0),
                  ('NVIDIA Tesla T4', 'NVIDIA', '31.0.15.3878', 'pci\\ven_10de&dev_1eb8', 16106127360)],
        env=tk, path=[tk['CUDA_PATH'] + '\\bin'])
toolkit(r, '12.2.2')
visual_studio(r, path=VS_BT, name='Visual Studio Build Tools 2022', version='17.8.34511.84')
smi(r, '538.78', '12.2', [dict(name='Tesla T4', brand='NVIDIA', devid='1EB8', arch='Turing', mem=15360,
                               model='TCC', display='Disabled')])

# 4. A datacenter card (A10) left in WDDM, one of two; the second, an A10 too, switches to TCC at the next
#    reboot. CUDA 12.4 is installed, but no Visual Studio: nvcc cannot compile. No Python.
r = 'win-a10-wddm'
tk = cuda_env('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4')
machine(r, build='20348', display='21H2', product='Windows Server 2022 Standard', cpus=32,
        adapters=[('NVIDIA A10', 'NVIDIA', '31.0.15.5222', 'pci\\ven_10de&dev_2236', 24159191040),
                  ('NVIDIA A10', 'NVIDIA', '31.0.15.5222', 'pci\\ven_10de&dev_2236', 24159191040)],
        env=tk, path=[tk['CUDA_PATH'] + '\\bin'])
toolkit(r, '12.4.1')
smi(r, '552.22', '12.4', [dict(name='NVIDIA A10', brand='NVIDIA', devid='2236', arch='Ampere', mem=23028,
                               display='Disabled'),
                          dict(name='NVIDIA A10', brand='NVIDIA', devid='2236', arch='Ampere', mem=23028,
                               display='Disabled', pending='TCC')])

# 5. A toolkit newer than the driver: CUDA 12.6 (no version.json: nvcc --version tells) on driver 531.79
#    (CUDA 12.1), and a cu126 PyTorch.
r = 'win-toolkit-newer'
tk = cuda_env('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6')
machine(r, adapters=[('NVIDIA GeForce RTX 3060', 'NVIDIA', '31.0.15.3179', 'pci\\ven_10de&dev_2504', 12884901888)],
        env=tk, path=[tk['CUDA_PATH'] + '\\bin', VS2022 + '\\VC\\Tools\\MSVC\\14.39.33519\\bin\\Hostx64\\x64',
                      'C:\\Users\\dev\\AppData\\Local\\Programs\\Python\\Python311\\'])
toolkit(r, '12.6.77', with_json=False)
nvcc_output(r, '12.6.77', 'Wed_Aug_14_10:26:51_Pacific_Daylight_Time_2024')
visual_studio(r)
python(r, torch='2.6.0+cu126', cuda='12.6')
smi(r, '531.79', '12.1', [dict(name='NVIDIA GeForce RTX 3060', devid='2504', arch='Ampere', mem=12288)])

# 6. WSL installed: two WSL 2 distributions and an old WSL 1 one (wsl.exe's UTF-16LE output); a second
#    GPU, a TITAN RTX, in TCC, which WSL 2 cannot use; CUDA 12.6 and Visual Studio without its C++
#    workload.
r = 'win-wsl'
tk = cuda_env('C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6')
machine(r, adapters=[('NVIDIA GeForce RTX 4070', 'NVIDIA', '32.0.15.6636', 'pci\\ven_10de&dev_2786', 12884901888),
                     ('NVIDIA TITAN RTX', 'NVIDIA', '32.0.15.6636', 'pci\\ven_10de&dev_1e02', 25769803776)],
        system32=('nvidia-smi.exe', 'wsl.exe'), env=tk, path=[tk['CUDA_PATH'] + '\\bin'])
wsl(r, [('Ubuntu-22.04', 'Running', 2), ('docker-desktop', 'Stopped', 2), ('Debian', 'Stopped', 1)])
toolkit(r, '12.6.77')
visual_studio(r, cl=False)
smi(r, '566.36', '12.7', [dict(name='NVIDIA GeForce RTX 4070', devid='2786', mem=12282),
                          dict(name='NVIDIA TITAN RTX', brand='Titan', devid='1E02', arch='Turing', mem=24576,
                               model='TCC', display='Disabled')])

# 7. No NVIDIA GPU: an Intel adapter, no nvidia-smi; and a registry export cut short (a bad file is
#    named, never fatal).
r = 'win-no-nvidia'
machine(r, build='22631', adapters=[('Intel(R) UHD Graphics 770', 'Intel Corporation', '31.0.101.4502',
                                     'pci\\ven_8086&dev_4680', 2147483648)], system32=())
w(r, 'captured/broken.reg', utf16('Windows Registry Editor Version 5.00\n\n'
                                  '[HKEY_LOCAL_MACHINE\\SOFTWARE\\Test]\n"Count"=dword:12\n'))

# 8. The driver answers only in the registry: nvidia-smi fails, the display adapter's DriverVersion
#    32.0.15.6094 is driver 560.94.
r = 'win-registry-only'
machine(r, adapters=[('NVIDIA GeForce RTX 4090', 'NVIDIA', '32.0.15.6094', 'pci\\ven_10de&dev_2684', 25757220864)])
w(r, 'captured/nvidia-smi-q.txt', crlf(
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
    "latest NVIDIA driver is installed and running. This can also be happening if non-NVIDIA GPU is running "
    "as primary display, and NVIDIA GPU is in WDDM mode.\n"))
