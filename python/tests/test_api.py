"""The bindings follow the C header: every GP_API function of include/gpuport/gpuport.h is declared
in gpuport._native with as many parameters as the C declaration has."""

import re
from pathlib import Path

import pytest

from gpuport import _native as N

HEADER = Path(__file__).resolve().parents[2] / "include" / "gpuport" / "gpuport.h"


def c_functions():
    text = HEADER.read_text()
    out = {}
    for m in re.finditer(r"GP_API\s+[\w\s\*]+?\b(gp_\w+)\s*\(([^;]*?)\)\s*;", text, re.S):
        params = m.group(2).strip()
        out[m.group(1)] = 0 if params in ("", "void") else params.count(",") + 1
    return out


@pytest.mark.skipif(not HEADER.is_file(), reason="the C header is not beside this package")
def test_every_c_function_is_bound_with_its_arity():
    funcs = c_functions()
    assert len(funcs) > 40
    for name, arity in funcs.items():
        fn = getattr(N.lib, name)
        assert fn.argtypes is not None, f"{name} is not declared in gpuport/_native.py"
        assert len(fn.argtypes) == arity, f"{name}: {len(fn.argtypes)} argtypes, the header has {arity}"
