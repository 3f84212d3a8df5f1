#!/usr/bin/env python3
"""Writes src/doctor/gpu_ids.c: NVIDIA's PCI device ids (Maxwell to Blackwell) with each one's
compute capability, from NVIDIA's own lists:

  * the supported-chips list of the Linux driver: `supported-gpus.json`, which the driver ships
    next to its README (Appendix A "Supported NVIDIA GPU Products" is the same list as text;
    Debian's nvidia-driver package installs it as /usr/share/doc/nvidia-driver/
    supported-gpus.json.gz). Entries with a "legacybranch" are GPUs the current driver no
    longer supports (Kepler and older) and are left out;
  * the compute capability of each chip, from NVIDIA's "CUDA GPU Compute Capability" page
    (developer.nvidia.com/cuda-gpus) and its "Legacy CUDA GPU Compute Capability" page. NVIDIA
    numbers device ids in one block per chip family, so each block below carries the CC the
    page gives for that family; every name the page lists that also appears in the driver's list
    is checked against its block (a mismatch stops the script).

usage: python3 src/doctor/gpu_ids_gen.py supported-gpus.json [newer-supported-gpus.json ...]
Later files add device ids and win for names. Review the diff of gpu_ids.c, then commit both.
"""
import gzip
import json
import os
import re
import sys

# Device-id blocks -> (compute capability x10, chip family). From the ids NVIDIA assigns per chip
# in the supported-chips list and the family's CC on the CUDA GPU pages.
BLOCKS = [
    (0x1340, 0x13BF, 50, "Maxwell GM107/GM108"),
    (0x13C0, 0x13FF, 52, "Maxwell GM204"),
    (0x1400, 0x143F, 52, "Maxwell GM206"),
    (0x15F0, 0x15FF, 60, "Pascal GP100"),
    (0x1617, 0x167F, 52, "Maxwell GM204 (mobile)"),
    (0x174D, 0x179C, 50, "Maxwell GM108"),
    (0x17C0, 0x17FF, 52, "Maxwell GM200"),
    (0x1B00, 0x1D7F, 61, "Pascal GP102-GP108"),
    (0x1D80, 0x1DFF, 70, "Volta GV100"),
    (0x1E00, 0x1FFF, 75, "Turing TU102-TU117"),
    (0x2080, 0x20FF, 80, "Ampere GA100"),
    (0x2100, 0x21FF, 75, "Turing TU116"),
    (0x2200, 0x22FF, 86, "Ampere GA102"),
    (0x2300, 0x23FF, 90, "Hopper GH100"),
    (0x2400, 0x25FF, 86, "Ampere GA103-GA107"),
    (0x2600, 0x28FF, 89, "Ada AD102-AD107"),
    (0x2900, 0x297F, 100, "Blackwell GB100/GB102"),
    (0x2B00, 0x2DFF, 120, "Blackwell GB202-GB207"),
    (0x2E00, 0x2E7F, 121, "Blackwell GB10"),
    (0x2F00, 0x2FFF, 120, "Blackwell GB205"),
    (0x3100, 0x31FF, 103, "Blackwell Ultra GB110"),
]

# Ids in the driver's list whose compute capability NVIDIA's CUDA GPU pages do not give.
UNLISTED = {0x29BB: "NVIDIA DRIVE P2021, an automotive part"}

# Names as NVIDIA's CUDA GPU pages list them, with their CC: the cross-check of BLOCKS.
CUDA_GPUS_PAGE = {
    121: ["GB10"],
    120: ["RTX PRO 6000 Blackwell Server Edition", "RTX PRO 6000 Blackwell Workstation Edition",
          "RTX PRO 6000 Blackwell Max-Q Workstation Edition", "RTX PRO 5000 Blackwell",
          "RTX PRO 4500 Blackwell", "RTX PRO 4000 Blackwell", "RTX PRO 4000 Blackwell SFF Edition",
          "RTX PRO 2000 Blackwell", "GeForce RTX 5090", "GeForce RTX 5080", "GeForce RTX 5070 Ti",
          "GeForce RTX 5070", "GeForce RTX 5060 Ti", "GeForce RTX 5060", "GeForce RTX 5050"],
    103: ["GB300", "B300"],
    100: ["GB200", "B200"],
    90: ["GH200", "H200", "H100"],
    89: ["L4", "L40", "L40S", "RTX 6000 Ada Generation", "RTX 5000 Ada Generation",
         "RTX 4500 Ada Generation", "RTX 4000 Ada Generation", "RTX 4000 SFF Ada Generation",
         "RTX 2000 Ada Generation", "GeForce RTX 4090", "GeForce RTX 4080", "GeForce RTX 4070 Ti",
         "GeForce RTX 4070", "GeForce RTX 4060 Ti", "GeForce RTX 4060"],
    86: ["A40", "A10", "A16", "A2", "RTX A6000", "RTX A5000", "RTX A4000", "RTX A2000",
         "GeForce RTX 3090 Ti", "GeForce RTX 3090", "GeForce RTX 3080 Ti", "GeForce RTX 3080",
         "GeForce RTX 3070 Ti", "GeForce RTX 3070", "GeForce RTX 3060 Ti", "GeForce RTX 3060",
         "GeForce RTX 3050"],
    80: ["A30"],
    75: ["T4", "T1000", "T600", "T400", "Quadro RTX 8000", "Quadro RTX 6000", "Quadro RTX 5000",
         "Quadro RTX 4000", "TITAN RTX", "GeForce RTX 2080 Ti", "GeForce RTX 2080",
         "GeForce RTX 2070", "GeForce RTX 2060", "GeForce GTX 1660 Ti", "GeForce GTX 1660",
         "GeForce GTX 1650"],
    70: ["TITAN V", "Quadro GV100"],
    61: ["Tesla P40", "Tesla P4", "Quadro P6000", "Quadro P5000", "Quadro P4000", "Quadro P2200",
         "Quadro P2000", "Quadro P1000", "Quadro P620", "Quadro P600", "Quadro P400", "TITAN Xp",
         "TITAN X (Pascal)", "GeForce GTX 1080 Ti", "GeForce GTX 1080", "GeForce GTX 1070 Ti",
         "GeForce GTX 1070", "GeForce GTX 1060", "GeForce GTX 1050"],
    60: ["Quadro GP100"],
    52: ["Tesla M60", "Tesla M40", "Quadro M6000 24GB", "Quadro M6000", "Quadro M5000",
         "Quadro M4000", "Quadro M2000", "GeForce GTX TITAN X", "GeForce GTX 980 Ti",
         "GeForce GTX 980", "GeForce GTX 970", "GeForce GTX 960", "GeForce GTX 950",
         "GeForce GTX 980M", "GeForce GTX 970M", "GeForce GTX 965M", "GeForce 910M"],
    50: ["Quadro K2200", "Quadro K1200", "Quadro K620", "Quadro M1200", "Quadro M520",
         "Quadro M2000M", "Quadro M1000M", "Quadro M600M", "Quadro M500M", "NVS 810",
         "GeForce GTX 750 Ti", "GeForce GTX 750", "GeForce GTX 960M", "GeForce GTX 950M",
         "GeForce 940M", "GeForce 930M", "GeForce GTX 850M", "GeForce 840M", "GeForce 830M"],
}


