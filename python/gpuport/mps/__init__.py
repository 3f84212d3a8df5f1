"""MPS readiness of a PyTorch program (`gpuport mps-check`, docs/mps-check.md): which operators and
dtypes Apple's MPS backend would refuse or run on the CPU, with the line in the user's code —
predicted from the installed torch's own tables, on any machine, and observed on a Mac.

    with gpuport.torch.mps_check() as check:    # or: gpuport.mps.check.Check()
        train_one_step()
    print(check.report()["verdict"])
"""

from .check import SCHEMA, Check, parse_mac_message, run_program  # noqa: F401
from .tables import TablesError, load  # noqa: F401
