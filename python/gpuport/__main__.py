"""``python -m gpuport`` and the ``gpuport`` console script: the bundled CLI, run as it is (its
arguments, standard streams and exit code are the command's own)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    from .tools import executable

    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "mps-check":  # runs the user's program in this interpreter
        from .mps.cli import main as mps_check

        return mps_check(args)
    try:
        # never `gpuport` on PATH: that may be this very script
        exe = executable(search_path=False)
    except FileNotFoundError as e:
        print(f"gpuport: {e}", file=sys.stderr)
        return 2
    if os.name == "posix" and argv is None:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(exe, [exe, *args])  # the process becomes the CLI: signals and the tty are its own
    return subprocess.call([exe, *args])


if __name__ == "__main__":
    sys.exit(main())
