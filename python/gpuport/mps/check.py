"""One mps-check: the modes entered around a program (or a `with` block), and the report built
from what they recorded. `Check` is the context manager behind `gpuport.torch.mps_check()` and
the command; `run_program` runs a script the way `python SCRIPT` would and keeps its own error."""

from __future__ import annotations

import contextlib
import os
import re
import runpy
import signal
import sys
import threading
import traceback
import warnings
from typing import Any, Dict, Iterator, List, Optional, Sequence

SCHEMA = "gpuport.mps-check/1"

# PyTorch's own words on a Mac (aten/src/ATen/mps/MPSFallback.mm): the warning under
# PYTORCH_ENABLE_MPS_FALLBACK=1 and the error without it.
_FALLBACK_RE = re.compile(r"The operator '([\w:.]+)' is not currently supported on the MPS "
                          r"backend and will fall back to run on the CPU")
_MISSING_RE = re.compile(r"The operator '([\w:.]+)' is not currently implemented for the MPS "
                         r"device")
_FLOAT64_RE = re.compile(r"Cannot convert a MPS Tensor to float64 dtype")


def parse_mac_message(text: str) -> Optional[Dict[str, str]]:
    """A PyTorch message seen on a Mac, as {"kind", "operator"}; None if it is not one of them."""
    m = _FALLBACK_RE.search(text)
    if m:
        return {"kind": "fallback", "operator": m.group(1)}
    m = _MISSING_RE.search(text)
    if m:
        return {"kind": "no-mps-kernel", "operator": m.group(1)}
    if _FLOAT64_RE.search(text):
        return {"kind": "float64", "operator": ""}
    return None


def fallback_enabled() -> bool:
    return os.environ.get("PYTORCH_ENABLE_MPS_FALLBACK", "") == "1"


def real_mps() -> bool:
    import torch

    try:
        return sys.platform == "darwin" and bool(torch.backends.mps.is_available())
    except Exception:  # noqa: BLE001 - a torch without MPS support
        return False


class Check:
    """Traces operators while entered; `report()` afterwards. `as_device`: "mps" (a real Mac when
    this is one, else the simulated device) or "cpu" (the program's CPU path, every tensor judged
    as if it were on MPS)."""

    def __init__(self, as_device: str = "mps", fallback: Optional[bool] = None,
                 simulate: Optional[bool] = None):
        from . import tables

        self.tables = tables.load()
        try:  # torch's mode machinery imports it on first use: not inside the program's time
            import torch._dynamo  # noqa: F401
        except Exception:  # noqa: BLE001 - a torch without it has modes that do not need it
            pass
        if as_device not in ("mps", "cpu"):
            raise ValueError(f"as_device must be 'mps' or 'cpu', not {as_device!r}")
        self.as_device = as_device
        self.fallback = fallback_enabled() if fallback is None else fallback
        on_mac = real_mps()
        self.simulated = (not on_mac) if simulate is None else simulate
        if as_device == "cpu":
            self.mode = "cpu"
        else:
            self.mode = "simulated" if self.simulated else "device"
        from .recorder import Recorder

        test = {"cpu": "all", "simulated": "storage", "device": "mps"}[self.mode]
        self.rec = Recorder(self.tables, test)
        self.observed: List[Dict[str, Any]] = []
        self.program: Dict[str, Any] = {}
        self._stack: Optional[contextlib.ExitStack] = None

    @contextlib.contextmanager
    def _modes(self) -> Iterator[None]:
        from .fakedevice import FakeMpsMode
        from .recorder import RecordingMode

        with contextlib.ExitStack() as st:
            if self.mode == "simulated":
                st.enter_context(FakeMpsMode(self.rec))
            st.enter_context(RecordingMode(self.rec))
            yield

    def __enter__(self) -> "Check":
        from . import fakedevice as fd

        st = contextlib.ExitStack()
        patches = fd._Patches()
        st.callback(patches.undo)
        if self.mode == "simulated":
            fd.patch_mac(patches, self.rec)
        fd.patch_stops(patches, self.rec)
        fd.patch_threads(patches, self._modes)
        if self.mode == "device":
            st.enter_context(self._catch_warnings())
        st.enter_context(self._modes())
        self._stack = st
        return self

    def __exit__(self, et: Any, ev: Any, tb: Any) -> bool:
        if ev is not None and not isinstance(ev, (KeyboardInterrupt,)):
            self._note_error(ev, tb)
        if self._stack is not None:
            self._stack.close()
            self._stack = None
        return False

    @contextlib.contextmanager
    def _catch_warnings(self) -> Iterator[None]:
        real = warnings.showwarning

        def show(message: Any, category: Any, filename: str, lineno: int, *a: Any,
                 **k: Any) -> None:
            got = parse_mac_message(str(message))
            if got:
                got.update(file=filename, line=lineno, text=str(message).splitlines()[0])
                self.observed.append(got)
            real(message, category, filename, lineno, *a, **k)

        warnings.showwarning = show
        try:
            yield
        finally:
            warnings.showwarning = real

    def _note_error(self, ev: BaseException, tb: Any) -> None:
        if isinstance(ev, SystemExit):
            return
        file, line = self.rec.user_frame_of_traceback(tb)
        msg = str(ev).splitlines()[0] if str(ev) else ""
        self.program.setdefault("error", {"type": type(ev).__name__, "message": msg[:500],
                                          "file": file, "line": line})
        got = parse_mac_message(str(ev))
        if got and self.mode == "device":
            got.update(file=file, line=line, text=msg)
            self.observed.append(got)

    # --- the report ----------------------------------------------------------------------------
    def findings(self) -> List[Dict[str, Any]]:
        fs = sorted(self.rec.findings.values(), key=lambda f: f.order)
        return [f.as_dict(self.fallback) for f in fs]

    def report(self) -> Dict[str, Any]:
        import torch

        fs = self.findings()
        fails = [f for f in fs if f["severity"] == "fails"]
        fallback = [f for f in fs if f["severity"] == "fallback"]
        verdict = "fails" if fails else ("fallback" if fallback else "ready")
        per_op: Dict[str, int] = {}
        for f in fallback:
            per_op[f["operator"]] = per_op.get(f["operator"], 0) + f["count"]
        t = self.tables
        doc: Dict[str, Any] = {
            "schema": SCHEMA,
            "verdict": verdict,
            "mode": self.mode,
            "fallback_enabled": self.fallback,
            "torch": str(torch.__version__),
            "tables": dict(source=t.yaml_path, testlists=t.testlist_path or "", **t.counts()),
            "program": dict(self.program),
            "operators": {"calls": self.rec.calls, "device_calls": self.rec.device_calls,
                          "distinct": len(self.rec.op_names)},
            "findings": fs,
            "first_failure": fails[0] if fails else None,
            "fallback_operators": [{"operator": k, "count": v} for k, v in per_op.items()],
            "notes": list(dict.fromkeys(self.rec.notes)),
        }
        if self.mode == "device":
            doc["observed"] = self.observed
        return doc


