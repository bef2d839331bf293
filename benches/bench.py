"""The main job: where delegating to libtorch pays, side by side with SciPy.

    python benches/bench.py [--quick] [--suite special|fft|linalg|all]
                            [--sizes N,N,...] [--rounds R] [--device cpu|cuda] [--out DIR]

For each routine of a suite, on the same inputs, at a small, a medium and a
large size, it times these paths:

  native        SciPy/NumPy on numpy arrays
  array-API     SciPy itself on torch tensors with SCIPY_ARRAY_API=1 (SciPy's
                own delegation; in a subprocess, since the variable must be set
                before SciPy is imported, so not interleaved with the others)
  tb(numpy)     torchbridge on the numpy arrays (conversion + libtorch)
  tb(torch)     torchbridge on torch tensors
  (--device cuda adds CuPy + cupyx.scipy and torchbridge on CuPy / CUDA tensors)

The in-process paths are interleaved round by round, so machine noise and
OpenBLAS's spinning worker threads (about 0.13 s of CPU after each call, see
shared/PERF_BASELINE.md) hit every path alike; linalg rounds also pause 0.15 s
after the native path to let those threads settle. Each cell: median time per
call with its spread (min-max over rounds), the speedup over native (above 1:
faster than SciPy) and the largest relative error against native.

Also measured: per-call overhead on a 1-element array, that conversion is O(1)
in the array size, two Python threads against one (GIL released, libtorch at
one intra-op thread), and import times. Writes report.md, results.json and
speedup.png to --out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

PATHS = ["native", "array-API", "tb(numpy)", "tb(torch)"]
CUDA_PATHS = ["cupy", "tb(cupy)", "tb(torch-cuda)"]


@dataclass
class Case:
    """One routine in a suite: how to make its input and call each side."""

    suite: str
    routine: str
    make: Callable[[int, np.random.Generator], tuple]
    native: Callable[..., Any]
    module: str  # "special", "fft", "linalg": SciPy's and torchbridge's submodule
    name: str  # the function's name in both
    kwargs: dict = field(default_factory=dict)
    pick: Callable[[Any], Any] = lambda out: out  # the part of the result to compare
    sizes: tuple = (1_000, 100_000, 1_000_000)
    quick_sizes: tuple = (1_000, 100_000)


def _uniform(lo, hi):
    return lambda n, rng: (rng.uniform(lo, hi, n),)


def _spd(n, rng):
    a = rng.standard_normal((n, n))
    return (a @ a.T + n * np.eye(n),)


def _system(n, rng):
    return (rng.standard_normal((n, n)) + n * np.eye(n), rng.standard_normal(n))


def cases() -> list[Case]:
    import scipy.fft
    import scipy.linalg
    import scipy.special as sc

    square = dict(sizes=(64, 256, 512), quick_sizes=(64, 256))
    return [
        Case("special", "erf", _uniform(-3, 3), sc.erf, "special", "erf"),
        Case("special", "erfc", _uniform(-3, 10), sc.erfc, "special", "erfc"),
        Case("special", "expit", _uniform(-20, 20), sc.expit, "special", "expit"),
        Case("special", "logit", _uniform(0.001, 0.999), sc.logit, "special", "logit"),
        Case("special", "gammaln", _uniform(0.1, 50), sc.gammaln, "special", "gammaln"),
        Case("special", "ndtr", _uniform(-10, 10), sc.ndtr, "special", "ndtr"),
        Case("fft", "rfft", lambda n, rng: (rng.standard_normal(n),), scipy.fft.rfft, "fft", "rfft"),
        Case("fft", "fft", lambda n, rng: (rng.standard_normal(n) + 1j * rng.standard_normal(n),),
             scipy.fft.fft, "fft", "fft"),
        Case("fft", "dct", lambda n, rng: (rng.standard_normal(n),), scipy.fft.dct, "fft", "dct"),
        Case("linalg", "solve", _system, scipy.linalg.solve, "linalg", "solve", **square),
        Case("linalg", "eigh", _spd, scipy.linalg.eigh, "linalg", "eigh", pick=lambda out: out[0], **square),
        Case("linalg", "svd", lambda n, rng: (rng.standard_normal((n, n)),), scipy.linalg.svd, "linalg", "svd",
             pick=lambda out: out[1], **square),
    ]


# ---------------------------------------------------------------- timing


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


def time_interleaved(paths: dict, rounds: int, settle: dict | None = None) -> dict:
    """Median, min and max seconds per call for each path, interleaved by round."""
    reps = {name: calibrate(fn) for name, fn in paths.items()}
    samples: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(rounds):
        for name, fn in paths.items():
            n = reps[name]
            start = time.perf_counter()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter() - start) / n)
            if settle and name in settle:
                time.sleep(settle[name])
    return {name: summary(s) for name, s in samples.items()}


def summary(samples: list[float]) -> dict:
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples), "rounds": len(samples)}


def max_rel_error(got, want) -> float:
    got = np.asarray(got).astype(np.complex128)
    want = np.asarray(want).astype(np.complex128)
    if got.shape != want.shape:
        return float("inf")
    scale = np.abs(want)
    ok = np.isfinite(scale) & (scale > 0)
    if not ok.any():
        return 0.0
    return float(np.max(np.abs(got[ok] - want[ok]) / scale[ok]))


def as_numpy(x):
    if type(x).__module__.startswith("torch"):
        return x.detach().cpu().numpy()
    if type(x).__module__.startswith("cupy"):
        return x.get()
    return np.asarray(x)


def resolve(module: str, name: str):
    """torchbridge's routine, or None where this build does not have it yet."""
    import torchbridge

    return getattr(getattr(torchbridge, module, None), name, None)


