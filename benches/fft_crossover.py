"""The crossover sizes of torchbridge.fft's SciPy backend: per transform kind,
the sizes (elements) at which ``scipy.fft`` with ``set_backend(torchbridge.fft)``
is faster than SciPy's own pocketfft.

    python benches/fft_crossover.py [--max-log2 22] [--rounds 5]

For each kind (c2c: fft, r2c: rfft, c2r: irfft, r2r: dct, fht: fht) and
each size 2**k (elements), on a 1-D array of that size and of a 2,3,5-smooth
size just above it (``next_fast_len``, what fftconvolve pads to) ("single":
both must be faster) and on rows of 64, 256 and 1024 ("rows"), it times the SciPy call
with the backend forced to serve (every CROSSOVER at 0, ``only=True``) and
without it, interleaved round by round, both at one thread (SciPy's default
of one worker, which the backend follows), and prints the ratio of the
medians (below 1: the backend is faster; for "rows", every row length must
be). The band of a regime is the longest run of consecutive sizes where the
backend is faster, ``(first, end)``: ``end`` the first slower size after it
(None where the run reaches the largest size measured); ``None`` where there
is none. It ends with the table for ``python/torchbridge/fft/_backend.py``'s
``CROSSOVER``.

The outputs behind that table are in benches/results/fft_crossover-run*.txt;
the comment above CROSSOVER in python/torchbridge/fft/_backend.py says how
the runs were combined.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import scipy.fft as sf

import torchbridge.fft as tf
from torchbridge.fft import _backend

KINDS = {
    "c2c": (sf.fft, True, ()),
    "r2c": (sf.rfft, False, ()),
    "c2r": (sf.irfft, True, ()),
    "r2r": (sf.dct, False, ()),
    "fht": (sf.fht, False, (0.05, 0.5)),
}


def per_call(fn, x, extra, budget=0.02) -> float:
    fn(x, *extra)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        fn(x, *extra)
        calls += 1
    return (time.perf_counter() - start) / calls


def ratio(fn, x, extra, rounds) -> float:
    saved = dict(_backend.CROSSOVER)
    ours, theirs = [], []
    try:
        for _ in range(rounds):
            theirs.append(per_call(fn, x, extra))
            _backend.CROSSOVER.update(dict.fromkeys(saved, {"single": (0, None), "rows": (0, None)}))
            with sf.set_backend(tf, only=True):
                ours.append(per_call(fn, x, extra))
            _backend.CROSSOVER.update(saved)
    finally:
        _backend.CROSSOVER.update(saved)
    return statistics.median(ours) / statistics.median(theirs)


def band(sizes: list[int], faster: list[bool]) -> tuple[int, int | None] | None:
    """The longest run of consecutive faster sizes (at least two) as
    ``(first, end)``: ``end`` the first slower size after it, None where the
    run reaches the largest size measured."""
    best = None
    i = 0
    while i < len(sizes):
        if not faster[i]:
            i += 1
            continue
        j = i
        while j < len(sizes) and faster[j]:
            j += 1
        if j - i >= 2 and (best is None or j - i > best[1] - best[0]):
            best = (i, j)
        i = j
    if best is None:
        return None
    return sizes[best[0]], (sizes[best[1]] if best[1] < len(sizes) else None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--min-log2", type=int, default=10)
    parser.add_argument("--max-log2", type=int, default=21)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    table = {}
    sizes = [1 << k for k in range(args.min_log2, args.max_log2 + 1)]
    for kind, (fn, complex_, extra) in KINDS.items():
        single, rows, cells = [], [], []
        for size in sizes:
            row = []
            smooth = sf.next_fast_len(size + size // 8, real=not complex_)  # 2,3,5-smooth, not a power of 2
            for shape in ((size,), (smooth,), (size // 64, 64), (size // 256, 256), (size // 1024, 1024)):
                x = rng.standard_normal(shape)
                if complex_:
                    x = x + 1j * rng.standard_normal(shape)
                row.append(ratio(fn, x, extra, args.rounds))
            single.append(max(row[:2]) < 1)
            rows.append(max(row[2:]) < 1)
            cells.append(f"2^{size.bit_length() - 1}: " + " ".join(f"{r:.2f}" for r in row))
        table[kind] = {"single": band(sizes, single), "rows": band(sizes, rows)}
        print(f"{kind} (1-D: 2^k, a 5-smooth size above it | rows of 64, 256, 1024): " + ", ".join(cells),
              flush=True)

    def fmt(found):
        if found is None:
            return "None"
        lo, hi = found
        return f"(1 << {lo.bit_length() - 1}, {'None' if hi is None else f'1 << {hi.bit_length() - 1}'})"

    print("CROSSOVER = {")
    for kind, found in table.items():
        print(f'    "{kind}": {{"single": {fmt(found["single"])}, "rows": {fmt(found["rows"])}}},')
    print("}")


if __name__ == "__main__":
    main()