class _Timeout(BaseException):
    pass


class UsageError(Exception):
    """Bad input to the command: exit 2 with this message."""


def _resolve_program(argv: Sequence[str]) -> List[str]:
    args = list(argv)
    if args and os.path.basename(args[0]).startswith("python"):
        args = args[1:]
    if not args:
        raise UsageError("no program given: gpuport mps-check [options] -- python SCRIPT [ARGS]")
    if args[0] == "-m":
        if len(args) < 2:
            raise UsageError("'-m' needs a module name")
        return args
    if args[0].startswith("-"):
        raise UsageError(f"unsupported python option '{args[0]}': give the script (or -m MODULE)")
    if not os.path.isfile(args[0]):
        raise UsageError(f"{args[0]}: no such script")
    return args


def run_program(check: Check, argv: Sequence[str], timeout: Optional[float] = None) -> None:
    """Runs `python SCRIPT ARGS` (or `-m MODULE ARGS`) inside `check`; the program's exit, error or
    timeout go in check.program; never raises for the program's own failures."""
    args = _resolve_program(argv)
    module = args[1] if args[0] == "-m" else None
    prog_argv = args[1:] if module else args
    saved_argv, saved_path0 = sys.argv[:], sys.path[0] if sys.path else ""
    sys.argv = prog_argv[:] if not module else [module] + prog_argv[1:]
    if module is None:
        sys.path.insert(0, os.path.dirname(os.path.abspath(args[0])))
    check.program.update(argv=list(args), status="completed")
    use_alarm = bool(timeout) and threading.current_thread() is threading.main_thread() and \
        hasattr(signal, "setitimer")
    old_handler = None
    if use_alarm:
        def on_alarm(_sig: int, _frame: Any) -> None:
            raise _Timeout()

        old_handler = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, float(timeout))
    try:
        with check:
            try:
                if module:
                    runpy.run_module(module, run_name="__main__", alter_sys=True)
                else:
                    runpy.run_path(args[0], run_name="__main__")
            except _Timeout:
                check.program["status"] = "timeout"
                check.program["timeout_s"] = timeout
            except SystemExit as e:
                code = e.code
                if code is None:
                    code = 0
                elif not isinstance(code, int):
                    print(code, file=sys.stderr)
                    code = 1
                check.program["status"] = "exited"
                check.program["exit_code"] = code
            except BaseException as e:  # noqa: BLE001 - the program's error goes in the report
                check.program["status"] = "raised"
                check._note_error(e, e.__traceback__)
                _print_program_error(check, e)
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
        sys.argv = saved_argv
        if module is None and sys.path and sys.path[0] != saved_path0:
            sys.path.pop(0)


def _print_program_error(check: Check, e: BaseException) -> None:
    """The program's traceback as python would print it, without gpuport's own frames."""
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if check.rec._user_file(f.filename)]
    sys.stderr.write("Traceback (most recent call last):\n")
    sys.stderr.write("".join(traceback.format_list(frames)))
    sys.stderr.write("".join(traceback.format_exception_only(type(e), e)))
