"""`python -m gpuport mps-check [options] -- python SCRIPT [ARGS]` (the CLI's `gpuport mps-check`
execs this): runs the program under a Check and prints the report, as text or --json. Exit codes:
0 ready or runs with the CPU fallback, 1 fails (or the program itself failed), 2 bad input."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional

USAGE = """usage: gpuport mps-check [--json] [--as mps|cpu] [--timeout S] [--fallback] [--output FILE]
                         -- python SCRIPT [ARGS...]

Runs a PyTorch program (a small slice: one batch, one optimizer step) and reports every operator
call that would fail on Apple's MPS backend or run on the CPU there, with the dtypes, the count and
the line in your code. Off a Mac, the program sees a Mac: torch.backends.mps.is_available() is true
and tensors on "mps" work, computed on the CPU; the prediction comes from the installed torch's
own tables. On a Mac with MPS the program runs on the device, and PyTorch's fallback warnings and
errors are recorded next to the prediction.

options:
  --json          print the report as JSON (schema gpuport.mps-check/1); the program's own
                  stdout goes to stderr
  --as mps|cpu    mps (default): trace the program's MPS path; cpu: trace its CPU path, every
                  tensor judged as if it were on MPS
  --timeout S     stop the program after S seconds and report what was seen
  --fallback      judge as if PYTORCH_ENABLE_MPS_FALLBACK=1 were set (it is read from the
                  environment otherwise)
  --output FILE   also write the JSON report to FILE

exit: 0 ready or runs with CPU fallback, 1 fails (or the program raised), 2 bad input
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise SystemExit(_usage_error(message))


def _usage_error(message: str, json_out: bool = False) -> int:
    print(f"gpuport mps-check: {message}", file=sys.stderr)
    if json_out:
        print(json.dumps({"schema": "gpuport.error/1", "command": "mps-check", "exit_code": 2,
                          "error": message}))
    return 2


def _where(f: Dict[str, Any]) -> str:
    if not f.get("file"):
        return "(no line in your code)"
    path = f["file"]
    if os.path.isabs(path):
        rel = os.path.relpath(path)
        path = path if rel.startswith("..") else rel
    return f"{path}:{f['line']}"


VERDICT_TEXT = {"ready": "ready: every traced operator runs on MPS",
                "fallback": "runs with CPU fallback",
                "fails": "fails on MPS"}


def render_text(r: Dict[str, Any]) -> str:
    out: List[str] = []
    mode = {"simulated": "simulated MPS (this machine has none; computed on the CPU)",
            "device": "the MPS device", "cpu": "the program's CPU path, judged as if on MPS"}
    out.append(f"gpuport mps-check: {VERDICT_TEXT[r['verdict']]}")
    out.append(f"  traced: {mode[r['mode']]}; {r['operators']['device_calls']} operator calls on "
               f"the device ({r['operators']['distinct']} distinct), "
               f"{r['operators']['calls']} in all")
    how = "observed on the device and predicted" if r["mode"] == "device" else "predicted"
    out.append(f"  {how} from the installed torch {r['torch']}'s own tables "
               f"({r['tables']['mps_kernels']} operators with an MPS kernel, "
               f"{r['tables']['missing']} with none); "
               f"PYTORCH_ENABLE_MPS_FALLBACK={'1' if r['fallback_enabled'] else 'unset'}")
    for f in r["findings"]:
        dt = ", ".join(f["dtypes"]) or "-"
        op = f["operator"] + ("" if f["overload"] in ("default", "") else "." + f["overload"])
        out.append(f"{_where(f)}: {f['severity']}: {op} ({dt}) x{f['count']}: "
                   f"{f['message'] or f.get('detail', '')}")
        if f.get("detail") and f["kind"] in ("custom-op", "float64", "dtype", "stop"):
            out.append(f"    {f['detail']}")
        if f.get("forward"):
            out.append(f"    the backward of the call at {_where(f['forward'])}")
        if f.get("fix"):
            out.append(f"    fix: {f['fix']}")
    if r["fallback_operators"]:
        ops = ", ".join(f"{o['operator']} x{o['count']}" for o in r["fallback_operators"])
        out.append(f"  on the CPU under the fallback: {ops}")
    if r.get("first_failure"):
        f = r["first_failure"]
        out.append(f"  first failure, as a Mac reports it: {_where(f)}: {f['message']}")
    for o in r.get("observed", []):
        out.append(f"  seen on the device: {o['file']}:{o['line']}: {o['text']}")
    p = r["program"]
    if p.get("status") == "raised" and p.get("error"):
        e = p["error"]
        out.append(f"  the program raised at {_where(e)}: {e['type']}: {e['message']}")
    elif p.get("status") == "exited" and p.get("exit_code"):
        out.append(f"  the program exited with status {p['exit_code']}")
    elif p.get("status") == "timeout":
        out.append(f"  stopped after {p.get('timeout_s')} s (--timeout): the report covers what "
                   "ran until then")
    for n in r.get("notes", []):
        out.append(f"  note: {n}")
    return "\n".join(out) + "\n"


