"""Per-call overhead of two torchbridge builds, side by side in one run.

    python benches/overhead_ab.py OLD_SITE NEW_SITE [--rounds R] [--out FILE]

OLD_SITE and NEW_SITE are folders holding an installed ``torchbridge``
(``pip install --no-deps --target DIR wheel``). Each round runs one short
subprocess per build, alternating which goes first, and each subprocess times
every call below (median of 7 batches, each batch as many calls as fill about
20 ms). The report gives, per call, the median over rounds for both builds and
their ratio (old / new: above 1, the new build is faster). Inputs are tiny, so
the figures are the cost of crossing into torchbridge and back: argument
parsing, import, dispatch and the return conversion. Each build also
reports how many libtorch operators one call dispatches (torch.profiler), a
count that a busy machine does not change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKER = r"""
import json, time
import numpy as np
import torchbridge as tb

x1 = np.array([0.5])
x16 = np.linspace(0, 1, 16)
a8 = np.eye(8) * 2.0 + 0.1
b8 = np.ones(8)
calls = {
    "special.erf, 1 element": lambda: tb.special.erf(x1),
    "special.xlogy, 1 element": lambda: tb.special.xlogy(x1, x1),
    "special.logsumexp, 16": lambda: tb.special.logsumexp(x16),
    "fft.fft, 16": lambda: tb.fft.fft(x16),
    "fft.rfft, 16, norm='ortho'": lambda: tb.fft.rfft(x16, norm="ortho"),
    "fft.dct, 16": lambda: tb.fft.dct(x16),
    "fft.fftfreq(16)": lambda: tb.fft.fftfreq(16),
    "linalg.det, 8x8": lambda: tb.linalg.det(a8),
    "linalg.solve, 8x8": lambda: tb.linalg.solve(a8, b8),
    "linalg.toeplitz, 16": lambda: tb.linalg.toeplitz(x16),
    "apply(identity), 1 element": lambda: tb.apply(lambda t: t, x1),
}
try:  # torch inputs (grad mode on, no input requiring grad: the common call)
    import torch

    t1, t1000 = torch.from_numpy(x1), torch.linspace(0, 1, 1000, dtype=torch.float64)
    t16, ta8, tb8 = torch.from_numpy(x16), torch.from_numpy(a8), torch.from_numpy(b8)
    calls.update({
        "special.erf, 1 element, torch": lambda: tb.special.erf(t1),
        "special.erf, 1000, torch": lambda: tb.special.erf(t1000),
        "special.xlogy, 1 element, torch": lambda: tb.special.xlogy(t1, t1),
        "fft.rfft, 16, torch": lambda: tb.fft.rfft(t16),
        "linalg.solve, 8x8, torch": lambda: tb.linalg.solve(ta8, tb8),
    })
except ImportError:
    pass

def per_call(f):
    f()
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            f()
        if time.perf_counter() - start > 0.02:
            break
        n *= 2
    batches = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(n):
            f()
        batches.append((time.perf_counter() - start) / n)
    batches.sort()
    return batches[3]

def dispatches(f):
    # libtorch operator calls of one call, counted by torch's profiler (which
    # sees every ATen dispatch in the process, torchbridge's included):
    # the same on a busy machine as on a quiet one.
    from torch.profiler import ProfilerActivity, profile

    f()
    with profile(activities=[ProfilerActivity.CPU]) as p:
        f()
    return sum(1 for e in p.events() if e.name.startswith("aten::"))

times = {name: per_call(f) for name, f in calls.items()}
print(json.dumps({"time": times, "dispatches": {name: dispatches(f) for name, f in calls.items()}}))
"""


def run(site: str) -> dict[str, dict[str, float]]:
    env = dict(os.environ, PYTHONPATH=site, OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", WORKER], env=env, capture_output=True, text=True, timeout=600, check=True, cwd="/"
    )
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", help="also write the markdown table here")
    args = parser.parse_args(argv)
    sides = {"old": args.old, "new": args.new}
    samples: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    counts: dict[str, dict[str, int]] = {}
    load_before = os.getloadavg()
    for k in range(args.rounds):
        order = ["old", "new"] if k % 2 == 0 else ["new", "old"]
        for side in order:
            result = run(sides[side])
            counts[side] = result["dispatches"]
            for name, seconds in result["time"].items():
                samples[side].setdefault(name, []).append(seconds)
    load_after = os.getloadavg()
    lines = [
        f"Per-call time, median of {args.rounds} alternating rounds (OMP_NUM_THREADS=1); ratio = old / new.",
        "Dispatches: libtorch operator calls per call (torch.profiler's aten:: events), load-independent.",
        f"Load average (1, 5, 15 min) before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
        f"after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} on {os.cpu_count()} cores.",
        "",
        "| call | old | new | ratio | dispatches old | dispatches new |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in samples["old"]:
        old, new = statistics.median(samples["old"][name]), statistics.median(samples["new"][name])
        lines.append(
            f"| {name} | {old * 1e6:.1f} us | {new * 1e6:.1f} us | {old / new:.2f} "
            f"| {counts['old'][name]} | {counts['new'][name]} |"
        )
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