# ---------------------------------------------------------------- suites


def run_in_process(selected: list[Case], sizes_for, rounds: int, device: str, progress) -> list[dict]:
    import torch

    rows = []
    rng = np.random.default_rng(12345)
    for case in selected:
        for size in sizes_for(case):
            args = case.make(size, rng)
            targs = tuple(torch.from_numpy(np.array(a)) for a in args)
            bridged = resolve(case.module, case.name)
            paths: dict[str, Callable] = {"native": lambda: case.native(*args, **case.kwargs)}
            if bridged is not None:
                paths["tb(numpy)"] = lambda: bridged(*args, **case.kwargs)
                paths["tb(torch)"] = lambda: bridged(*targs, **case.kwargs)
            if device == "cuda":
                paths.update(cuda_paths(case, args, bridged))
            settle = {"native": 0.15} if case.suite == "linalg" else None
            timings = time_interleaved(paths, rounds, settle)
            want = case.pick(case.native(*args, **case.kwargs))
            errors = {}
            for name, fn in paths.items():
                if name != "native":
                    errors[name] = max_rel_error(as_numpy(case.pick(fn())), want)
            row = {"suite": case.suite, "routine": case.routine, "size": size, "timings": timings,
                   "max_rel_error": errors}
            if bridged is None:
                row["unsupported"] = {"tb(numpy)": "not in this build", "tb(torch)": "not in this build"}
            rows.append(row)
            progress()
    return rows


def cuda_paths(case: Case, args: tuple, bridged) -> dict:
    import cupy
    import torch

    out: dict[str, Callable] = {}
    cargs = tuple(cupy.asarray(a) for a in args)
    import cupyx.scipy.fft
    import cupyx.scipy.linalg
    import cupyx.scipy.special

    cupy_mod = {"special": cupyx.scipy.special, "fft": cupyx.scipy.fft, "linalg": cupyx.scipy.linalg}[case.module]
    cupy_fn = getattr(cupy_mod, case.name, None)

    def synced(fn):
        def run():
            r = fn()
            torch.cuda.synchronize()
            cupy.cuda.Device().synchronize()
            return r
        return run

    if cupy_fn is not None:
        out["cupy"] = synced(lambda: cupy_fn(*cargs, **case.kwargs))
    if bridged is not None:
        gargs = tuple(torch.from_numpy(np.array(a)).cuda() for a in args)
        out["tb(cupy)"] = synced(lambda: bridged(*cargs, **case.kwargs))
        out["tb(torch-cuda)"] = synced(lambda: bridged(*gargs, **case.kwargs))
    return out


