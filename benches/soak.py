"""Soak: a million mixed torchbridge calls, RSS and live producers watched.

    python benches/soak.py [--calls 1000000] [--json PATH]

Each call takes a fresh NumPy input (or a shared one, a torch tensor, a JAX
array, a read-only or negative-stride view), every fresh input carries a
`weakref.finalize` that counts it as a live producer until NumPy frees it,
and the calls cover success and error paths alike:

  tb.special.{erf, erfc, expit, logit, gammaln}   small (GIL held) and large (GIL released)
  tb.apply: copies out, zero-copy views kept for a while, in-place writes,
            read-only and negative-stride inputs (copied), fn raising
  errors:   unsupported dtype, non-array input, mixed libraries, a producer
            whose __dlpack_device__ disagrees with its capsule (the capsule
            is consumed, then refused: its deleter must still run)

Every result is checked against a reference. It reports RSS (resident, from
/proc/self/statm) after a warm-up of 5% of the calls and every 10% after,
the growth from the warm-up to the end, and the number of producers still
alive at the end (0 expected). Exit status 1 if RSS grew by 20 MB or more, a
producer is still alive, or a result was wrong. The last result is recorded
in fuzz/RESULTS.md. tests/python/test_soak.py runs a shorter soak in the
default test run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import subprocess
import sys
import time
import weakref

RSS_LIMIT_MB = 20.0


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        resident_pages = int(f.read().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def soak(calls: int, seed: int = 20261201, progress=None, torch_threads: int = 1) -> dict:
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import numpy as np
    import torch

    import torchbridge as tb

    # One intra-op thread by default: the soak looks for leaks, and on a
    # machine with more runnable threads than cores libtorch's OpenMP team
    # makes a 10,000-element call take milliseconds instead of microseconds.
    tb.set_num_threads(torch_threads)
    rng = np.random.default_rng(seed)
    live: dict[int, int] = {}  # live fresh inputs, by the op that made them
    wrong: list[str] = []
    op = 0

    def fresh(values: np.ndarray) -> np.ndarray:
        array = values.copy()
        live[op] = live.get(op, 0) + 1
        weakref.finalize(array, _release, live, op)
        return array

    small = rng.uniform(-3, 3, 64)
    large = rng.uniform(-3, 3, 10_000)
    probabilities = rng.uniform(0.01, 0.99, 64)
    read_only = large.copy()
    read_only.flags.writeable = False
    torch_small = torch.from_numpy(small.copy())
    jax_small = jnp.asarray(small)
    ref = {
        "erf": tb.special.erf(small),
        "erfc": tb.special.erfc(small),
        "expit": tb.special.expit(small),
        "gammaln": tb.special.gammaln(small),
        "logit": tb.special.logit(probabilities),
        "erfc_large": tb.special.erfc(large),
        "erf_reversed": tb.special.erf(large[::-1]),
    }
    strings = np.array(["a", "b"])

    class DeviceLies:
        """Says CUDA host memory, hands a CPU capsule: the capsule is consumed, then
        refused for the mismatch; NumPy's deleter must run all the same."""

        def __init__(self, array):
            self.array = array

        def __dlpack__(self, **kwargs):
            return self.array.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return (3, 0)  # CUDA host memory: no stream, so the capsule is taken

    def check(label, got, want):
        if not np.array_equal(np.asarray(got), want, equal_nan=True):
            if len(wrong) < 10:
                wrong.append(label)

    def boom(t):
        raise ValueError("boom")

    held: list = []
    samples: list[tuple[int, float]] = []
    warmup = max(calls // 20, 1)
    tenth = max(calls // 10, 1)
    baseline = None
    start = time.perf_counter()
    for i in range(calls):
        op = i % 20
        if op == 0:
            check("erf", tb.special.erf(fresh(small)), ref["erf"])
        elif op == 1:
            check("erfc", tb.special.erfc(fresh(small)), ref["erfc"])
        elif op == 2:
            check("expit", tb.special.expit(fresh(small)), ref["expit"])
        elif op == 3:
            check("gammaln", tb.special.gammaln(small), ref["gammaln"])
        elif op == 4:
            check("logit", tb.special.logit(fresh(probabilities)), ref["logit"])
        elif op == 5:
            check("erfc(large)", tb.special.erfc(fresh(large)), ref["erfc_large"])  # GIL released
        elif op == 6:
            check("apply(t*2)", tb.apply(lambda t: t * 2, fresh(small)), small * 2)
        elif op == 7:
            held.append(tb.apply(lambda t: t[1:], fresh(small)))  # views keep their producer alive
            if len(held) > 50:
                check("held views", np.array(held), np.broadcast_to(small[1:], (len(held), 63)))
                held.clear()
        elif op == 8:
            x = fresh(small)
            tb.apply(lambda t: t.mul_(2), x)
            check("in-place", x, small * 2)
            del x
        elif op == 9:
            check("read-only", tb.apply(lambda t: t.add_(1), read_only), large + 1)
        elif op == 10:
            check("reversed", tb.special.erf(fresh(large)[::-1]), ref["erf_reversed"])
        elif op == 11:
            check("torch", tb.special.erf(torch_small).numpy(), ref["erf"])
        elif op == 12:
            check("jax" if i % 200 == 12 else "erf again",
                  tb.special.erf(jax_small if i % 200 == 12 else fresh(small)), ref["erf"])
        elif op == 13:
            try:
                tb.special.erf(strings)
                wrong.append("dtype error not raised")
            except tb.DtypeError:
                pass
        elif op == 14:
            try:
                tb.special.erf({"not": "an array"})
                wrong.append("input type error not raised")
            except tb.InputTypeError:
                pass
        elif op == 15:
            try:
                tb.apply(lambda a, b: a + b, fresh(small), torch_small)
                wrong.append("mixed containers not refused")
            except tb.MixedContainersError:
                pass
        elif op == 16:
            try:
                tb.special.erf(DeviceLies(fresh(small)))
                wrong.append("device lie not refused")
            except tb.DLPackError:
                pass
        elif op == 17:
            try:
                tb.apply(boom, fresh(small))
                wrong.append("fn error swallowed")
            except ValueError:
                pass
        elif op == 18:
            check("list", tb.special.erf(small.tolist()), ref["erf"])
        else:
            check("scalar", tb.special.erf(float(small[0])), ref["erf"][0])
        if i + 1 == warmup:
            gc.collect()
            baseline = rss_mb()
            samples.append((i + 1, round(baseline, 1)))
        elif (i + 1) % tenth == 0:
            samples.append((i + 1, round(rss_mb(), 1)))
            if progress:
                progress(i + 1, samples[-1][1])
    held.clear()
    gc.collect()
    end_rss = rss_mb()
    return {
        "calls": calls,
        "seconds": round(time.perf_counter() - start, 1),
        "rss_after_warmup_mb": round(baseline or end_rss, 1),
        "rss_end_mb": round(end_rss, 1),
        "rss_growth_mb": round(end_rss - (baseline or end_rss), 1),
        "rss_samples": samples,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "live_producers": sum(live.values()),
        "live_by_op": {k: v for k, v in live.items() if v},
        "torch_threads": torch_threads,
        "wrong": wrong,
    }


def _release(live: dict, op: int) -> None:
    live[op] -= 1


def passed(report: dict) -> bool:
    return report["rss_growth_mb"] < RSS_LIMIT_MB and report["live_producers"] == 0 and not report["wrong"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--torch-threads", type=int, default=1, help="libtorch intra-op threads (default 1)")
    parser.add_argument("--json", help="also write the report here")
    args = parser.parse_args()
    report = soak(args.calls, torch_threads=args.torch_threads,
                  progress=lambda n, mb: print(f"  {n:>9,} calls  RSS {mb:7.1f} MB", flush=True))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    report.update({"commit": commit, "python": platform.python_version(), "machine": platform.machine()})
    print(json.dumps(report, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    verdict = "PASS" if passed(report) else "FAIL"
    print(f"{verdict}: {report['calls']:,} calls in {report['seconds']} s, RSS growth "
          f"{report['rss_growth_mb']} MB (limit {RSS_LIMIT_MB}), live producers {report['live_producers']}, "
          f"wrong results {len(report['wrong'])}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
