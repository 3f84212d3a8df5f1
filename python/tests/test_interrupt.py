"""Ctrl-C while Python waits for a long launch on a device that runs on its own (OpenCL here):
KeyboardInterrupt comes at once, the script can exit with 130, and the process does not hang
waiting for the kernel at exit."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import gpuport as gp

SPIN = """
GP_KERNEL(spin, GP_BUF(float, y), GP_VAL(int, iters))
{
    int i = gp_global_id(0);
    float a = (float)i;
    for (int k = 0; k < iters; k++)
        a = a * 0.999999f + 1.0f;
    y[i] = a;
}
"""

CHILD = """
import sys, numpy as np, gpuport as gp
d = gp.Device(sys.argv[1])
k = d.program({src!r}, name="spin.gpk").spin
y = {make}
print("launching", flush=True)
try:
    k(64, y, 2000000000{queue})  # minutes of work
    print("launched", flush=True)
    {wait}
    print("finished", flush=True)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(130)
"""

WAITS = {
    "numpy": ("np.zeros(64, np.float32)", "", "pass"),
    "finish": ("d.empty(64, np.float32)", "", "d.default_queue().finish()"),
    "synchronize": ("d.empty(64, np.float32)", "", "d.synchronize()"),
    "read": ("d.empty(64, np.float32)", "", "y.numpy()"),
    "queue": ("d.empty(64, np.float32)", ", queue=q", "q.finish()"),
    "event": ("d.empty(64, np.float32)", "", "d.record().wait()"),
}


def _opencl():
    specs = [d.spec for d in gp.devices() if d.backend == "opencl"]
    if not specs:
        pytest.skip("no OpenCL device (PoCL is installed by scripts/install-deps.sh)")
    return specs[0]


@pytest.mark.parametrize("how", sorted(WAITS))
def test_ctrl_c_stops_the_wait(tmp_path, how):
    spec = _opencl()
    make, queue, wait = WAITS[how]
    src = CHILD.format(src=SPIN, make=make, queue=queue, wait=wait)
    if how == "queue":
        src = src.replace("y = ", "q = d.queue()\ny = ", 1)
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(src))
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    p = subprocess.Popen([sys.executable, str(script), spec], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "launching"
        if how != "numpy":  # a launch with numpy arrays waits inside the call
            assert p.stdout.readline().strip() == "launched"
        time.sleep(1.5)  # well into the kernel, waiting
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail(f"{how}: Ctrl-C did not stop the wait (or the exit waited for the kernel)")
    assert p.returncode == 130, (out, err)
    assert "KeyboardInterrupt" in out and "finished" not in out


def test_ctrl_c_stops_a_cpu_launch_between_work_groups(tmp_path):
    """On the CPU the kernel runs inside the launch call: libgpuport's SIGINT handler, in front
    of Python's, stops it before its next work-group, and Python raises KeyboardInterrupt."""
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(f"""
        import sys, numpy as np, gpuport as gp
        d = gp.Device("cpu")
        k = d.program({SPIN!r}, name="spin.gpk").spin
        y = np.zeros(256 * 2000, np.float32)  # 2000 groups of a few ms each: minutes in all
        print("launching", flush=True)
        try:
            k(y.size, y, 2000000)
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            sys.exit(130)
    """))
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "launching"
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail("Ctrl-C did not stop the CPU launch")
    assert p.returncode == 130, (out, err)
    assert "KeyboardInterrupt" in out and "finished" not in out


def test_gp_interrupt_stops_a_cpu_launch_from_another_thread():
    import threading

    import numpy as np

    import gpuport._native as N

    d = gp.Device("cpu")
    k = d.program(SPIN, name="spin.gpk").spin
    y = np.zeros(256 * 2000, np.float32)
    done = threading.Event()

    def interrupt():  # again and again: the launch may not have begun at the first one
        while not done.wait(0.3):
            N.lib.gp_interrupt()

    t = threading.Thread(target=interrupt)
    t.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt, match="interrupted .* its results are incomplete"):
            k(y.size, y, 2000000)
    finally:
        done.set()
        t.join()
    assert time.monotonic() - t0 < 20
    k(256, y, 10)  # the next launch runs whole
    assert (y[:256] > 0).all()
