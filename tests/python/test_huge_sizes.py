"""Every exported routine, called with sizes no machine has, ends in a clean
Python exception: never an abort, a signal, a hang or a ``PanicException``.

The sweep is generated from the package: for every routine in every family's
``__all__`` and every parameter that takes a size, a length, a count, an
order or an axis (by name, or an integer default), the routine is called with
huge values (``2**62``, ``-2**62``, ``2**70``, ``10**30``) in that slot and
small, valid-looking arrays everywhere else. Success is any ``Exception``
(MemoryError, ValueError, OverflowError, ...) or a result; failure is the
process dying, a case running past its time limit, or a ``BaseException``
that is not an ``Exception`` (pyo3's ``PanicException`` is one).

All cases run in child processes (several cases each); a child that dies
takes only the case it was running, which is reported, and the next child
resumes after it. Run by hand: ``python tests/python/test_huge_sizes.py``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys

HUGE = (2**62, -(2**62), 2**70, 10**30)
SIZE_NAMES = {
    "n", "N", "m", "M", "k", "s", "size", "axis", "axes", "d", "order", "type", "lwork", "p", "dim", "num",
    "target", "shape", "workers", "q", "up", "down", "nperseg", "noverlap", "nfft", "numtaps", "window_length",
}
# Cases are cheap when refused; a case that computes for this long is a hang.
CASE_TIME_LIMIT_S = 20


def _families(tb):
    from torchbridge import _dispatch

    return list(_dispatch.families())


def _filler(name: str, family: str):
    """A small argument for a parameter that is not under test."""
    import numpy as np

    matrix = np.eye(4) + 0.25
    if family == "linalg":
        if name in ("c_and_lower", "lu_and_piv"):
            return None
        return matrix if name[0].lower() in "abcxr" else np.ones(4)
    if name in ("x", "a", "b", "y", "c", "r", "x1", "x2", "z", "p", "lmbda", "delta", "v"):
        return np.linspace(0.1, 0.9, 4)
    return 1


def cases():
    """(family, routine, parameter, value) for every huge-value call."""
    import torchbridge as tb

    out = []
    for family in _families(tb):
        module = importlib.import_module(f"torchbridge.{family}")
        for name in module.__all__:
            routine = getattr(module, name)
            if not callable(routine):
                continue
            try:
                parameters = list(inspect.signature(routine).parameters.values())
            except (TypeError, ValueError):
                continue
            for p in parameters:
                if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name == "device":
                    continue
                int_default = isinstance(p.default, int) and not isinstance(p.default, bool)
                positional_ufunc = family == "special" and p.kind is p.POSITIONAL_ONLY
                if p.name in SIZE_NAMES or int_default or positional_ufunc:
                    for value in HUGE:
                        out.append((family, name, p.name, value))
    return out


def run_case(family: str, name: str, parameter: str, value: int) -> dict:
    """Calls one routine with `value` in `parameter`; returns the outcome."""
    routine = getattr(importlib.import_module(f"torchbridge.{family}"), name)
    args, kwargs = [], {}
    for p in inspect.signature(routine).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name == "device":
            continue
        if p.name == parameter:
            given = [value] * 3 if p.name in ("s", "axes", "shape") else value
        elif p.default is p.empty:
            given = _filler(p.name, family)
        else:
            continue
        if p.kind is p.POSITIONAL_ONLY:
            args.append(given)
        else:
            kwargs[p.name] = given
    try:
        routine(*args, **kwargs)
    except Exception as e:  # a clean refusal, whatever its class
        return {"outcome": "raised", "type": type(e).__name__, "message": str(e)[:200]}
    except BaseException as e:  # PanicException and the like: not catchable by `except Exception`
        return {"outcome": "base-exception", "type": type(e).__name__, "message": str(e)[:200]}
    return {"outcome": "returned"}


def _child(start: int) -> None:
    import faulthandler

    all_cases = cases()
    for index in range(start, len(all_cases)):
        print(json.dumps({"start": index}), flush=True)
        faulthandler.dump_traceback_later(CASE_TIME_LIMIT_S, exit=True)
        result = run_case(*all_cases[index])
        faulthandler.cancel_dump_traceback_later()
        print(json.dumps({"index": index, **result}), flush=True)


def outcomes() -> tuple[list, dict[int, dict]]:
    """Runs every case in child processes; a dead child's case is recorded and skipped."""
    all_cases = cases()
    results: dict[int, dict] = {}
    start = 0
    while start < len(all_cases):
        done = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--child", str(start)],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        started = start
        for line in done.stdout.splitlines():
            record = json.loads(line)
            if "start" in record:
                started = record["start"]
            else:
                results[record.pop("index")] = record
        if done.returncode != 0 or started not in results:
            how = "time limit" if "Timeout" in done.stderr else f"exit status {done.returncode}"
            results[started] = {"outcome": "died", "how": how, "stderr": done.stderr[-600:]}
        start = max(results) + 1
    return all_cases, results


_OUTCOMES = None


def _get():
    global _OUTCOMES
    if _OUTCOMES is None:
        _OUTCOMES = outcomes()
    return _OUTCOMES


def test_the_sweep_covers_every_family():
    all_cases, _ = _get()
    assert {family for family, *_ in all_cases} >= {"special", "fft", "linalg"}
    assert len(all_cases) > 200


def test_every_huge_call_ends_in_a_clean_exception():
    all_cases, results = _get()
    bad = [
        f"{family}.{name}({parameter}={value}): {results.get(k)}"
        for k, (family, name, parameter, value) in enumerate(all_cases)
        if results.get(k, {}).get("outcome") not in ("raised", "returned")
    ]
    assert not bad, f"{len(bad)} of {len(all_cases)} calls did not end cleanly:\n" + "\n".join(bad[:40])


def test_allocation_failures_are_memory_errors():
    """A call refused for lack of memory says so with Python's MemoryError, not TorchError."""
    import torchbridge as tb

    assert issubclass(tb.OutOfMemoryError, MemoryError)
    _, results = _get()
    def about_memory(message: str) -> bool:
        return "alloc" in message or "out of memory" in message

    torch_said = [r for r in results.values() if r.get("type") == "TorchError" and about_memory(r.get("message", ""))]
    assert not torch_said, f"allocation failures surfaced as TorchError: {torch_said[:5]}"


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        _child(int(sys.argv[2]))
    else:
        all_cases, results = outcomes()
        for k, c in enumerate(all_cases):
            print(*c, results.get(k))