def array_api_worker(selected_names: list[str], sizes: dict, rounds: int) -> None:
    """Runs in a subprocess with SCIPY_ARRAY_API=1: SciPy on torch tensors."""
    import torch

    rng = np.random.default_rng(12345)
    rows = []
    for case in cases():
        if f"{case.suite}.{case.routine}" not in selected_names:
            continue
        for size in sizes[f"{case.suite}.{case.routine}"]:
            args = case.make(size, rng)
            targs = tuple(torch.from_numpy(np.array(a)) for a in args)
            try:
                got = case.pick(case.native(*targs, **case.kwargs))
                if not isinstance(got, torch.Tensor):
                    raise TypeError(f"returned {type(got).__name__}, not a torch tensor")
                timing = time_interleaved({"array-API": lambda: case.native(*targs, **case.kwargs)}, rounds)
                err = max_rel_error(as_numpy(got), case.pick(case.native(*args, **case.kwargs)))
                rows.append({"key": f"{case.suite}.{case.routine}.{size}", "timing": timing["array-API"], "error": err})
            except Exception as exc:
                rows.append({"key": f"{case.suite}.{case.routine}.{size}",
                             "unsupported": f"{type(exc).__name__}: {str(exc)[:80]}"})
    json.dump(rows, sys.stdout)


def run_array_api(selected: list[Case], sizes_for, rounds: int) -> dict:
    names = [f"{c.suite}.{c.routine}" for c in selected]
    sizes = {f"{c.suite}.{c.routine}": list(sizes_for(c)) for c in selected}
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    done = subprocess.run(
        [
            sys.executable,
            __file__,
            "--worker-array-api",
            json.dumps({"names": names, "sizes": sizes, "rounds": rounds}),
        ],
        capture_output=True, text=True, env=env, timeout=3600,
    )
    if done.returncode != 0:
        return {"error": done.stderr[-500:]}
    return {row["key"]: row for row in json.loads(done.stdout)}


# ---------------------------------------------------------------- extras


def overhead(rounds: int) -> dict:
    import scipy.special as sc
    import torch

    import torchbridge as tb

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
    import torchbridge as tb

    out = {}
    for size in sizes:
        x = np.ones(size)
        timing = time_interleaved({"round trip": lambda x=x: tb.apply(lambda t: t, x)}, rounds)["round trip"]
        out[str(size)] = timing
        del x
    return out


def thread_scaling(size: int, calls: int) -> dict:
    """Two Python threads on separate arrays against one thread doing both."""
    import torch

    import torchbridge as tb

    rng = np.random.default_rng(5)
    arrays = [rng.uniform(-3, 3, size) for _ in range(2)]
    threads_before = torch.get_num_threads()
    tb.set_num_threads(1)
    try:
        def work(a):
            for _ in range(calls):
                tb.special.erfc(a)

        start = time.perf_counter()
        work(arrays[0])
        work(arrays[1])
        one = time.perf_counter() - start
        workers = [threading.Thread(target=work, args=(a,)) for a in arrays]
        start = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        two = time.perf_counter() - start
    finally:
        tb.set_num_threads(threads_before)
    return {"size": size, "calls_per_thread": calls, "one_thread_s": one, "two_threads_s": two, "speedup": one / two}


def import_times() -> dict:
    def once(module: str) -> float:
        code = f"import time; s = time.perf_counter(); import {module}; print(time.perf_counter() - s)"
        runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(3)]
        return statistics.median(runs)

    return {"import torchbridge": once("torchbridge"), "import torch": once("torch")}


def environment(device: str) -> dict:
    import scipy
    import torch

    import torchbridge as tb

    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    env = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "device": device,
        "torchbridge": tb.info(),
    }
    if device == "cuda":
        env["gpu"] = torch.cuda.get_device_name(0)
    return env


