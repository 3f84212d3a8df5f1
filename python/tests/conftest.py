"""Test setup: the package is imported from this checkout; libgpuport and the CLI come from the
installed package or from $GPUPORT_BUILD_DIR (scripts/test.sh sets it to the CMake build)."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gpuport as gp  # noqa: E402


def available_specs():
    """Every device spec this machine can open (the CPU always; PoCL in CI)."""
    specs = []
    for d in gp.devices():
        if d.spec not in specs:
            specs.append(d.spec)
    return specs


@pytest.fixture(params=available_specs())
def device(request):
    with gp.Device(request.param) as d:
        yield d


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GPUPORT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "kernel-cache"))
