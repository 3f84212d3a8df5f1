#!/usr/bin/env bash
# find_cuobjdump.sh — sourced by the archcheck tests: sets $cuobjdump to NVIDIA's cuobjdump (the
# ground truth for --list) from PATH, the toolkit, or the PyPI package nvidia-cuda-cuobjdump
# (nvidia/cu13/bin/cuobjdump in site-packages); empty when there is none.
cuobjdump=$(command -v cuobjdump || true)
[ -z "$cuobjdump" ] && [ -x /usr/local/cuda/bin/cuobjdump ] && cuobjdump=/usr/local/cuda/bin/cuobjdump
if [ -z "$cuobjdump" ] && command -v python3 >/dev/null; then
    cuobjdump=$(python3 -c 'import glob, site, sys
for d in site.getsitepackages() + [site.getusersitepackages()]:
    for p in sorted(glob.glob(d + "/nvidia/cu*/bin/cuobjdump")):
        print(p); sys.exit(0)' 2>/dev/null || true)
    [ -n "$cuobjdump" ] && [ ! -x "$cuobjdump" ] && cuobjdump=
fi