def exit_code(r: Dict[str, Any]) -> int:
    p = r["program"]
    if r["verdict"] == "fails" or p.get("status") == "raised" or p.get("exit_code"):
        return 1
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "mps-check":
        args = args[1:]
    json_out = "--json" in (args[: args.index("--")] if "--" in args else args)
    if "--" in args:
        i = args.index("--")
        opts, program = args[:i], args[i + 1:]
    else:
        opts, program = [], []
        it = iter(range(len(args)))
        for i in it:  # options up to the first word that is not one (the program)
            a = args[i]
            if a in ("--as", "--timeout", "--output"):
                opts += args[i:i + 2]
                next(it, None)
            elif a.startswith("-"):
                opts.append(a)
            else:
                program = args[i:]
                break
    if "-h" in opts or "--help" in opts:
        print(USAGE, end="")
        return 0
    p = _Parser(prog="gpuport mps-check", add_help=False)
    p.add_argument("--json", action="store_true")
    p.add_argument("--as", dest="as_device", choices=("mps", "cpu"), default="mps")
    p.add_argument("--timeout", type=float)
    p.add_argument("--fallback", action="store_true")
    p.add_argument("--output")
    try:
        ns = p.parse_args(opts)
    except SystemExit as e:
        return int(e.code or 2) if not json_out else _usage_error("bad options", True)
    if ns.timeout is not None and ns.timeout <= 0:
        return _usage_error("--timeout needs a positive number of seconds", json_out)
    from .check import Check, UsageError, _resolve_program, run_program
    from .tables import TablesError

    try:
        _resolve_program(program)
    except UsageError as e:
        return _usage_error(str(e), json_out)
    try:
        check = Check(as_device=ns.as_device, fallback=True if ns.fallback else None)
    except TablesError as e:
        return _usage_error(str(e), json_out)
    saved_stdout = None
    if ns.json:
        sys.stdout.flush()
        saved_stdout = os.dup(1)
        os.dup2(2, 1)  # the program's prints (and its children's) go to stderr
    try:
        run_program(check, program, ns.timeout)
    finally:
        if saved_stdout is not None:
            sys.stdout.flush()
            os.dup2(saved_stdout, 1)
            os.close(saved_stdout)
    report = check.report()
    if ns.output:
        try:
            with open(ns.output, "w", encoding="utf-8") as f:
                json.dump(report, f, indent=2)
                f.write("\n")
        except OSError as e:
            print(f"gpuport mps-check: {ns.output}: cannot write the report ({e.strerror})",
                  file=sys.stderr)
            return 2
    if ns.json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        sys.stdout.write(render_text(report))
    sys.stdout.flush()
    return exit_code(report)