# ---------------------------------------------------------------- report


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def cell(row: dict, path: str) -> tuple[str, str, str]:
    """(time with spread, speedup, error) for one path of one row."""
    if path in row.get("unsupported", {}):
        return ("unsupported: " + row["unsupported"][path], "", "")
    t = row["timings"].get(path)
    if t is None:
        return ("-", "", "")
    native = row["timings"]["native"]["median"]
    err = row["max_rel_error"].get(path)
    spread = fmt_time(t["median"])
    if t["rounds"] > 1:
        spread += f" ({fmt_time(t['min'])}-{fmt_time(t['max'])})"
    return (spread, f"{native / t['median']:.2f}" if path != "native" else "1", "" if err is None else f"{err:.1e}")


def markdown(results: dict) -> str:
    env = results["environment"]
    def shown(path: str) -> bool:
        return any(path in r["timings"] or path in r.get("unsupported", {}) for r in results["rows"])

    paths = [p for p in PATHS + CUDA_PATHS if shown(p)]
    lines = [
        f"# torchbridge benchmark, {env['date']}",
        "",
        f"{env['cpu']}, {env['cores']} cores{', ' + env['gpu'] if 'gpu' in env else ''}; numpy {env['numpy']}, "
        f"SciPy {env['scipy']}, torch {env['torch']} ({env['torch_threads']} threads). Median per call "
        "(min-max over rounds); speedup = native time / path time (above 1: faster than SciPy); "
        "err = max relative error against native. array-API ran in its own process (SCIPY_ARRAY_API=1), "
        "not interleaved with the other paths.",
        "",
        "| suite | routine | n | " + " | ".join(f"{p} | x | err" if p != "native" else p for p in paths) + " |",
        "|---|---|---:|" + "|".join("---:|---:|---:" if p != "native" else "---:" for p in paths) + "|",
    ]
    for r in results["rows"]:
        cells = []
        for p in paths:
            t, x, e = cell(r, p)
            cells.append(t if p == "native" else f"{t} | {x} | {e}")
        lines.append(f"| {r['suite']} | {r['routine']} | {r['size']:g} | " + " | ".join(cells) + " |")
    over = results["overhead"]
    manual_key = "manual: np.from_dlpack(torch.special.erf(torch.from_dlpack(x)))"
    op = over["torch.special.erf (torch tensor)"]["median"]
    lines += ["", "## Per-call overhead, 1-element float64", "", "| path | median |", "|---|---:|"]
    lines += [f"| {k} | {fmt_time(v['median'])} |" for k, v in over.items()]
    tb_over = over["tb.special.erf"]["median"] - op
    manual_over = over[manual_key]["median"] - op
    lines += ["", f"Overhead beyond the libtorch op itself: torchbridge {fmt_time(tb_over)}, manual path "
              f"{fmt_time(manual_over)}; ratio {tb_over / manual_over:.2f}."]
    lines += ["", "## Conversion is O(1)", "", "| elements | `tb.apply(lambda t: t, x)` |", "|---:|---:|"]
    lines += [f"| {int(k):.0e} | {fmt_time(v['median'])} |" for k, v in results["conversion"].items()]
    ts = results["threads"]
    lines += ["", "## Threads", "",
              f"Two Python threads calling `tb.special.erfc` on separate {ts['size']:.0e}-element arrays, libtorch at "
              f"one intra-op thread: {ts['two_threads_s']:.3f} s against {ts['one_thread_s']:.3f} s for one thread "
              f"doing both (speedup {ts['speedup']:.2f}; 2 cores)."]
    lines += ["", "## Import time (fresh process, median of 3)", ""]
    lines += [f"- `{k}`: {v:.3f} s" for k, v in results["imports"].items()]
    return "\n".join(lines) + "\n"


