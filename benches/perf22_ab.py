"""logit and the DCT/DST of two torchbridge builds against SciPy, side by side in one run.

    python benches/perf22_ab.py OLD_DIR NEW_DIR [--rounds R] [--out FILE]

OLD_DIR and NEW_DIR are folders holding a ``torchbridge`` package (put first
on PYTHONPATH). Each round runs one subprocess per build, alternating which
goes first; each subprocess times SciPy and torchbridge on the same inputs
(the main benchmark's: ``uniform(0.001, 0.999)`` for logit, standard normal
signals for the transforms), median of 5 batches of about 20 ms each, so
every speedup (SciPy time / torchbridge time) is measured side by side under
the same load. The report gives the median over rounds of each time and
speedup, and the 1-minute load average from /proc/loadavg before each round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKER = r"""
import json, statistics, time
import numpy as np
import scipy.fft as sf
import scipy.special as sc
import torchbridge as tb

rng = np.random.default_rng(0)
cases = []
for n in (1000, 100_000, 1_000_000):
    p = rng.uniform(0.001, 0.999, n)
    cases.append((f"special.logit f64 {n:.0e}", lambda p=p: sc.logit(p), lambda p=p: tb.special.logit(p)))
p32 = rng.uniform(0.001, 0.999, 100_000).astype(np.float32)
cases.append(("special.logit f32 1e+05", lambda: sc.logit(p32), lambda: tb.special.logit(p32)))
for n in (1000, 100_000, 1_000_000):
    x = rng.standard_normal(n)
    cases.append((f"fft.dct f64 {n:.0e}", lambda x=x: sf.dct(x), lambda x=x: tb.fft.dct(x)))
x = rng.standard_normal(100_000)
for name in ("idct", "dst", "idst"):
    cases.append((f"fft.{name} f64 1e+05", lambda f=getattr(sf, name), x=x: f(x),
                  lambda f=getattr(tb.fft, name), x=x: f(x)))
cases.append(("fft.dct type 3 ortho f64 1e+05", lambda: sf.dct(x, 3, norm="ortho"),
              lambda: tb.fft.dct(x, 3, norm="ortho")))
x32 = x.astype(np.float32)
cases.append(("fft.dct f32 1e+05", lambda: sf.dct(x32), lambda: tb.fft.dct(x32)))
xb = rng.standard_normal((100, 1000))
cases.append(("fft.dct f64 100x1000 axis 0", lambda: sf.dct(xb, axis=0), lambda: tb.fft.dct(xb, axis=0)))
cases.append(("fft.rfft f64 1e+05 (reference)", lambda: sf.rfft(x), lambda: tb.fft.rfft(x)))


def median_time(f):
    f()
    start = time.perf_counter(); f(); once = time.perf_counter() - start
    number = max(1, int(0.02 / max(once, 1e-7)))
    batches = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(number):
            f()
        batches.append((time.perf_counter() - start) / number)
    return statistics.median(batches)


out = {}
for name, scipy_call, tb_call in cases:
    s, t = median_time(scipy_call), median_time(tb_call)
    out[name] = [s, t]
print(json.dumps(out))
"""


def run(site: str) -> dict:
    env = dict(os.environ, PYTHONPATH=site)
    done = subprocess.run([sys.executable, "-c", WORKER], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def fmt(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out")
    args = parser.parse_args()
    results = {"old": [], "new": []}
    loads = []
    for r in range(args.rounds):
        with open("/proc/loadavg") as f:
            loads.append(f.read().split()[0])
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for which in order:
            results[which].append(run(getattr(args, which)))
        print(f"round {r + 1}/{args.rounds} done (load {loads[-1]})", file=sys.stderr)
    with open("/proc/loadavg") as f:
        loads.append(f.read().split()[0])
    lines = [
        f"1-minute load average before each round and after: {', '.join(loads)} (2 cores)",
        "",
        "| case | SciPy | old | old x | new | new x | new/old speedup |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name in results["old"][0]:
        row = {}
        for which in ("old", "new"):
            scipy_t = [run_[name][0] for run_ in results[which]]
            tb_t = [run_[name][1] for run_ in results[which]]
            ratio = [s / t for s, t in zip(scipy_t, tb_t)]
            row[which] = (statistics.median(scipy_t), statistics.median(tb_t), statistics.median(ratio))
        scipy_all = statistics.median([row["old"][0], row["new"][0]])
        lines.append(
            f"| {name} | {fmt(scipy_all)} | {fmt(row['old'][1])} | {row['old'][2]:.2f} | {fmt(row['new'][1])} | "
            f"{row['new'][2]:.2f} | {row['old'][1] / row['new'][1]:.2f} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
