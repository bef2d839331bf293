"""The main job: where delegating to libtorch pays, side by side with SciPy.

    python benches/bench.py [--quick] [--suite special] [--sizes 1000,100000] [--out DIR]

For each routine and size it times, interleaved round by round so that
machine noise hits every path alike:

  native      SciPy on numpy arrays
  tb(numpy)   torchbridge on the same numpy arrays (conversion + libtorch)
  tb(torch)   torchbridge on torch tensors

and reports the median with its spread (min-max over rounds), the speedup
over native (above 1: faster than SciPy), and the largest relative error
against native. It also measures the per-call overhead on a 1-element array,
that conversion is O(1) in the array size, and import times.

Left out for now (issue 5): SciPy's own array-API path, CUDA paths, thread
scaling, the PNG plot. OpenBLAS is not involved in these routines.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import scipy.special as sc
import torch

import torchbridge as tb

SUITES = {
    "special": {
        "erf": ((-3, 3), sc.erf, tb.special.erf),
        "erfc": ((-3, 10), sc.erfc, tb.special.erfc),
        "expit": ((-20, 20), sc.expit, tb.special.expit),
        "logit": ((0.001, 0.999), sc.logit, tb.special.logit),
        "gammaln": ((0.1, 50), sc.gammaln, tb.special.gammaln),
    },
}


def calibrate(fn, target=0.02) -> int:
    """Inner repetitions so that one timing lasts about `target` seconds."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= target or n >= 1 << 20:
            return n
        n *= 2 if elapsed == 0 else max(2, min(100, int(target / elapsed) + 1))


def time_interleaved(paths: dict, rounds: int) -> dict:
    """Median, min and max seconds per call for each path, interleaved."""
    reps = {name: calibrate(fn) for name, fn in paths.items()}
    samples = {name: [] for name in paths}
    for _ in range(rounds):
        for name, fn in paths.items():
            n = reps[name]
            start = time.perf_counter()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter() - start) / n)
    return {name: {"median": statistics.median(s), "min": min(s), "max": max(s)} for name, s in samples.items()}


def max_rel_error(got, want) -> float:
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    finite = np.isfinite(want) & (want != 0)
    if not finite.any():
        return 0.0
    return float(np.max(np.abs(got[finite] - want[finite]) / np.abs(want[finite])))


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def run_suite(name: str, sizes: list[int], rounds: int, rng) -> list[dict]:
    rows = []
    total = len(SUITES[name]) * len(sizes)
    done = 0
    for routine, ((lo, hi), native, bridged) in SUITES[name].items():
        for size in sizes:
            x = rng.uniform(lo, hi, size)
            xt = torch.from_numpy(x.copy())
            timings = time_interleaved(
                {"native": lambda: native(x), "tb(numpy)": lambda: bridged(x), "tb(torch)": lambda: bridged(xt)},
                rounds,
            )
            want = native(x)
            errors = {"tb(numpy)": max_rel_error(bridged(x), want), "tb(torch)": max_rel_error(bridged(xt).numpy(), want)}
            rows.append({"suite": name, "routine": routine, "size": size, "timings": timings, "max_rel_error": errors})
            done += 1
            print(f"\r  [{'#' * (20 * done // total):<20}] {done}/{total} {routine} n={size:<10}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return rows


def overhead(rounds: int) -> dict:
    x = np.array([0.5])
    xt = torch.from_numpy(x.copy())
    return time_interleaved(
        {
            "scipy.special.erf": lambda: sc.erf(x),
            "torch.special.erf (torch tensor)": lambda: torch.special.erf(xt),
            "manual: np.from_dlpack(torch.special.erf(torch.from_dlpack(x)))": lambda: np.from_dlpack(
                torch.special.erf(torch.from_dlpack(x))
            ),
            "tb.special.erf": lambda: tb.special.erf(x),
        },
        rounds,
    )


def conversion(sizes: list[int], rounds: int) -> dict:
    out = {}
    for size in sizes:
        x = np.ones(size)
        out[str(size)] = time_interleaved({"apply(identity)": lambda: tb.apply(lambda t: t, x)}, rounds)[
            "apply(identity)"
        ]
    return out


def import_times() -> dict:
    def once(module: str) -> float:
        code = f"import time; s = time.perf_counter(); import {module}; print(time.perf_counter() - s)"
        runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(3)]
        return statistics.median(runs)

    return {"import torchbridge": once("torchbridge"), "import torch": once("torch")}