def plot(results: dict, path: Path) -> bool:
    """Draws the speedup chart; False (no chart) where matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        return False

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = results["rows"]
    paths = [p for p in PATHS[1:] + CUDA_PATHS if any(p in r["timings"] for r in rows)]
    labels = [f"{r['suite']}.{r['routine']} n={r['size']:g}" for r in rows]
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(rows) * max(1, len(paths)) / 2 + 1.5))
    height = 0.8 / max(1, len(paths))
    for i, p in enumerate(paths):
        ys = [j + i * height for j in range(len(rows))]
        xs = [
            r["timings"]["native"]["median"] / r["timings"][p]["median"] if p in r["timings"] else np.nan
            for r in rows
        ]
        ax.barh(ys, xs, height=height, label=p)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yticks([j + 0.4 - height / 2 for j in range(len(rows))], labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("speedup over native SciPy/NumPy (log scale; right of the line: faster)")
    env = results["environment"]
    ax.set_title(f"torchbridge vs SciPy, {env['date']}, {env['cores']} cores, torch {env['torch']}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


class _PlainProgress:
    """What the run uses of rich's Progress, where rich is not installed
    (the GPU machine): a dot on stderr per finished cell."""

    def __init__(self, **_):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *_):
        print(file=sys.stderr)

    def add_task(self, *_args, **_kwargs):
        return 0

    def advance(self, _task):
        print(".", end="", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- main


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small and medium sizes, 3 rounds (about two minutes)")
    parser.add_argument("--suite", choices=["special", "fft", "linalg", "all"], default="all")
    parser.add_argument(
        "--sizes", help="comma-separated sizes for every routine: elements, or the matrix order for linalg"
    )
    parser.add_argument("--rounds", type=int, help="interleaved rounds per cell (default 7, quick 3)")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--out", default="bench-results", help="folder for report.md, results.json, speedup.png")
    parser.add_argument("--worker-array-api", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker_array_api:
        spec = json.loads(args.worker_array_api)
        array_api_worker(spec["names"], spec["sizes"], spec["rounds"])
        return 0

    try:
        from rich.console import Console
        from rich.markdown import Markdown
        from rich.progress import Progress
    except ImportError:  # plain output where rich is not installed
        Console, Markdown, Progress = None, None, _PlainProgress

    console = Console(stderr=True) if Console else None
    rounds = args.rounds or (3 if args.quick else 7)
    selected = [c for c in cases() if args.suite in ("all", c.suite)]
    explicit = [int(float(s)) for s in args.sizes.split(",")] if args.sizes else None

    def sizes_for(case: Case):
        return explicit or (case.quick_sizes if args.quick else case.sizes)

    total = sum(len(sizes_for(c)) for c in selected) + 5
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("benchmarking", total=total)
        step = lambda: progress.advance(task)  # noqa: E731
        environment_facts = environment(args.device)
        rows = run_in_process(selected, sizes_for, rounds, args.device, step)
        array_api = run_array_api(selected, sizes_for, rounds)
        step()
        for row in rows:
            found = array_api.get(f"{row['suite']}.{row['routine']}.{row['size']}")
            if found is None:
                row.setdefault("unsupported", {})["array-API"] = array_api.get("error", "no result")[:80]
            elif "unsupported" in found:
                row.setdefault("unsupported", {})["array-API"] = found["unsupported"]
            else:
                row["timings"]["array-API"] = found["timing"]
                row["max_rel_error"]["array-API"] = found["error"]
        over = overhead(rounds)
        step()
        conv = conversion([10, 10_000_000 if args.quick else 100_000_000], rounds)
        step()
        threads = thread_scaling(1_000_000, 3 if args.quick else 10)
        step()
        imports = import_times()
        step()
    results = {"environment": environment_facts, "rows": rows, "overhead": over, "conversion": conv,
               "threads": threads, "imports": imports}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = markdown(results)
    (out / "report.md").write_text(report)
    (out / "results.json").write_text(json.dumps(results, indent=2, default=str))
    written = [out / "report.md", out / "results.json"]
    if plot(results, out / "speedup.png"):
        written.append(out / "speedup.png")
    if Console:
        Console().print(Markdown(report))
    else:
        print(report)
    print("written: " + ", ".join(map(str, written)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
