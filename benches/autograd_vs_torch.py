"""Forward + backward through torchbridge's routines against the same
computation written in plain torch, side by side in one run.

    python benches/autograd_vs_torch.py [--size N] [--out FILE]

Each case times ``f(x).sum().backward()`` on a float64 tensor that requires
grad (median of 7 batches, interleaved), for torchbridge's routine and for
torch's own function that computes the same values. The ratio is torch's time
over torchbridge's (above 1, torchbridge is faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import torch

import torchbridge as tb


def cases(n: int) -> dict:
    x = torch.linspace(0.1, 4.0, n, dtype=torch.float64)
    m = torch.rand(64, 64, dtype=torch.float64) + 64 * torch.eye(64, dtype=torch.float64)
    return {
        f"special.erf, {n}": (tb.special.erf, torch.special.erf, x),
        f"special.gammaln, {n}": (tb.special.gammaln, torch.special.gammaln, x),
        f"special.expit, {n}": (tb.special.expit, torch.special.expit, x),
        f"special.log_ndtr, {n}": (tb.special.log_ndtr, torch.special.log_ndtr, x),
        f"fft.rfft (abs), {n}": (lambda t: tb.fft.rfft(t).abs(), lambda t: torch.fft.rfft(t).abs(), x),
        "linalg.inv, 64x64": (tb.linalg.inv, torch.linalg.inv, m),
        "linalg.expm, 64x64": (lambda a: tb.linalg.expm(a / 64), lambda a: torch.linalg.matrix_exp(a / 64), m),
    }


def fwd_bwd(f, x0):
    x = x0.detach().requires_grad_()
    f(x).sum().backward()


def timed(f, x, reps):
    start = time.perf_counter()
    for _ in range(reps):
        fwd_bwd(f, x)
    return (time.perf_counter() - start) / reps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--out")
    args = parser.parse_args()
    rows = []
    for name, (ours, theirs, x) in cases(args.size).items():
        torch.testing.assert_close(ours(x), theirs(x), rtol=1e-12, atol=1e-300)
        reps = max(1, int(0.02 / max(timed(ours, x, 1), 1e-6)))
        a, b = [], []
        for _ in range(7):
            a.append(timed(ours, x, reps))
            b.append(timed(theirs, x, reps))
        ta, tt = statistics.median(a), statistics.median(b)
        rows.append(f"| {name} | {ta * 1e6:.1f} us | {tt * 1e6:.1f} us | {tt / ta:.2f} |")
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    text = "\n".join(
        [
            f"Forward + backward, median of 7 interleaved batches; torch threads {torch.get_num_threads()}; "
            f"load average {load} on {os.cpu_count()} cores. ratio = torch / torchbridge.",
            "",
            "| case | torchbridge | plain torch | ratio |",
            "|---|---:|---:|---:|",
            *rows,
        ]
    )
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