def environment() -> dict:
    cpu = "unknown"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "torchbridge": tb.info(),
    }


def markdown(rows: list[dict], over: dict, conv: dict, imports: dict, env: dict) -> str:
    lines = [
        f"# torchbridge benchmark, {env['date']}",
        "",
        f"{env['cpu']}, {env['cores']} cores; numpy {env['numpy']}, SciPy {env['scipy']}, torch {env['torch']} "
        f"({env['torch_threads']} threads). Median per call (min-max over interleaved rounds); speedup = native / path.",
        "",
        "| routine | n | native | tb(numpy) | speedup | tb(torch) | speedup | max rel err |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        t = r["timings"]
        nat = t["native"]["median"]

        def cell(path):
            s = t[path]
            return f"{fmt_time(s['median'])} ({fmt_time(s['min'])}-{fmt_time(s['max'])})"

        err = max(r["max_rel_error"].values())
        lines.append(
            f"| {r['routine']} | {r['size']:.0e} | {fmt_time(nat)} | {cell('tb(numpy)')} | "
            f"{nat / t['tb(numpy)']['median']:.2f} | {cell('tb(torch)')} | {nat / t['tb(torch)']['median']:.2f} | {err:.1e} |"
        )
    lines += ["", "Per-call overhead, 1-element float64:", "", "| path | median |", "|---|---:|"]
    lines += [f"| {k} | {fmt_time(v['median'])} |" for k, v in over.items()]
    manual = over["manual: np.from_dlpack(torch.special.erf(torch.from_dlpack(x)))"]["median"]
    lines += ["", f"torchbridge / manual path: {over['tb.special.erf']['median'] / manual:.2f}"]
    lines += ["", "Round trip `tb.apply(lambda t: t, x)` by size (O(1) expected):", "", "| n | median |", "|---:|---:|"]
    lines += [f"| {int(k):.0e} | {fmt_time(v['median'])} |" for k, v in conv.items()]
    lines += ["", "Import time (fresh process, median of 3):", ""]
    lines += [f"- `{k}`: {v:.3f} s" for k, v in imports.items()]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and few rounds (about a minute)")
    parser.add_argument("--suite", choices=sorted(SUITES), default="special")
    parser.add_argument("--sizes", help="comma-separated element counts (default 1e3,1e5,1e6)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per cell (default 7, quick 3)")
    parser.add_argument("--out", default="bench-results", help="folder for report.md and results.json")
    args = parser.parse_args(argv)
    sizes = [int(float(s)) for s in args.sizes.split(",")] if args.sizes else (
        [1_000, 100_000] if args.quick else [1_000, 100_000, 1_000_000])
    rounds = args.rounds or (3 if args.quick else 7)
    rng = np.random.default_rng(12345)

    env = environment()
    print(f"torchbridge benchmark: suite {args.suite}, sizes {sizes}, {rounds} rounds", file=sys.stderr)
    rows = run_suite(args.suite, sizes, rounds, rng)
    over = overhead(rounds)
    conv = conversion([10, 10_000_000 if args.quick else 100_000_000], rounds)
    imports = import_times()
    report = markdown(rows, over, conv, imports, env)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.md").write_text(report)
    (out / "results.json").write_text(json.dumps(
        {"environment": env, "rows": rows, "overhead": over, "conversion": conv, "imports": imports}, indent=2))
    print(report)
    print(f"written: {out / 'report.md'}, {out / 'results.json'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