def block_of(devid):
    for lo, hi, cc, family in BLOCKS:
        if lo <= devid <= hi:
            return cc, family
    return None, None


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)["chips"]


def key(name):
    n = name.lower()
    n = re.sub(r"^nvidia\s+", "", n)
    return re.sub(r"[^a-z0-9]+", " ", n).strip()


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    rows = {}
    for path in argv[1:]:
        for chip in load(path):
            if "legacybranch" in chip:
                continue
            devid = int(chip["devid"], 16)
            if "subdevid" in chip and devid in rows:
                continue  # a board variant of an id already named
            rows[devid] = chip["name"].strip()
    out, missing = [], []
    for devid in sorted(rows):
        cc, family = block_of(devid)
        if devid in UNLISTED:
            continue
        if cc is None:
            missing.append("%04X %s" % (devid, rows[devid]))
            continue
        out.append((devid, cc, rows[devid]))
    if missing:
        sys.exit("device ids outside every block (add the chip to BLOCKS):\n  " + "\n  ".join(missing))
    by_name = {}
    for devid, cc, name in out:
        by_name.setdefault(key(name), set()).add(cc)
    page = {key(n): cc for cc, names in CUDA_GPUS_PAGE.items() for n in names}
    checked = 0
    for name, want in sorted(page.items()):
        ccs = by_name.get(name)
        if ccs is None:
            continue
        checked += 1
        if want not in ccs:
            sys.exit("%s: the CUDA GPUs page says CC %d.%d, its device ids' blocks %s"
                     % (name, want // 10, want % 10, sorted(ccs)))
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "gpu_ids.c"), "w") as f:
        f.write("/* gpu_ids.c — GENERATED by src/doctor/gpu_ids_gen.py; do not edit by hand.\n"
                " * NVIDIA PCI device ids (vendor 0x10de) that the current Linux driver supports,\n"
                " * Maxwell to Blackwell, with each chip's compute capability (x10).\n"
                " * Ids and names: the driver's supported-chips list (supported-gpus.json, the\n"
                " * README's Appendix A), drivers 550.163.01 and 580.x.\n"
                " * CC: NVIDIA's CUDA GPU Compute Capability pages, per chip family; %d names the\n"
                " * pages list were checked against the driver's list. Columns: device id, CC,\n"
                " * whether the name belongs to one CC only, the name. */\n" % checked)
        f.write('#include "doctor/gpu_identity.h"\n\n')
        f.write("const gp_gpu_id gp_gpu_ids[] = {\n")
        for devid, cc, name in out:
            # a name two chips share (GTX 750 is GM107 and GM206) says nothing about the CC
            unique = 1 if len(by_name[key(name)]) == 1 else 0
            f.write('    {0x%04x, %d, %d, "%s"},\n' % (devid, cc, unique, name.replace('"', "'")))
        f.write("};\n\nconst unsigned gp_gpu_id_count = sizeof gp_gpu_ids / sizeof gp_gpu_ids[0];\n\n")
        f.write("const gp_gpu_block gp_gpu_blocks[] = {\n")
        for lo, hi, cc, family in BLOCKS:
            f.write('    {0x%04x, 0x%04x, %d, "%s"},\n' % (lo, hi, cc, family))
        f.write("};\n\nconst unsigned gp_gpu_block_count = sizeof gp_gpu_blocks / sizeof gp_gpu_blocks[0];\n")
    print("gpu_ids.c: %d device ids, %d blocks, %d names checked against the CUDA GPUs page"
          % (len(out), len(BLOCKS), checked))


if __name__ == "__main__":
    main(sys.argv)
