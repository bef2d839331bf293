"""The main job: where delegating to libtorch pays, side by side with SciPy.

    python benches/bench.py [--quick | --smoke] [--suite special|fft|linalg|signal|spatial|ndimage|stats|all|dask]
                            [--sizes N,N,...] [--rounds R] [--device cpu|cuda] [--out DIR]
                            [--plain] [--load-threshold F] [--load N[,N...]]
    python benches/bench.py --replot RESULTS_JSON [--out DIR]   (only the plot)

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

With the linalg suite: a small-matrix table (2x2, 8x8, 64x64, single and a
batch of 16; solve, det, inv, cholesky, eigh, svd, lu_factor, lu_solve,
cho_solve, lstsq), torchbridge's time over SciPy's (small_linalg()).

With the fft suite: SciPy's fftconvolve and welch with torchbridge.fft set
as scipy.fft's backend and unset, side by side (fft_backend()).

Also measured: per-call overhead on a 1-element array, the same call from each
container (numpy, torch, jax, array-api-strict, tb.apply, tb.torch) beside its
reference with issue 19's floors (container_overhead()), that conversion is O(1)
in the array size, two Python threads against one (GIL released, libtorch at
one intra-op thread), and import times. Writes report.md, results.json and
speedup.png to --out.

Output. Progress goes to stderr, one line per finished cell (routine and
size) with the time since the start and the cell's own time; the report goes
to stdout. Where a stream is not a terminal (piped, logged, CI) both are plain
text, flushed line by line, and the report is the Markdown of report.md at
full width; on a terminal (rich installed) progress is a bar with the same
lines above it and the report is rendered, its cells wrapped, never cut.
--plain forces the plain form. The report and results.json record the machine
(cores, CPU affinity, load average before, during and after the run, torch's
threads, the OMP/MKL/OpenBLAS thread variables, versions) and warn, also on
stderr, when the 1-minute load average during the run exceeded the usable core
count times --load-threshold (default 1.0: more runnable threads than cores,
so the timings are inflated).

--load N (or a list, --load 1,2) measures under load as well: N busy
processes (1 up to the core count; each a Python `while True: pass`) compete
for the cores while every cell is timed again, native and tb(numpy)
interleaved, right after its quiet timing; the report gains a "Quiet vs
loaded" section with each cell's speedup quiet and under each load, side by
side, against the floors (under load within 2x of the quiet speedup, and not
below 0.5x SciPy). The busy processes are started once and paused between the
loaded timings (SIGSTOP/SIGCONT), so the quiet timings run without them. The
load average then counts them too, so the warning is judged on the other
processes' CPU use instead (/proc/stat less this run's own): more than half a
core on average, times --load-threshold.

--smoke is the smallest configuration (size 16, 2 rounds, token extras), for
checking the output, not for numbers (tests/python/test_bench_output.py).

--suite dask (only when asked: `all` is special, fft and linalg) runs the dask
suite alone: tb.special.erf on a 1e8-element float64 dask array in 64 chunks
(--quick 1e7, --smoke 2**16) on LocalCluster(processes=True,
threads_per_worker=1) with one worker against two (configure(client)), the
scaling ratio, and the per-task overhead on a graph of tiny chunks; then
tb.ndimage.gaussian_filter (sigma 4) on an 8192x8192 float64 image in
1024x1024 chunks (--quick 4096, --smoke 256; --dask-stencil-side N) through
the stencil chunking class, 1 worker against 2, and its per-task overhead
(--dask-parts erf,stencil picks the parts); the report has the machine block,
a "dask" section (dask_suite()) and a "dask: stencil" one (dask_stencil()).

The plot, speedup.png: per routine and size a bar per path from 1 on a log
scale (the median native time over the median path time; right: faster), its
value written by it; whiskers from the fastest native round over the slowest
path round to the slowest native over the fastest path; hatched, the label
red, where the error is above TOLERANCE; a text instead of a bar for a path
that cannot run. plot_data() computes all of it without drawing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

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
    module: str  # "special", "fft", "signal", "spatial.distance", ...: SciPy's and torchbridge's submodule
    name: str  # the function's name in both
    kwargs: dict = field(default_factory=dict)
    pick: Callable[[Any], Any] = lambda out: out  # the part of the result to compare
    sizes: tuple = (1_000, 100_000, 1_000_000)
    quick_sizes: tuple = (1_000, 100_000)
    tol: float | None = None  # largest max relative error that counts as right; None: the suite's TOLERANCE
    # errors relative to the largest |native| value, not element by element: for outputs that cross
    # zero or fall by orders of magnitude (IIR filter outputs, a stopband), where a per-element
    # relative error measures the rounding of values near zero, not whether the answer is right
    peak_relative: bool = False

    def __post_init__(self):
        if self.tol is None:
            self.tol = TOLERANCE[self.suite]


#: The benchmark's accuracy flag, per suite: the largest max relative error
#: against native (per element, where native is nonzero and finite) that still
#: counts as the same answer. A check for wrong results (such as libtorch's
#: ndtr lower tail, error 1.0), not a precision test: tests/python holds the
#: per-routine tolerances. Transforms get more room because their outputs have
#: elements near zero, where a per-element relative error grows; the cases whose
#: outputs cross zero (IIR filters, resamplers, a stopband) are measured against
#: their peak instead (``Case.peak_relative``).
TOLERANCE = {
    "special": 1e-10, "fft": 1e-8, "linalg": 1e-10, "signal": 1e-8, "spatial": 1e-10, "ndimage": 1e-12, "stats": 1e-9,
}


def _uniform(lo, hi):
    return lambda n, rng: (rng.uniform(lo, hi, n),)


def _iir_ba(n, rng):
    import scipy.signal

    b, a = scipy.signal.butter(4, 0.1)
    return (b, a, rng.standard_normal(max(n, 64)))  # filtfilt's padding needs > 27


def _iir_ba_batch(n, rng):
    import scipy.signal

    b, a = scipy.signal.butter(4, 0.1)
    return (b, a, rng.standard_normal((64, max(n // 64, 64))))


def _iir_sos(n, rng):
    import scipy.signal

    return (scipy.signal.butter(8, 0.1, output="sos"), rng.standard_normal(max(n, 64)))


def _spd(n, rng):
    a = rng.standard_normal((n, n))
    return (a @ a.T + n * np.eye(n),)


def _system(n, rng):
    return (rng.standard_normal((n, n)) + n * np.eye(n), rng.standard_normal(n))


def _points(m, rng):
    """Two sets of ``m`` points in 64 dimensions (the issue's cdist floor is m = 2000)."""
    return (rng.standard_normal((m, 64)), rng.standard_normal((m, 64)))


def cases() -> list[Case]:
    import scipy.fft
    import scipy.linalg
    import scipy.ndimage
    import scipy.signal
    import scipy.spatial.distance
    import scipy.special as sc
    import scipy.stats

    square = dict(sizes=(64, 256, 512), quick_sizes=(64, 256))
    small_special = dict(sizes=(1_000, 100_000), quick_sizes=(1_000, 100_000))
    return [
        Case("special", "erf", _uniform(-3, 3), sc.erf, "special", "erf"),
        Case("special", "erfc", _uniform(-3, 10), sc.erfc, "special", "erfc"),
        Case("special", "expit", _uniform(-20, 20), sc.expit, "special", "expit"),
        Case("special", "logit", _uniform(0.001, 0.999), sc.logit, "special", "logit"),
        Case("special", "gammaln", _uniform(0.1, 50), sc.gammaln, "special", "gammaln"),
        Case("special", "ndtr", _uniform(-10, 10), sc.ndtr, "special", "ndtr"),
        # the incomplete beta floor (betainc 1e6 >= 1x): a, b in [0.5, 20], x in [0, 1]
        Case("special", "betainc", lambda n, rng: (rng.uniform(0.5, 20, n), rng.uniform(0.5, 20, n),
                                                   rng.uniform(0, 1, n)), sc.betainc, "special", "betainc"),
        Case("special", "stdtr", lambda n, rng: (rng.uniform(1, 30, n), rng.uniform(-5, 5, n)),
             sc.stdtr, "special", "stdtr"),
        # issue 15's new routines at 1e3 and 1e5: the C++ kernels (Bessel of real order, Faddeeva, E1)
        Case("special", "jv", lambda n, rng: (rng.uniform(0, 20, n), rng.uniform(0, 50, n)), sc.jv, "special", "jv",
             **small_special),
        Case("special", "kv", lambda n, rng: (rng.uniform(0, 20, n), rng.uniform(0.01, 50, n)), sc.kv, "special",
             "kv", **small_special),
        Case("special", "wofz", lambda n, rng: (rng.uniform(-10, 10, n) + 1j * rng.uniform(-10, 10, n),), sc.wofz,
             "special", "wofz", **small_special),
        Case("special", "exp1", _uniform(0.01, 50), sc.exp1, "special", "exp1", **small_special),
        Case("special", "hyp2f1", lambda n, rng: (rng.uniform(-5, 5, n), rng.uniform(-5, 5, n), rng.uniform(0.5, 10, n),
                                                  rng.uniform(-1, 0.95, n)), sc.hyp2f1, "special", "hyp2f1",
             **small_special),
        Case("special", "lambertw", lambda n, rng: (rng.uniform(-0.3, 50, n) + 1j * rng.uniform(-5, 5, n),),
             sc.lambertw, "special", "lambertw", **small_special),
        Case("fft", "rfft", lambda n, rng: (rng.standard_normal(n),), scipy.fft.rfft, "fft", "rfft"),
        Case("fft", "fft", lambda n, rng: (rng.standard_normal(n) + 1j * rng.standard_normal(n),),
             scipy.fft.fft, "fft", "fft"),
        Case("fft", "dct", lambda n, rng: (rng.standard_normal(n),), scipy.fft.dct, "fft", "dct"),
        Case("linalg", "solve", _system, scipy.linalg.solve, "linalg", "solve", **square),
        Case("linalg", "eigh", _spd, scipy.linalg.eigh, "linalg", "eigh", pick=lambda out: out[0], **square),
        Case("linalg", "svd", lambda n, rng: (rng.standard_normal((n, n)),), scipy.linalg.svd, "linalg", "svd",
             pick=lambda out: out[1], **square),
        # the issue's floors: fftconvolve (1e6, 1e4); convolve2d 512x512 with 5x5 (direct, float64)
        Case("signal", "fftconvolve", lambda n, rng: (rng.standard_normal(n), rng.standard_normal(10_000)),
             scipy.signal.fftconvolve, "signal", "fftconvolve", sizes=(100_000, 1_000_000), quick_sizes=(100_000,)),
        Case("signal", "convolve2d", lambda n, rng: (rng.standard_normal((n, n)), rng.standard_normal((5, 5))),
             scipy.signal.convolve2d, "signal", "convolve2d", sizes=(128, 512), quick_sizes=(128, 512)),
        # The IIR filters: order 4 (b, a) and order 8 sos Butterworth, on n samples
        # and on a (64, n // 64) batch along the last axis; the floors: lfilter 1e6 >= 1x,
        # (64, 1e5) >= 2x, sosfilt 1e6 >= 1x, filtfilt >= 1x.
        Case("signal", "lfilter", _iir_ba, scipy.signal.lfilter, "signal", "lfilter",
             sizes=(100, 10_000, 1_000_000), quick_sizes=(10_000,), peak_relative=True),
        Case("signal", "lfilter_batch64", _iir_ba_batch, scipy.signal.lfilter, "signal", "lfilter",
             sizes=(6_400_000,), quick_sizes=(64_000,), peak_relative=True),
        Case("signal", "sosfilt", _iir_sos, scipy.signal.sosfilt, "signal", "sosfilt",
             sizes=(100, 10_000, 1_000_000), quick_sizes=(10_000,), peak_relative=True),
        Case("signal", "filtfilt", _iir_ba, scipy.signal.filtfilt, "signal", "filtfilt",
             sizes=(10_000, 1_000_000), quick_sizes=(10_000,), peak_relative=True),
        Case("signal", "sosfiltfilt", _iir_sos, scipy.signal.sosfiltfilt, "signal", "sosfiltfilt",
             sizes=(10_000, 1_000_000), quick_sizes=(10_000,), peak_relative=True),
        # the order filters and Savitzky-Golay; the floors: medfilt 1e6 kernel 5 >= 1x, savgol_filter
        # 1e6 window 31 (polyorder 3, mode "interp")
        Case("signal", "medfilt", lambda n, rng: (rng.standard_normal(n), 5), scipy.signal.medfilt,
             "signal", "medfilt", sizes=(10_000, 1_000_000), quick_sizes=(10_000,)),
        Case("signal", "medfilt2d", lambda n, rng: (rng.standard_normal((n, n)), 3), scipy.signal.medfilt2d,
             "signal", "medfilt2d", sizes=(128, 1000), quick_sizes=(128,)),
        Case("signal", "savgol_filter", lambda n, rng: (rng.standard_normal(max(n, 64)), 31, 3),
             scipy.signal.savgol_filter, "signal", "savgol_filter", sizes=(10_000, 1_000_000), quick_sizes=(10_000,)),
        # IIR frequency response: an order-8 Butterworth (b, a) at worN frequencies (Horner's rule)
        Case("signal", "freqz", lambda n, rng: (*scipy.signal.butter(8, 0.2), n), scipy.signal.freqz,
             "signal", "freqz", pick=lambda out: out[1], sizes=(8192,), quick_sizes=(8192,), peak_relative=True),
        # waveforms (scipy.signal._waveforms): elementwise, t in seconds
        Case("signal", "chirp", lambda n, rng: (np.sort(rng.uniform(0, 10, n)), 1.0, 10.0, 100.0),
             scipy.signal.chirp, "signal", "chirp", sizes=(1_000, 100_000, 1_000_000)),
        # spectral analysis: the floor is welch on 1e7 float64 samples (nperseg 4096) >= 1.2x SciPy
        Case("signal", "welch", lambda n, rng: (rng.standard_normal(n),), scipy.signal.welch, "signal", "welch",
             kwargs={"nperseg": 4096}, pick=lambda out: out[1], sizes=(100_000, 10_000_000), quick_sizes=(100_000,)),
        Case("signal", "stft", lambda n, rng: (rng.standard_normal(n),), scipy.signal.stft, "signal", "stft",
             kwargs={"nperseg": 256}, pick=lambda out: out[2], sizes=(100_000, 1_000_000), quick_sizes=(100_000,),
             tol=1e-6),
        # lombscargle: n uneven samples x n angular frequencies (chunked phase matrices; SciPy's loop
        # takes 32 s at 1e4 x 1e4 here, too long for the suite: 3e3 x 3e3 shows the same ratio)
        Case("signal", "lombscargle",
             lambda n, rng: (np.sort(rng.uniform(0, 100, n)), rng.standard_normal(n), np.linspace(0.01, 10, n)),
             scipy.signal.lombscargle, "signal", "lombscargle", kwargs={"floating_mean": True},
             sizes=(1_000, 3_000), quick_sizes=(1_000,)),
        # multirate (scipy.signal._upfirdn, resample, resample_poly, decimate): 1e6 samples, rates 3/2 (decimate: q 4)
        Case("signal", "upfirdn", lambda n, rng: (rng.standard_normal(64), rng.standard_normal(n), 3, 2),
             scipy.signal.upfirdn, "signal", "upfirdn", sizes=(100_000, 1_000_000), quick_sizes=(100_000,)),
        Case("signal", "resample_poly", lambda n, rng: (rng.standard_normal(n), 3, 2), scipy.signal.resample_poly,
             "signal", "resample_poly", sizes=(100_000, 1_000_000), quick_sizes=(100_000,)),
        Case("signal", "decimate", lambda n, rng: (rng.standard_normal(max(n, 64)), 4), scipy.signal.decimate,
             "signal", "decimate", sizes=(100_000, 1_000_000), quick_sizes=(100_000,), peak_relative=True),
        Case("signal", "resample", lambda n, rng: (rng.standard_normal(n), n * 3 // 2), scipy.signal.resample,
             "signal", "resample", sizes=(100_000, 1_000_000), quick_sizes=(100_000,), peak_relative=True),
        # scipy.ndimage filters, the issue's floors: gaussian_filter 2048x2048 sigma 3 (float32, float64),
        # uniform_filter (size 5), median_filter 1024x1024 size 5
        Case("ndimage", "gaussian_filter", lambda n, rng: (rng.standard_normal((n, n)), 3.0),
             scipy.ndimage.gaussian_filter, "ndimage", "gaussian_filter", sizes=(2048,), quick_sizes=(512,)),
        Case("ndimage", "gaussian_filter_f32", lambda n, rng: (rng.standard_normal((n, n)).astype(np.float32), 3.0),
             scipy.ndimage.gaussian_filter, "ndimage", "gaussian_filter", sizes=(2048,), quick_sizes=(512,), tol=1e-6),
        Case("ndimage", "uniform_filter", lambda n, rng: (rng.standard_normal((n, n)), 5),
             scipy.ndimage.uniform_filter, "ndimage", "uniform_filter", sizes=(2048,), quick_sizes=(512,)),
        Case("ndimage", "median_filter", lambda n, rng: (rng.standard_normal((n, n)), 5),
             scipy.ndimage.median_filter, "ndimage", "median_filter", sizes=(1024,), quick_sizes=(256,)),
        # scipy.ndimage morphology: binary_erosion and grey_erosion 1024x1024, distance_transform_edt 512x512
        Case("ndimage", "binary_erosion", lambda n, rng: (rng.random((n, n)) > 0.3,),
             scipy.ndimage.binary_erosion, "ndimage", "binary_erosion", sizes=(1024,), quick_sizes=(256,)),
        Case("ndimage", "grey_erosion", lambda n, rng: (rng.standard_normal((n, n)),),
             scipy.ndimage.grey_erosion, "ndimage", "grey_erosion", kwargs={"size": 3}, sizes=(1024,),
             quick_sizes=(256,)),
        Case("ndimage", "distance_transform_edt", lambda n, rng: (rng.random((n, n)) > 0.01,),
             scipy.ndimage.distance_transform_edt, "ndimage", "distance_transform_edt", sizes=(512,),
             quick_sizes=(128,)),
        # scipy.ndimage interpolation, the issue's floors: map_coordinates order 1 and 3 at 1e6 random
        # points of a 1000x1000 image (order 3 includes SciPy's cubic prefilter)
        Case("ndimage", "map_coordinates_o1",
             lambda n, rng: (rng.standard_normal((1000, 1000)), rng.uniform(0, 999, (2, n))),
             scipy.ndimage.map_coordinates, "ndimage", "map_coordinates", kwargs={"order": 1},
             sizes=(1_000_000,), quick_sizes=(100_000,)),
        Case("ndimage", "map_coordinates_o3",
             lambda n, rng: (rng.standard_normal((1000, 1000)), rng.uniform(0, 999, (2, n))),
             scipy.ndimage.map_coordinates, "ndimage", "map_coordinates", kwargs={"order": 3},
             sizes=(1_000_000,), quick_sizes=(100_000,), peak_relative=True),
        Case("spatial", "cdist", _points, scipy.spatial.distance.cdist, "spatial.distance", "cdist",
             sizes=(200, 2000), quick_sizes=(200,)),
        Case("spatial", "pdist", lambda m, rng: _points(m, rng)[:1], scipy.spatial.distance.pdist,
             "spatial.distance", "pdist", sizes=(200, 2000), quick_sizes=(200,)),
        # stats (scipy.stats._stats_py): rankdata of 1e6 values (the issue's floor; ties from a coarse grid),
        # the moments of a (1000, 1000) matrix along axis 0
        Case("stats", "rankdata", lambda n, rng: (np.round(rng.standard_normal(n), 3),), scipy.stats.rankdata,
             "stats", "rankdata", sizes=(100_000, 1_000_000), quick_sizes=(100_000,)),
        Case("stats", "zscore", lambda n, rng: (rng.standard_normal((n, n)),), scipy.stats.zscore, "stats", "zscore",
             sizes=(300, 1000), quick_sizes=(300,), peak_relative=True),
        Case("stats", "skew", lambda n, rng: (rng.standard_normal((n, n)),), scipy.stats.skew, "stats", "skew",
             sizes=(300, 1000), quick_sizes=(300,), peak_relative=True),
        Case("stats", "kurtosis", lambda n, rng: (rng.standard_normal((n, n)),), scipy.stats.kurtosis, "stats",
             "kurtosis", sizes=(300, 1000), quick_sizes=(300,), peak_relative=True),
        Case("stats", "describe", lambda n, rng: (rng.standard_normal((n, n)),), scipy.stats.describe, "stats",
             "describe", pick=lambda out: out[3], sizes=(300, 1000), quick_sizes=(300,)),
        Case("stats", "iqr", lambda n, rng: (rng.standard_normal((n, n)),), scipy.stats.iqr, "stats", "iqr",
             kwargs={"axis": 0}, sizes=(300, 1000), quick_sizes=(300,)),
        # the distributions' cdfs and the incomplete beta function under them, the issue's floors at 1e6
        Case("stats", "norm.cdf", lambda n, rng: (rng.standard_normal(n),), scipy.stats.norm.cdf, "stats", "norm.cdf",
             sizes=(100_000, 1_000_000), quick_sizes=(100_000,)),
        Case("stats", "t.cdf", lambda n, rng: (rng.standard_normal(n) * 3, 4.5), scipy.stats.t.cdf, "stats", "t.cdf",
             sizes=(100_000, 1_000_000), quick_sizes=(100_000,)),
        Case("stats", "betainc",
             lambda n, rng: (rng.uniform(0.5, 20, n), rng.uniform(0.5, 20, n), rng.uniform(0, 1, n)),
             scipy.special.betainc, "special", "betainc", sizes=(100_000, 1_000_000), quick_sizes=(100_000,)),
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
    for fn in paths.values():  # first calls (lazy imports, FFT plans, LAPACK's first touch) stay out
        fn()
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
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples), "rounds": len(samples),
            "samples": samples}


def case_error(case, got, want) -> float:
    """The error the report shows for `case`: per element, or against the peak (``peak_relative``)."""
    return max_peak_error(got, want) if case.peak_relative else max_rel_error(got, want)


def max_peak_error(got, want) -> float:
    got = np.asarray(got).astype(np.complex128)
    want = np.asarray(want).astype(np.complex128)
    if got.shape != want.shape:
        return float("inf")
    ok = np.isfinite(want)
    scale = np.abs(want[ok]).max(initial=0.0)
    if scale == 0:
        return 0.0
    return float(np.max(np.abs(got[ok] - want[ok])) / scale)


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
    import importlib

    try:
        found = importlib.import_module(f"torchbridge.{module}")
    except ImportError:
        return None
    for part in name.split("."):  # "norm.cdf": a distribution's method
        found = getattr(found, part, None)
    return found


# ---------------------------------------------------------------- load


class BusyLoad:
    """`--load`: up to `most` busy processes competing for the cores, started
    once and paused (SIGSTOP) except while a loaded timing runs (`use(k)`)."""

    #: seconds to wait after changing the load, so that the scheduler (and
    #: torchbridge's reading of the machine's load, refreshed every 50 ms) sees it
    SETTLE_S = 0.12

    def __init__(self, most: int):
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL)
                      for _ in range(most)]
        self.running = len(self.procs)
        self.use(0)

    def use(self, k: int) -> None:
        """Exactly `k` of the busy processes running, the others paused."""
        for i, proc in enumerate(self.procs):
            os.kill(proc.pid, signal.SIGCONT if i < k else signal.SIGSTOP)
        if k != self.running:
            time.sleep(self.SETTLE_S)
        self.running = k

    def close(self) -> None:
        for proc in self.procs:
            proc.kill()  # SIGKILL ends a stopped process too
            proc.wait()
        self.procs = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ---------------------------------------------------------------- suites


def run_in_process(selected: list[Case], sizes_for, rounds: int, device: str, progress: Reporter,
                   busy: BusyLoad | None = None, loads: tuple[int, ...] = ()) -> list[dict]:
    """Every cell quiet; with `loads`, each cell again under each number of `busy` processes
    (native and tb(numpy) interleaved), recorded in the row's ``loaded``."""
    import torch

    rows = []
    rng = np.random.default_rng(12345)
    for case in selected:
        for size in sizes_for(case):
            progress.begin(f"{case.suite}.{case.routine} n={size:g}")
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
            loaded = {}
            if busy is not None and "tb(numpy)" in paths:
                pair = {"native": paths["native"], "tb(numpy)": paths["tb(numpy)"]}
                for k in loads:
                    busy.use(k)
                    loaded[str(k)] = time_interleaved(pair, rounds, settle)
                busy.use(0)
            want = case.pick(case.native(*args, **case.kwargs))
            errors = {}
            for name, fn in paths.items():
                if name != "native":
                    errors[name] = case_error(case, as_numpy(case.pick(fn())), want)
            row = {"suite": case.suite, "routine": case.routine, "size": size, "tol": case.tol, "timings": timings,
                   "max_rel_error": errors}
            if loaded:
                row["loaded"] = loaded
            if bridged is None:
                row["unsupported"] = {"tb(numpy)": "not in this build", "tb(torch)": "not in this build"}
            rows.append(row)
            progress.end(progress_detail(row))
    return rows


def progress_detail(row: dict) -> str:
    """One cell's result in a few words: each path's median, its speedup, a flag when inaccurate."""
    native = row["timings"]["native"]["median"]
    parts = []
    for path, t in row["timings"].items():
        text = f"{path} {fmt_time(t['median'])}"
        if path != "native":
            text += f" {native / t['median']:.2f}x"
            err = row["max_rel_error"].get(path)
            if err is not None and err > row.get("tol", float("inf")):
                text += f" (err {err:.1e} > tol {row['tol']:.0e})"
        parts.append(text)
    parts += [f"{path} unsupported" for path in row.get("unsupported", {})]
    parts += [f"tb(numpy) under load {k}: {x:.2f}x" for k, x in loaded_speedups(row).items()]
    return ", ".join(parts)


def loaded_speedups(row: dict) -> dict[str, float]:
    """tb(numpy)'s speedup over native under each load of the row (`--load`), by load."""
    return {k: t["native"]["median"] / t["tb(numpy)"]["median"] for k, t in row.get("loaded", {}).items()}


def load_floor_holds(quiet: float, loaded: float) -> bool:
    """The issue's floors under load: within 2x of the quiet speedup, and not below 0.5x SciPy."""
    return loaded >= quiet / 2 and loaded >= 0.5


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


def array_api_worker(selected_names: list[str], sizes: dict, rounds: int, out: str) -> None:
    """Runs in a subprocess with SCIPY_ARRAY_API=1: SciPy on torch tensors.

    Writes its rows as JSON to `out`; one line per finished cell on stderr,
    `PROGRESS <json>`, which the parent turns into its own progress lines."""
    import torch

    rng = np.random.default_rng(12345)
    rows = []
    for case in cases():
        if f"{case.suite}.{case.routine}" not in selected_names:
            continue
        for size in sizes[f"{case.suite}.{case.routine}"]:
            start = time.perf_counter()
            args = case.make(size, rng)
            targs = tuple(torch.from_numpy(np.array(a)) for a in args)
            key = f"{case.suite}.{case.routine}.{size}"
            try:
                got = case.pick(case.native(*targs, **case.kwargs))
                if not isinstance(got, torch.Tensor):
                    raise TypeError(f"returned {type(got).__name__}, not a torch tensor")
                timing = time_interleaved({"array-API": lambda: case.native(*targs, **case.kwargs)}, rounds)
                err = case_error(case, as_numpy(got), case.pick(case.native(*args, **case.kwargs)))
                rows.append({"key": key, "timing": timing["array-API"], "error": err})
                detail = f"array-API {fmt_time(timing['array-API']['median'])}"
                if err > case.tol:
                    detail += f" (err {err:.1e} > tol {case.tol:.0e})"
            except Exception as exc:
                rows.append({"key": key, "unsupported": f"{type(exc).__name__}: {str(exc)[:80]}"})
                detail = f"array-API unsupported ({rows[-1]['unsupported']})"
            what = f"{case.suite}.{case.routine} n={size:g}"
            note = {"what": what, "detail": detail, "seconds": time.perf_counter() - start}
            print("PROGRESS " + json.dumps(note), file=sys.stderr, flush=True)
    with open(out, "w") as f:
        json.dump(rows, f)


def run_array_api(selected: list[Case], sizes_for, rounds: int, progress: Reporter) -> dict:
    """SciPy's array-API path in a subprocess, its progress lines passed on as they come."""
    names = [f"{c.suite}.{c.routine}" for c in selected]
    sizes = {f"{c.suite}.{c.routine}": list(sizes_for(c)) for c in selected}
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        spec = json.dumps({"names": names, "sizes": sizes, "rounds": rounds, "out": out})
        progress.say(f"starting the SCIPY_ARRAY_API=1 subprocess for {len(names)} routines (it imports SciPy and "
                     "torch afresh)")
        proc = subprocess.Popen([sys.executable, __file__, "--worker-array-api", spec], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, env=env)
        watchdog = threading.Timer(3600, proc.kill)
        watchdog.start()
        other: list[str] = []
        try:
            assert proc.stderr is not None
            for line in proc.stderr:
                if line.startswith("PROGRESS "):
                    note = json.loads(line[len("PROGRESS "):])
                    progress.note(f"{note['what']} (SCIPY_ARRAY_API=1 subprocess)", note["detail"], note["seconds"])
                else:
                    other.append(line)
            proc.wait()
        finally:
            watchdog.cancel()
        if proc.returncode != 0 or not os.path.exists(out):
            return {"error": "".join(other)[-500:] or f"exit status {proc.returncode}"}
        with open(out) as f:
            return {row["key"]: row for row in json.load(f)}


# ---------------------------------------------------------------- dask


#: The dask suite's sizes: (elements of the scaling array, its chunks, tiny tasks for the overhead, rounds).
DASK_SIZES = {"smoke": (2**16, 64, 64, 2), "quick": (10**7, 64, 256, 3), "full": (10**8, 64, 1024, 5)}
#: The stencil part's sizes: (side of the square float64 image, side of its chunks, tiny chunks, rounds);
#: --dask-stencil-side overrides the side (8192**2 float64 is 512 MiB, on each cluster, input and result).
DASK_STENCIL_SIZES = {"smoke": (256, 64, 64, 2), "quick": (4096, 1024, 256, 3), "full": (8192, 1024, 1024, 5)}
#: The stencil part's filter: gaussian_filter(x, sigma) in its default mode (reflect); radius 4 sigma.
DASK_STENCIL_SIGMA = 4.0
#: The parts of the dask suite and their progress cells (and one cell for starting the clusters).
DASK_PARTS = {"erf": 4, "stencil": 3}


def _dask_wait(client, collection) -> None:
    """Blocks until every chunk of a persisted collection is in worker memory (nothing comes back)."""
    from distributed import futures_of, wait

    with client.as_current():
        wait(futures_of(collection))


_DASK_ROUND = itertools.count()


def _dask_time(client, build, data) -> float:
    """Seconds to build ``build()``'s graph, persist it and have every chunk computed; then released.
    The graph is cloned with fresh keys (``data``, the persisted input, kept): dask tokenizes
    deterministically, so a round repeating the last would otherwise meet its half-cancelled keys."""
    from dask.graph_manipulation import clone

    start = time.perf_counter()
    result = client.persist(clone(build(), omit=data, seed=next(_DASK_ROUND)))
    _dask_wait(client, result)
    seconds = time.perf_counter() - start
    client.cancel(result)
    return seconds


def dask_suite(mode: str, progress: Reporter, parts: tuple[str, ...] = ("erf", "stencil"),
               stencil_side: int | None = None) -> dict:
    """torchbridge on a dask array on LocalCluster(processes=True) workers: one worker against two.

    Two parts (``parts``): ``erf``, below, and ``stencil`` (:func:`dask_stencil`: gaussian_filter on a
    square image through the stencil chunking class, ``stencil_side`` its side, default by mode).

    A float64 array of `n` elements in `chunks` chunks is made and persisted on each cluster first (its
    making is not timed); each round then times `tb.special.erf` on it, persisted and waited for (no chunk
    comes back to this process), on: one worker with one thread at one libtorch thread (the baseline), two
    such workers (configure(client): 2 cores / 2 worker threads = 1 libtorch thread each), and the one
    worker again with configure(client)'s share (2 libtorch threads: libtorch's own intra-op parallelism
    instead of dask's). Rounds are interleaved across the three. Then the per-task overhead on the two
    workers: `tiny` chunks of 16 elements through tb.special.erf (torchbridge's dask path), through
    map_blocks(tb.special.erf) and through map_blocks(np.negative): wall time per chunk.

    The clusters start under ``torchbridge.dask.WORKER_CONFIG`` (libtorch's huge-page allocation in the
    workers), as the README says to; for erf, the one and two workers again without it ("plain"), with the
    page faults a worker takes to write one chunk's result in each.

    distributed's nannies set OMP_NUM_THREADS=1 (and MKL/OpenBLAS, and WORKER_CONFIG's variable) in this
    process's environment before they spawn their workers; the suite puts the variables back afterwards, so
    the machine block reports this process's own."""
    import dask
    from dask.array.core import PerformanceWarning
    from distributed import Client, LocalCluster

    import torchbridge.dask as tbd

    n, chunks, tiny, rounds = DASK_SIZES[mode]
    environ = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    out: dict[str, Any] = {"mode": mode, "loadavg_before": loadavg()}
    if "erf" in parts:
        out |= {"elements": n, "chunks": chunks, "chunk_elements": n // chunks, "rounds": rounds,
                "routine": "special.erf"}
    progress.begin("dask: start LocalCluster(processes=True) with 1 and with 2 workers")
    spec = dict(processes=True, threads_per_worker=1, dashboard_address=":0")
    clusters = {}
    if "erf" in parts:  # the same clusters without WORKER_CONFIG, started first: nannies leave it in os.environ
        for key in tbd.WORKER_CONFIG:
            os.environ.pop(key.rsplit(".", 1)[-1], None)
        clusters |= {"one, plain": LocalCluster(n_workers=1, **spec), "two, plain": LocalCluster(n_workers=2, **spec)}
    with dask.config.set(tbd.WORKER_CONFIG):
        clusters |= {"one": LocalCluster(n_workers=1, **spec), "two": LocalCluster(n_workers=2, **spec)}
    clients = {name: Client(cluster, set_as_default=False) for name, cluster in clusters.items()}
    try:
        out["memory_limit_per_worker"] = {
            name: sorted({w["memory_limit"] for w in c.scheduler_info(n_workers=-1)["workers"].values()})
            for name, c in clients.items()}
        with warnings.catch_warnings():  # configure's advice to start the plain ones under WORKER_CONFIG
            warnings.simplefilter("ignore", PerformanceWarning)
            out["configure"] = {name: tbd.configure(c, threads=1 if name.startswith("one") else None)
                                for name, c in clients.items()}
        progress.end(f"threads per worker set by configure: 2 workers {sorted(out['configure']['two'].values())}, "
                     "1 worker [1] (explicit)")
        if "erf" in parts:
            _dask_erf(clients, mode, progress, out)
        if "stencil" in parts:
            out["stencil"] = dask_stencil({k: clients[k] for k in ("one", "two")}, mode, progress, stencil_side)
    finally:
        for name in clients:
            clients[name].close()
            clusters[name].close()
        for name, value in environ.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    out["loadavg_after"] = loadavg()
    return out


def _dask_erf(clients: dict, mode: str, progress: Reporter, out: dict) -> None:
    """The erf part of :func:`dask_suite`, on its clusters, into ``out``."""
    import dask.array as da
    from distributed import futures_of

    import torchbridge as tb
    import torchbridge.dask as tbd

    n, chunks, tiny, rounds = DASK_SIZES[mode]
    progress.begin(f"dask: a {n:.0e}-element float64 array in {chunks} chunks, persisted on each cluster")
    arrays = {}
    for name, c in clients.items():
        x = da.random.default_rng(12345).uniform(-3, 3, size=n, chunks=n // chunks)
        arrays[name] = c.persist(x)
        _dask_wait(c, arrays[name])
        # the same number of chunks on each worker: a task runs where its chunk is
        c.rebalance(futures_of(arrays[name]))
        out.setdefault("chunks_per_worker", {})[name] = sorted(
            len(keys) for keys in c.has_what().values())
    head = np.asarray(clients["two"].compute(arrays["two"][:4096]).result())
    got = np.asarray(clients["two"].compute(tb.special.erf(arrays["two"])[:4096]).result())
    out["bit_identical_to_eager"] = bool(got.tobytes() == tb.special.erf(head).tobytes())
    progress.end(f"erf on the cluster {'bit-identical to' if out['bit_identical_to_eager'] else 'DIFFERS from'} "
                 "the eager call (first 4096 elements)")

    def timed(cluster: str, routine) -> float:
        return _dask_time(clients[cluster], lambda: routine(arrays[cluster]), arrays[cluster])

    progress.begin(f"dask: special.erf on {n:.0e} elements, {chunks} chunks, 1 worker vs 2, {rounds} rounds")
    # and in-process workers (processes=False, one thread each, libtorch 1 thread), 1 against 2: two tasks
    # overlap in one process only because the compiled routine releases the GIL; no chunk crosses a process
    from distributed import Client, LocalCluster

    threads_before = tb.info()["torch_threads"]
    local = {name: LocalCluster(processes=False, n_workers=k, threads_per_worker=1, dashboard_address=":0")
             for name, k in (("in-process one", 1), ("in-process two", 2))}
    samples: dict[str, list[float]] = {"one worker": [], "two workers": [], "one worker, 2 libtorch threads": [],
                                       "one in-process worker": [], "two in-process workers": [],
                                       "one worker, plain": [], "two workers, plain": []}
    try:
        for name, cluster in local.items():
            clients[name] = Client(cluster, set_as_default=False)
            out["configure"][name] = tbd.configure(clients[name], threads=1)
            arrays[name] = clients[name].persist(
                da.random.default_rng(12345).uniform(-3, 3, size=n, chunks=n // chunks))
            _dask_wait(clients[name], arrays[name])
        for _ in range(rounds):
            tbd.configure(clients["one"], threads=1)
            samples["one worker"].append(timed("one", tb.special.erf))
            samples["two workers"].append(timed("two", tb.special.erf))
            samples["one worker, plain"].append(timed("one, plain", tb.special.erf))
            samples["two workers, plain"].append(timed("two, plain", tb.special.erf))
            samples["one in-process worker"].append(timed("in-process one", tb.special.erf))
            samples["two in-process workers"].append(timed("in-process two", tb.special.erf))
            out["configure"]["one, share"] = tbd.configure(clients["one"])
            samples["one worker, 2 libtorch threads"].append(
                timed("one", tb.special.erf))
    finally:
        for name, cluster in local.items():
            client = clients.pop(name, None)
            if client is not None:
                client.close()
            arrays.pop(name, None)
            cluster.close()
        tb.set_num_threads(int(threads_before))
    out["timings"] = {name: summary(s) for name, s in samples.items()}
    one, two = out["timings"]["one worker"]["median"], out["timings"]["two workers"]["median"]
    out["scaling"] = one / two
    out["scaling_worst"] = out["timings"]["one worker"]["min"] / out["timings"]["two workers"]["max"]
    out["scaling_best"] = out["timings"]["one worker"]["max"] / out["timings"]["two workers"]["min"]
    out["intra_op_speedup"] = one / out["timings"]["one worker, 2 libtorch threads"]["median"]
    out["scaling_plain"] = (out["timings"]["one worker, plain"]["median"]
                            / out["timings"]["two workers, plain"]["median"])
    out["faults_per_chunk"] = {name: next(iter(clients[cluster].run(_erf_faults, n // chunks).values()))
                               for name, cluster in (("WORKER_CONFIG", "one"), ("plain", "one, plain"))}
    out["scaling_in_process"] = (out["timings"]["one in-process worker"]["median"]
                                 / out["timings"]["two in-process workers"]["median"])
    progress.end(f"1 worker {fmt_time(one)}, 2 workers {fmt_time(two)}: scaling {out['scaling']:.2f}x; "
                 f"2 in-process workers {out['scaling_in_process']:.2f}x; "
                 f"1 worker at 2 libtorch threads {out['intra_op_speedup']:.2f}x; "
                 f"without WORKER_CONFIG {out['scaling_plain']:.2f}x")

    # erf costs ~8 ns an element here, so dask's few ms per task weigh; a kernel of ~36 ns shows the
    # scaling with that overhead amortised, and numpy's own np.sin through map_blocks what dask itself
    # scales to on these clusters (same array, one libtorch thread per worker)
    references = {"special.gammaln": tb.special.gammaln,
                  "np.sin (numpy, map_blocks)": lambda x: x.map_blocks(np.sin)}
    progress.begin(f"dask: special.gammaln and np.sin on the same array, 1 worker vs 2, {rounds} rounds")
    tbd.configure(clients["one"], threads=1)
    out["references"] = {}
    for label, routine in references.items():
        runs: dict[str, list[float]] = {"one worker": [], "two workers": []}
        for _ in range(rounds):
            runs["one worker"].append(timed("one", routine))
            runs["two workers"].append(timed("two", routine))
        h = {name: summary(v) for name, v in runs.items()}
        out["references"][label] = {"timings": h, "scaling": h["one worker"]["median"] / h["two workers"]["median"]}
    progress.end(", ".join(f"{label} {r['scaling']:.2f}x" for label, r in out["references"].items()))

    progress.begin(f"dask: per-task overhead, {tiny} chunks of 16 elements on 2 workers")
    c = clients["two"]
    small = c.persist(da.random.default_rng(7).uniform(-3, 3, size=16 * tiny, chunks=16))
    _dask_wait(c, small)
    builds = {"tb.special.erf(x)": lambda: tb.special.erf(small),
              "x.map_blocks(tb.special.erf)": lambda: small.map_blocks(tb.special.erf),
              "x.map_blocks(np.negative)": lambda: small.map_blocks(np.negative)}
    per_chunk: dict[str, list[float]] = {name: [] for name in builds}
    for _ in range(rounds):
        for name, build in builds.items():
            per_chunk[name].append(_dask_time(c, build, small) / tiny)
    graph_tasks = {name: len(build().__dask_graph__()) - small.npartitions for name, build in builds.items()}
    out["per_task"] = {"chunks": tiny, "elements_per_chunk": 16, "graph_tasks": graph_tasks,
                       **{name: summary(v) for name, v in per_chunk.items()}}
    progress.end(", ".join(f"{k} {fmt_time(out['per_task'][k]['median'])}" for k in builds) + " per chunk")


def _erf_faults(elements: int) -> int:
    """In a worker: the page faults its process takes in one tb.special.erf over ``elements`` float64 (warm)."""
    import torchbridge as tb

    x = np.linspace(-3, 3, elements)
    tb.special.erf(x)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    tb.special.erf(x)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def dask_stencil(clients: dict, mode: str, progress: Reporter, side: int | None = None) -> dict:
    """gaussian_filter(x, DASK_STENCIL_SIGMA) on a square float64 image through torchbridge's stencil chunking
    class (map_overlap with the radius as depth, reflect at the image's edges), 1 worker against 2.

    The image is made and persisted on each cluster first (not timed), its chunks spread evenly. Each round
    builds the graph, persists the result and waits for it (no chunk comes back); in-process clusters of 1
    and 2 workers (one thread each, libtorch 1 thread) show two tasks at a time overlapping with the GIL
    released by the compiled routine. Checked: the top-left
    corner computed on the cluster equals the eager call on the corner (exact: the image's own edges are
    there, and the eager call on a corner twice as large is exact away from its cut). Then the per-task
    overhead: `tiny` chunks of 16 x 16 through tb.ndimage.gaussian_filter (sigma 1, depth 4), through
    dask's own x.map_overlap(tb.ndimage.gaussian_filter, depth=4, boundary="none") and x.map_blocks(np.negative)."""
    import dask.array as da
    from distributed import futures_of

    import torchbridge as tb
    import torchbridge.dask as tbd

    default_side, chunk, tiny, rounds = DASK_STENCIL_SIZES[mode]
    side = side or default_side
    chunk = min(chunk, side)
    sigma = DASK_STENCIL_SIGMA
    radius = int(4.0 * sigma + 0.5)
    out: dict[str, Any] = {"side": side, "chunk": chunk, "chunks": (-(-side // chunk)) ** 2, "rounds": rounds,
                           "sigma": sigma, "radius": radius, "bytes": side * side * 8,
                           "loadavg_before": loadavg()}
    progress.begin(f"dask: a {side}x{side} float64 image in {chunk}x{chunk} chunks, persisted on each cluster")
    images = {}
    for name, c in clients.items():
        tbd.configure(c, threads=1)
        x = da.random.default_rng(2024).standard_normal((side, side), chunks=chunk)
        images[name] = c.persist(x)
        _dask_wait(c, images[name])
        c.rebalance(futures_of(images[name]))
    head = min(side, 512)
    check = head if head == side else head // 2
    corner = np.asarray(clients["two"].compute(images["two"][:head, :head]).result())
    got = np.asarray(clients["two"].compute(
        tb.ndimage.gaussian_filter(images["two"], sigma)[:check, :check]).result())
    out["bit_identical_to_eager"] = bool(np.array_equal(got, tb.ndimage.gaussian_filter(corner, sigma)[:check, :check]))
    graph = tb.ndimage.gaussian_filter(images["two"], sigma).__dask_graph__()
    out["graph_tasks"] = len(graph) - images["two"].npartitions
    same = "bit-identical to" if out["bit_identical_to_eager"] else "DIFFERS from"
    progress.end(f"gaussian_filter on the cluster {same} the eager call ({check}x{check} corner); "
                 f"{out['graph_tasks']} graph tasks for {out['chunks']} chunks")

    progress.begin(f"dask: gaussian_filter sigma {sigma:g} on {side}x{side}, 1 worker vs 2, {rounds} rounds")
    # and in-process workers (processes=False, one thread each, libtorch 1 thread), 1 against 2: two tasks
    # overlap in one process only because the compiled routine releases the GIL
    from distributed import Client, LocalCluster

    threads_before = tb.info()["torch_threads"]
    local = {name: LocalCluster(processes=False, n_workers=k, threads_per_worker=1, dashboard_address=":0")
             for name, k in (("in-process one", 1), ("in-process two", 2))}
    clients = dict(clients)
    labels = (("one worker", "one"), ("two workers", "two"), ("one in-process worker", "in-process one"),
              ("two in-process workers", "in-process two"))
    samples: dict[str, list[float]] = {label: [] for label, _ in labels}
    try:
        for name, cluster in local.items():
            clients[name] = Client(cluster, set_as_default=False)
            out.setdefault("configure_in_process", {})[name] = tbd.configure(clients[name], threads=1)
            images[name] = clients[name].persist(
                da.random.default_rng(2024).standard_normal((side, side), chunks=chunk))
            _dask_wait(clients[name], images[name])
        for _ in range(rounds):
            for label, name in labels:
                samples[label].append(_dask_time(
                    clients[name], lambda name=name: tb.ndimage.gaussian_filter(images[name], sigma), images[name]))
    finally:
        for name, cluster in local.items():
            client = clients.pop(name, None)
            if client is not None:
                client.close()
            images.pop(name, None)
            cluster.close()
        tb.set_num_threads(int(threads_before))
    eager = []
    out["eager_side"] = min(side, 2048)
    local = np.random.default_rng(1).standard_normal((out["eager_side"], out["eager_side"]))
    for _ in range(min(rounds, 2)):  # the eager call in this process at 1 libtorch thread, for comparison
        before = tb.info()["torch_threads"]
        tb.set_num_threads(1)
        try:
            start = time.perf_counter()
            tb.ndimage.gaussian_filter(local, sigma)
            eager.append((time.perf_counter() - start) * (side * side) / local.size)
        finally:
            tb.set_num_threads(int(before))
    out["timings"] = {name: summary(v) for name, v in samples.items()}
    out["eager_one_thread_scaled"] = summary(eager)
    one, two = out["timings"]["one worker"]["median"], out["timings"]["two workers"]["median"]
    out["scaling"] = one / two
    out["scaling_worst"] = out["timings"]["one worker"]["min"] / out["timings"]["two workers"]["max"]
    out["scaling_best"] = out["timings"]["one worker"]["max"] / out["timings"]["two workers"]["min"]
    out["scaling_in_process"] = (out["timings"]["one in-process worker"]["median"]
                                 / out["timings"]["two in-process workers"]["median"])
    progress.end(f"1 worker {fmt_time(one)}, 2 workers {fmt_time(two)}: scaling {out['scaling']:.2f}x; "
                 f"2 in-process workers over 1 {out['scaling_in_process']:.2f}x")

    progress.begin(f"dask: stencil per-task overhead, {tiny} chunks of 16x16 on 2 workers")
    c = clients["two"]
    grid = int(round(tiny ** 0.5))
    small = c.persist(da.random.default_rng(7).standard_normal((16 * grid, 16 * grid), chunks=16))
    _dask_wait(c, small)
    builds = {"tb.ndimage.gaussian_filter(x, 1.0)": lambda: tb.ndimage.gaussian_filter(small, 1.0),
              'x.map_overlap(tb.ndimage.gaussian_filter, depth=4, boundary="none", sigma=1.0)':
                  lambda: small.map_overlap(tb.ndimage.gaussian_filter, depth=4, boundary="none", sigma=1.0),
              "x.map_blocks(np.negative)": lambda: small.map_blocks(np.negative)}
    per_chunk: dict[str, list[float]] = {name: [] for name in builds}
    for _ in range(rounds):
        for name, build in builds.items():
            per_chunk[name].append(_dask_time(c, build, small) / small.npartitions)
    graph_tasks = {name: len(build().__dask_graph__()) - small.npartitions for name, build in builds.items()}
    out["per_task"] = {"chunks": small.npartitions, "chunk_side": 16, "graph_tasks": graph_tasks,
                       **{name: summary(v) for name, v in per_chunk.items()}}
    progress.end(", ".join(f"{fmt_time(out['per_task'][k]['median'])}" for k in builds) + " per chunk")
    out["loadavg_after"] = loadavg()
    return out


def dask_stencil_markdown(d: dict) -> list[str]:
    """The stencil part's section of the report."""
    t = d["timings"]
    one = t["one worker"]["median"]
    lines = ["", "## dask: stencil", "",
             f"`tb.ndimage.gaussian_filter(x, {d['sigma']:g})` (radius {d['radius']}, mode reflect) on a "
             f"{d['side']}x{d['side']} float64 image ({d['bytes'] / 2**20:.3g} MiB) in {d['chunks']} chunks of "
             f"{d['chunk']}x{d['chunk']}, through the stencil chunking class (map_overlap, depth {d['radius']}; "
             f"{d['graph_tasks']} graph tasks), LocalCluster(processes=True, threads_per_worker=1) and "
             "LocalCluster(processes=False, threads_per_worker=1), libtorch 1 thread per worker thread; "
             "median (min-max) of "
             f"{d['rounds']} interleaved rounds (graph built, persisted, waited for). Result on the cluster "
             f"{'bit-identical to' if d['bit_identical_to_eager'] else '**differs from**'} the eager call "
             "(top-left corner).", "",
             "| cluster | time | pixels/s | vs baseline |", "|---|---:|---:|---:|"]
    for label, key in (("1 worker x 1 thread (baseline)", "one worker"), ("2 workers x 1 thread", "two workers"),
                       ("1 in-process worker x 2 threads (GIL released in the kernel)", "one worker, two threads"),
                       ("1 in-process worker x 1 thread", "one in-process worker"),
                       ("2 in-process workers x 1 thread (GIL released in the kernel)", "two in-process workers")):
        if key not in t:  # older records
            continue
        timing = t[key]
        lines.append(f"| {label} | {fmt_time(timing['median'])} ({fmt_time(timing['min'])}-"
                     f"{fmt_time(timing['max'])}) | {d['side'] ** 2 / timing['median']:.3g} | "
                     f"{one / timing['median']:.2f}x |")
    e = d["eager_one_thread_scaled"]["median"]
    threads = (f"; 2 threads of one in-process worker over 1 worker: **{d['scaling_threads']:.2f}x**"
               if "scaling_threads" in d else "")  # older records
    if "scaling_in_process" in d:
        threads += f"; 2 in-process workers over 1 in-process worker: **{d['scaling_in_process']:.2f}x**"
    lines += ["", f"Scaling, 2 workers over 1: **{d['scaling']:.2f}x** (extreme rounds {d['scaling_worst']:.2f}-"
              f"{d['scaling_best']:.2f}x){threads}. The eager call in the benchmark's process at 1 libtorch "
              f"thread, scaled to the image from a {d['eager_side']}x{d['eager_side']} one: {fmt_time(e)} "
              f"(the 1-worker graph costs {one / e:.2f}x that). Load average (1 / 5 / 15 min) before the part "
              f"{' / '.join(f'{x:.2f}' for x in d['loadavg_before'] or [])}, after "
              f"{' / '.join(f'{x:.2f}' for x in d['loadavg_after'] or [])}."]
    p = d["per_task"]
    lines += ["", f"Per-task overhead: {p['chunks']} chunks of {p['chunk_side']}x{p['chunk_side']} on the 2 workers "
              "(wall time / chunks; graph tasks: the tasks dask ran for them):", "",
              "| graph | per chunk | graph tasks |", "|---|---:|---:|"]
    for key, tasks in p["graph_tasks"].items():
        lines.append(f"| `{key}` | {fmt_time(p[key]['median'])} ({fmt_time(p[key]['min'])}-{fmt_time(p[key]['max'])})"
                     f" | {tasks} |")
    return lines


def dask_markdown(d: dict) -> list[str]:
    """The dask suite's section of the report."""
    t = d["timings"]
    rows = [("1 worker x 1 thread, libtorch 1 thread (baseline)", t["one worker"]),
            ("2 workers x 1 thread, `configure(client)`: libtorch 1 thread each", t["two workers"]),
            ("1 worker x 1 thread, `configure(client)`: libtorch 2 threads", t["one worker, 2 libtorch threads"])]
    if "one worker, plain" in t:
        rows += [("1 worker x 1 thread, libtorch 1 thread, started **without** `WORKER_CONFIG`",
                  t["one worker, plain"]),
                 ("2 workers x 1 thread, libtorch 1 thread each, started **without** `WORKER_CONFIG`",
                  t["two workers, plain"])]
    if "two in-process workers" in t:
        rows += [("1 in-process worker x 1 thread (`processes=False`), libtorch 1 thread", t["one in-process worker"]),
                 ("2 in-process workers x 1 thread (`processes=False`; GIL released in the kernel), libtorch "
                  "1 thread", t["two in-process workers"])]
    one = t["one worker"]["median"]
    lines = ["", "## dask", "",
             f"`tb.special.erf` on a dask array of {d['elements']:.0e} float64 elements in {d['chunks']} chunks of "
             f"{d['chunk_elements']:,} (persisted on the workers first; each round builds the graph, persists the "
             "result and waits for it, no chunk comes back), LocalCluster(processes=True, threads_per_worker=1) "
             "started under `torchbridge.dask.WORKER_CONFIG` but where the row says otherwise; "
             f"median (min-max) of {d['rounds']} interleaved rounds. Result on the cluster "
             f"{'bit-identical to' if d['bit_identical_to_eager'] else '**differs from**'} the eager call.", "",
             "| cluster | time | elements/s | vs baseline |", "|---|---:|---:|---:|"]
    for label, timing in rows:
        lines.append(f"| {label} | {fmt_time(timing['median'])} ({fmt_time(timing['min'])}-{fmt_time(timing['max'])})"
                     f" | {d['elements'] / timing['median']:.3g} | {one / timing['median']:.2f}x |")
    p = d["per_task"]
    in_process = (f"; 2 in-process workers over 1 in-process worker: **{d['scaling_in_process']:.2f}x**"
                  if "scaling_in_process" in d else "")
    lines += ["", f"Scaling, 2 workers over 1: **{d['scaling']:.2f}x** (extreme rounds {d['scaling_worst']:.2f}-"
              f"{d['scaling_best']:.2f}x){in_process}. Load average (1 / 5 / 15 min) before the suite "
              f"{' / '.join(f'{x:.2f}' for x in d['loadavg_before'] or [])}, after "
              f"{' / '.join(f'{x:.2f}' for x in d['loadavg_after'] or [])}."]
    if "scaling_plain" in d:
        f = d["faults_per_chunk"]
        lines += ["", f"Without `WORKER_CONFIG` (libtorch's allocator in its default mode under a nanny's fixed "
                  f"glibc mmap threshold): scaling {d['scaling_plain']:.2f}x; writing one chunk's result costs a "
                  f"worker {f['plain']} page faults, against {f['WORKER_CONFIG']} with it; 1 worker with it is "
                  f"{t['one worker, plain']['median'] / one:.2f}x as fast as without."]
    if d.get("references"):
        lines += ["", "The same array and clusters with a costlier kernel (dask's per-task overhead weighs less) "
                  "and with numpy's own `np.sin` through `map_blocks` (what dask itself scales to here):", "",
                  "| routine | 1 worker | 2 workers | scaling |", "|---|---:|---:|---:|"]
        for label, r in d["references"].items():
            t = r["timings"]
            lines.append(f"| `{label}` | {fmt_time(t['one worker']['median'])} | "
                         f"{fmt_time(t['two workers']['median'])} | {r['scaling']:.2f}x |")
    lines += ["", f"Per-task overhead: {p['chunks']} chunks of {p['elements_per_chunk']} elements on the 2 workers "
              "(graph built, persisted, waited for; wall time / chunks; graph tasks: the tasks dask ran for them):",
              "", "| graph | per chunk | graph tasks |", "|---|---:|---:|"]
    for key, tasks in p["graph_tasks"].items():
        lines.append(f"| `{key}` | {fmt_time(p[key]['median'])} ({fmt_time(p[key]['min'])}-{fmt_time(p[key]['max'])})"
                     f" | {tasks} |")
    return lines


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


#: Issue 19's per-call floors, on a 1-element float64 array: path -> (its reference path, the most time it may
#: take as a multiple of the reference's). Paths of libraries that are not installed are left out.
CONTAINER_FLOORS = {
    "numpy in: tb.special.erf(x)": ("torch.special.erf(t) on a torch tensor", 1.2),
    "torch in: tb.special.erf(t)": ("torch.special.erf(t) on a torch tensor", 1.2),
    "jax in: tb.special.erf(j)": ("jax.scipy.special.erf(j)", 1.2),
    "array-api-strict in: tb.special.erf(a)": ("numpy in: tb.special.erf(x)", 2.0),
    "tb.apply(lambda t: t, x), numpy": ("manual: np.from_dlpack(torch.from_dlpack(x))", 0.5),
    "tb.torch.special.erf(x), numpy": ("numpy in: tb.special.erf(x)", 1.5),
}


def container_overhead(rounds: int) -> dict:
    """Per-call time of a 1-element ``special.erf`` from each container, beside its reference, interleaved:
    the timings and, per floor of :data:`CONTAINER_FLOORS`, the ratio and whether it holds."""
    import torch

    import torchbridge as tb

    x = np.array([0.5])
    t = torch.from_numpy(x.copy())
    paths = {
        "torch.special.erf(t) on a torch tensor": lambda: torch.special.erf(t),
        "numpy in: tb.special.erf(x)": lambda: tb.special.erf(x),
        "torch in: tb.special.erf(t)": lambda: tb.special.erf(t),
        "manual: np.from_dlpack(torch.from_dlpack(x))": lambda: np.from_dlpack(torch.from_dlpack(x)),
        "tb.apply(lambda t: t, x), numpy": lambda: tb.apply(lambda v: v, x),
        "tb.torch.special.erf(x), numpy": lambda: tb.torch.special.erf(x),
    }
    try:
        import jax
        import jax.scipy.special as jsp

        jax.config.update("jax_enable_x64", True)
        j = jax.numpy.asarray(x)
        paths["jax.scipy.special.erf(j)"] = lambda: jsp.erf(j)
        paths["jax in: tb.special.erf(j)"] = lambda: tb.special.erf(j)
    except ImportError:
        pass
    try:
        import array_api_strict

        a = array_api_strict.asarray(x)
        paths["array-api-strict in: tb.special.erf(a)"] = lambda: tb.special.erf(a)
    except ImportError:
        pass
    timings = time_interleaved(paths, rounds)
    floors = {}
    for path, (reference, most) in CONTAINER_FLOORS.items():
        if path in timings and reference in timings:
            ratio = timings[path]["median"] / timings[reference]["median"]
            floors[path] = {"reference": reference, "most": most, "ratio": ratio, "holds": ratio <= most}
    return {"timings": timings, "floors": floors}


def conversion(sizes: list[int], rounds: int) -> dict:
    import torchbridge as tb

    out = {}
    for size in sizes:
        x = np.ones(size)
        timing = time_interleaved({"round trip": lambda x=x: tb.apply(lambda t: t, x)}, rounds)["round trip"]
        out[str(size)] = timing
        del x
    return out


def thread_scaling(size: int, calls: int, one_intra_op_thread: bool = True, rounds: int = 5) -> dict:
    """Two Python threads on separate arrays against one thread doing both; libtorch at one
    intra-op thread, or (`one_intra_op_thread=False`) at its default, torchbridge's thread policy
    sharing the cores between the two calls. `rounds` alternating rounds of each; the median of
    each (one round is a tenth of a second, which a neighbour's burst on this shared machine can
    swing by 30%).

    The two threads are one pair of workers kept for every round, as a thread pool keeps them,
    and both sides get two warm-up rounds first. A fresh thread's first large results land in a
    malloc arena of its own whose pages are not yet mapped: every call of its first rounds page-
    faults its 8 MB result in (about 1.5x the compute). With JAX imported, whose runtime threads
    take most of glibc's arenas, each new thread gets yet another arena, so a benchmark that
    started new threads every round measured those faults in every round (1.03-1.4x here)."""
    from concurrent.futures import ThreadPoolExecutor

    import torch

    import torchbridge as tb

    rng = np.random.default_rng(5)
    arrays = [rng.uniform(-3, 3, size) for _ in range(2)]
    threads_before = torch.get_num_threads()
    if one_intra_op_thread:
        tb.set_num_threads(1)
    try:
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="tb-bench") as pool:
            def work(a):
                for _ in range(calls):
                    tb.special.erfc(a)

            def one_round():
                start = time.perf_counter()
                work(arrays[0])
                work(arrays[1])
                return time.perf_counter() - start

            def two_round():
                start = time.perf_counter()
                for done in [pool.submit(work, a) for a in arrays]:
                    done.result()
                return time.perf_counter() - start

            for _ in range(2):
                one_round()
                two_round()
            ones, twos = [], []
            for _ in range(rounds):
                ones.append(one_round())
                twos.append(two_round())
    finally:
        tb.set_num_threads(threads_before)
    one, two = statistics.median(ones), statistics.median(twos)
    return {"size": size, "calls_per_thread": calls, "rounds": rounds, "one_thread_s": one, "two_threads_s": two,
            "speedup": one / two, "one_thread_rounds_s": ones, "two_threads_rounds_s": twos,
            "intra_op_threads": 1 if one_intra_op_thread else threads_before}


#: Signal lengths the IIR crossover sweep times (geometric, from per-call cost to throughput).
IIR_CROSSOVER_LENGTHS = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 1_000_000)


def iir_crossover(lengths: tuple[int, ...], rounds: int) -> list[dict]:
    """The length from which torchbridge beats SciPy on the IIR filters: for
    ``lfilter`` and ``filtfilt`` (butter(4, 0.1)) and ``sosfilt`` and
    ``sosfiltfilt`` (butter(8, 0.1) sections), SciPy and torchbridge on the
    same float64 numpy signal at each length, interleaved; the crossover is
    the shortest length from which every longer one wins too (None: never)."""
    import numpy as np
    import scipy.signal

    import torchbridge.signal as tbs

    b, a = scipy.signal.butter(4, 0.1)
    sos = scipy.signal.butter(8, 0.1, output="sos")
    calls = {
        "lfilter": (lambda x: scipy.signal.lfilter(b, a, x), lambda x: tbs.lfilter(b, a, x)),
        "sosfilt": (lambda x: scipy.signal.sosfilt(sos, x), lambda x: tbs.sosfilt(sos, x)),
        "filtfilt": (lambda x: scipy.signal.filtfilt(b, a, x), lambda x: tbs.filtfilt(b, a, x)),
        "sosfiltfilt": (lambda x: scipy.signal.sosfiltfilt(sos, x), lambda x: tbs.sosfiltfilt(sos, x)),
    }
    rng = np.random.default_rng(0)
    out = []
    for routine, (native, ours) in calls.items():
        ratios = {}
        for n in lengths:
            x = rng.standard_normal(n)
            t = time_interleaved({"native": lambda: native(x), "tb": lambda: ours(x)}, rounds)
            ratios[n] = t["native"]["median"] / t["tb"]["median"]
        winning = [n for n in lengths if all(ratios[m] >= 1 for m in lengths if m >= n)]
        out.append({"routine": routine, "ratios": ratios, "crossover": winning[0] if winning else None})
    return out


def fft_backend(sizes: list[int], rounds: int) -> list[dict]:
    """SciPy routines built on scipy.fft, with torchbridge.fft set as its
    backend and unset, side by side: ``scipy.signal.fftconvolve`` (one real
    signal with a kernel of n/16; n/500 rows of 500 convolved with 51 points
    along the last axis) and ``scipy.signal.welch`` (segments of 256). Paths: ``unset``
    (SciPy's pocketfft), ``set`` (``scipy.fft.set_backend(torchbridge.fft)``:
    the measured cost model serves what pays and leaves the rest to SciPy)
    and ``forced`` (every transform served: what the cost model avoids). Each
    row also counts the transforms the backend served in one call under
    ``set`` and ``forced``."""
    import scipy.fft
    import scipy.signal

    import torchbridge.fft as tf
    from torchbridge.fft import _backend

    rng = np.random.default_rng(2026)
    served: list[str] = []
    routine = _backend._routine

    def counting(name):
        served.append(name)
        return routine(name)

    def with_backend(fn, forced=False):
        def run():
            saved = dict(_backend.CROSSOVER)
            if forced:
                _backend.CROSSOVER.update(dict.fromkeys(saved, {"single": (0, None), "rows": (0, None)}))
            try:
                with scipy.fft.set_backend(tf):
                    return fn()
            finally:
                _backend.CROSSOVER.update(saved)
        return run

    def convolve(n):
        x, h = rng.standard_normal(n), rng.standard_normal(max(n // 16, 1))
        return lambda: scipy.signal.fftconvolve(x, h)

    def convolve_rows(n):
        x, h = rng.standard_normal((max(n // 500, 1), 500)), rng.standard_normal((1, 51))
        return lambda: scipy.signal.fftconvolve(x, h, axes=-1)

    def welch(n):
        x = rng.standard_normal(n)
        return lambda: scipy.signal.welch(x, nperseg=256)[1]

    cases = {"fftconvolve": convolve, "fftconvolve rows": convolve_rows, "welch": welch}
    rows = []
    _backend._routine = counting
    try:
        for routine_name, make in cases.items():
            for size in sizes:
                call = make(size)
                paths = {"unset": call, "set": with_backend(call), "forced": with_backend(call, forced=True)}
                want = call()
                counts, errors = {}, {}
                for path in ("set", "forced"):
                    served.clear()
                    errors[path] = max_rel_error(paths[path](), want)
                    counts[path] = len(served)
                timings = time_interleaved(paths, rounds)
                rows.append({"routine": routine_name, "size": size, "timings": timings, "served": counts,
                             "max_rel_error": errors})
    finally:
        _backend._routine = routine
    return rows


#: The small-matrix table: orders, the batch of the batched rows, and the routines (SciPy's name, args builder).
SMALL_LINALG_SIZES = (2, 8, 64)
SMALL_LINALG_BATCH = 16


def _small_linalg_cases(n: int, batch: int | None, rng) -> dict:
    """SciPy's routine and its arguments for each routine of the small-matrix table (float64 numpy input)."""
    import scipy.linalg as sl

    lead = () if batch is None else (batch,)
    a = rng.standard_normal(lead + (n, n)) + n * np.eye(n)
    spd = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
    b = rng.standard_normal(lead + (n, 1))
    cases = {
        "solve": ("solve", (a, b)), "det": ("det", (a,)), "inv": ("inv", (a,)), "cholesky": ("cholesky", (spd,)),
        "eigh": ("eigh", (spd,)), "svd": ("svd", (a,)), "lu_factor": ("lu_factor", (a,)),
        "lstsq": ("lstsq", (a, b)),
    }
    if batch is None:  # lu_solve and cho_solve take one factorization
        lu = sl.lu_factor(a[..., :, :])
        cases["lu_solve"] = ("lu_solve", (lu, b))
        cases["cho_solve"] = ("cho_solve", (sl.cho_factor(spd), b))
    return cases


def small_linalg(rounds: int, sizes=SMALL_LINALG_SIZES) -> list[dict]:
    """SciPy against torchbridge (numpy float64 in) on small matrices, single and batched, interleaved."""
    import scipy.linalg as sl

    import torchbridge as tb

    rows = []
    rng = np.random.default_rng(0)
    for batch in (None, SMALL_LINALG_BATCH):
        for n in sizes:
            for routine, (name, args) in _small_linalg_cases(n, batch, rng).items():
                native, bridged = getattr(sl, name), getattr(tb.linalg, name)
                try:
                    native(*args)
                    bridged(*args)
                except Exception as exc:  # a batch SciPy does not take
                    rows.append({"routine": routine, "n": n, "batch": batch, "error": f"{type(exc).__name__}"})
                    continue
                t = time_interleaved({"native": lambda f=native, a=args: f(*a),
                                      "tb(numpy)": lambda f=bridged, a=args: f(*a)}, rounds)
                rows.append({"routine": routine, "n": n, "batch": batch, "timings": t,
                             "ratio": t["tb(numpy)"]["median"] / t["native"]["median"]})
    return rows


def small_linalg_markdown(rows: list[dict]) -> list[str]:
    sizes = sorted({r["n"] for r in rows})
    lines = ["", "## Small matrices (linalg, float64 numpy in)", "",
             f"torchbridge's time over SciPy's (median of interleaved rounds; below 1: faster; the floor for solve, "
             f"det, inv, cholesky, eigh and svd at 8 and 64 is <= 1.2); batched: {SMALL_LINALG_BATCH} matrices in "
             "one call.", "",
             "| routine | " + " | ".join(f"{n}x{n}" for n in sizes) + " | "
             + " | ".join(f"batch {n}x{n}" for n in sizes) + " |",
             "|---|" + "---:|" * (2 * len(sizes))]
    for routine in dict.fromkeys(r["routine"] for r in rows):
        cells = []
        for batch in (None, SMALL_LINALG_BATCH):
            for n in sizes:
                r = next((r for r in rows if r["routine"] == routine and r["n"] == n and r["batch"] == batch), None)
                if r is None:
                    cells.append("-")
                elif "error" in r:
                    cells.append(r["error"])
                else:
                    cells.append(f"{r['ratio']:.2f} ({fmt_time(r['timings']['tb(numpy)']['median'])})")
        lines.append(f"| {routine} | " + " | ".join(cells) + " |")
    return lines


def import_time(module: str, runs: int = 3) -> float:
    """Median seconds of `import module` in a fresh interpreter."""
    code = f"import time; s = time.perf_counter(); import {module}; print(time.perf_counter() - s)"
    times = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(runs)]
    return statistics.median(times)


def environment(device: str) -> dict:
    import scipy
    import torch

    import torchbridge as tb

    env = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "cpu": cpu_model(),
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


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown"


#: The variables that decide how many cores the libraries use and how they wait for work, and whether
#: libtorch advises huge pages for its CPU buffers of 2 MiB or more (``THP_MEM_ALLOC_ENABLE``).
THREAD_VARIABLES = ["OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_DYNAMIC", "OMP_DYNAMIC",
                    "TORCHBRIDGE_NUM_THREADS", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "THP_MEM_ALLOC_ENABLE"]


def usable_cores() -> list[int] | None:
    """The CPUs this process may run on (its affinity), where the OS says."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return None


def loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def machine_busy_seconds() -> float | None:
    """CPU seconds every process on the machine has spent busy since boot (/proc/stat's
    first line: user, nice, system, irq, softirq, steal), or None off Linux."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class LoadMonitor:
    """The load average before, during (sampled at each finished cell) and
    after the run, the CPU time this process and its children used, and the
    CPU time every other process on the machine used meanwhile."""

    def __init__(self):
        self.start = time.perf_counter()
        self.before = loadavg()
        self.samples: list[tuple[float, float]] = []  # (seconds since the start, 1-minute load)
        self.cpu_start = self._cpu()
        self.machine_start = machine_busy_seconds()

    @staticmethod
    def _cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    def sample(self) -> None:
        now = loadavg()
        if now is not None:
            self.samples.append((round(time.perf_counter() - self.start, 1), now[0]))

    def finish(self, threshold: float, own_load: bool = False) -> dict:
        """The machine block's load part; `threshold` is a multiple of the usable cores.

        With `own_load` (``--load``: the benchmark's own busy processes raise the load
        average on purpose), the warning is judged on the other processes' CPU use
        instead: more than half a core, on average, taken by anything but this run."""
        after = loadavg()
        wall = time.perf_counter() - self.start
        own_cpu = self._cpu() - self.cpu_start
        machine_now = machine_busy_seconds()
        others = None
        if self.machine_start is not None and machine_now is not None and wall > 0:
            others = round(max(0.0, machine_now - self.machine_start - own_cpu) / wall, 2)
        affinity = usable_cores()
        cores = len(affinity) if affinity else (os.cpu_count() or 1)
        during = [load for _, load in self.samples] + ([after[0]] if after else [])
        peak = max(during) if during else None
        limit = threshold * cores
        if own_load and others is not None:
            others_limit = 0.5 * threshold
            high = others > others_limit
            rule = (f"other processes' CPU use during the run above {others_limit:g} cores on average (--load: "
                    "the load average counts the benchmark's own busy processes)")
            what = (f"other processes kept {others:.2f} cores busy on average during the run, above "
                    f"{others_limit:g}")
        else:
            high = peak is not None and peak > limit
            rule = f"1-minute load average during the run above {threshold:g} x {cores} usable cores"
            what = (f"the 1-minute load average reached {peak:.2f} during the run, above {limit:g} "
                    f"({threshold:g} x {cores} usable cores; before the run it was "
                    f"{self.before[0] if self.before else 'unknown'})")
        out = {
            "loadavg_before": self.before,
            "loadavg_after": after,
            "loadavg_1min_max_during": peak,
            "loadavg_1min_samples": self.samples,
            "load_threshold": limit,
            "load_threshold_rule": rule,
            "benchmark_busy_cores": round(own_cpu / wall, 2) if wall > 0 else None,
            "other_busy_cores": others,
            "wall_s": round(wall, 1),
            "high_load": high,
        }
        if high:
            out["warning"] = (
                f"high machine load: {what}. More threads wanted a core than there were "
                "cores, so the timings are inflated and the speedups less certain: rerun on a quieter machine."
            )
        return out


def machine(load: dict) -> dict:
    """What the numbers depend on: cores, affinity, load, threads, versions."""
    import scipy
    import torch

    affinity = usable_cores()
    return {
        "cpu": cpu_model(),
        "os_cpu_count": os.cpu_count(),
        "affinity_cores": len(affinity) if affinity else None,
        "affinity": affinity,
        **load,
        "torch_intra_op_threads": torch.get_num_threads(),
        "torch_inter_op_threads": torch.get_num_interop_threads(),
        "thread_env": {name: os.environ.get(name) for name in THREAD_VARIABLES},
        "versions": {"python": platform.python_version(), "torch": torch.__version__, "numpy": np.__version__,
                     "scipy": scipy.__version__},
        "platform": platform.platform(),
    }


# ---------------------------------------------------------------- progress


class Reporter:
    """Progress, one line per finished cell on `stream`: plain text, flushed
    at once (where the stream is not a terminal), or rich's bar with the same
    lines printed above it (on a terminal)."""

    def __init__(self, total: int, stream: TextIO, fancy: bool, load: LoadMonitor):
        self.total = total
        self.done = 0
        self.stream = stream
        self.load = load
        self.started = time.perf_counter()
        self.cell_started = self.started
        self.what = ""
        self.bar = None
        if fancy:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                console=Console(file=stream), transient=True)
            self.task = self.bar.add_task("benchmarking", total=total)

    def __enter__(self):
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def begin(self, what: str) -> None:
        self.what = what
        self.cell_started = time.perf_counter()
        if self.bar is not None:
            self.bar.update(self.task, description=what)

    def end(self, detail: str = "") -> None:
        self.note(self.what, detail, time.perf_counter() - self.cell_started)

    def say(self, text: str) -> None:
        """A line that is not a cell: what starts next, where that takes a while."""
        pad = " " * (2 * len(str(self.total)) + 1)  # where a cell line has its count
        line = f"[{pad} {time.perf_counter() - self.started:6.1f} s] {text}"
        if self.bar is not None:
            self.bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            print(line, file=self.stream, flush=True)

    def note(self, what: str, detail: str, seconds: float) -> None:
        """A finished cell, timed here or in a subprocess."""
        self.done += 1
        self.load.sample()
        elapsed = time.perf_counter() - self.started
        width = len(str(self.total))
        line = f"[{self.done:>{width}}/{self.total} {elapsed:6.1f} s] {what}: {detail} ({seconds:.1f} s)"
        if self.bar is not None:
            self.bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
            self.bar.update(self.task, completed=self.done)
        else:
            print(line, file=self.stream, flush=True)


# ---------------------------------------------------------------- report


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def fmt_size(row: dict) -> str:
    return f"{row['size']}x{row['size']}" if row["suite"] == "linalg" else f"{row['size']:,}"


def md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def cell(row: dict, path: str) -> tuple[str, str, str]:
    """(time with spread, speedup, error) for one path of one row."""
    if path in row.get("unsupported", {}):
        return ("unsupported: " + md_escape(row["unsupported"][path]), "", "")
    t = row["timings"].get(path)
    if t is None:
        return ("-", "", "")
    native = row["timings"]["native"]["median"]
    err = row["max_rel_error"].get(path)
    spread = fmt_time(t["median"])
    if t["rounds"] > 1:
        spread += f" ({fmt_time(t['min'])}-{fmt_time(t['max'])})"
    err_text = ""
    if err is not None:
        err_text = f"{err:.1e}"
        if err > row.get("tol", float("inf")):
            err_text += " **> tol**"
    return (spread, f"{native / t['median']:.2f}" if path != "native" else "1", err_text)


def shown_paths(rows: list[dict]) -> list[str]:
    return [p for p in PATHS + CUDA_PATHS if any(p in r["timings"] or p in r.get("unsupported", {}) for r in rows)]


def load_summary(m: dict) -> str:
    def fmt(load):
        return "unknown" if not load else " / ".join(f"{x:.2f}" for x in load)

    return (f"load average (1 / 5 / 15 min) before {fmt(m['loadavg_before'])}, after {fmt(m['loadavg_after'])}; "
            f"1-minute peak during the run {m['loadavg_1min_max_during']}; the benchmark itself kept "
            f"{m['benchmark_busy_cores']} cores busy on average over {m['wall_s']} s"
            + (f", other processes {m['other_busy_cores']}" if m.get("other_busy_cores") is not None else ""))


def markdown(results: dict) -> str:
    env = results["environment"]
    m = results["machine"]
    rows = results["rows"]
    paths = shown_paths(rows)
    lines = [f"# torchbridge benchmark, {env['date']}", ""]
    if m.get("warning"):
        lines += [f"> **WARNING: {m['warning']}**", ""]
    threads_env = ", ".join(f"{k}={v}" for k, v in m["thread_env"].items() if v is not None) or "none set"
    if rows:
        intro = ("Median per call (min-max over rounds); speedup x = native time / path time (above 1: faster than "
                 "SciPy); err = max relative error against native (element by element; against the largest value "
                 "for the IIR filters, resamplers and freqz, whose outputs cross zero), **> tol** where above the "
                 "benchmark's flag for a "
                 f"wrong answer ({', '.join(f'{k} {v:.0e}' for k, v in TOLERANCE.items())}). array-API ran in its "
                 "own process (SCIPY_ARRAY_API=1), not interleaved with the other paths.")
    else:
        intro = "The dask suite alone (`--suite dask`): torchbridge on dask.distributed workers, 1 worker against 2."
    lines += [
        f"{env['cpu']}, {env['cores']} cores{', ' + env['gpu'] if 'gpu' in env else ''}; numpy {env['numpy']}, "
        f"SciPy {env['scipy']}, torch {env['torch']} ({env['torch_threads']} threads). " + intro,
        "",
        "## Machine",
        "",
        f"- CPU: {m['cpu']}; `os.cpu_count()` {m['os_cpu_count']}, usable (affinity) {m['affinity_cores']}",
        f"- {load_summary(m)}; warning threshold {m['load_threshold']:g} "
        f"({'exceeded' if m['high_load'] else 'not exceeded'})",
        f"- torch threads: intra-op {m['torch_intra_op_threads']}, inter-op {m['torch_inter_op_threads']}; "
        f"environment: {threads_env}",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()) + f"; {m['platform']}",
        f"- run: {results['config']}",
    ]
    if rows:
        lines += [
            "",
            "## Per routine",
            "",
            "| suite | routine | n | " + " | ".join(f"{p} | x | err" if p != "native" else p for p in paths) + " |",
            "|---|---|---:|" + "|".join("---:|---:|---:" if p != "native" else "---:" for p in paths) + "|",
        ]
    for r in rows:
        cells = []
        for p in paths:
            t, x, e = cell(r, p)
            cells.append(t if p == "native" else f"{t} | {x} | {e}")
        lines.append(f"| {r['suite']} | {r['routine']} | {r['size']:g} | " + " | ".join(cells) + " |")
    lines += slower_markdown(results)
    if any("loaded" in r for r in rows):
        lines += loaded_markdown(results)
    if "overhead" in results:
        lines += extras_markdown(results, m, env)
    if "dask" in results:
        if "timings" in results["dask"]:
            lines += dask_markdown(results["dask"])
        if "stencil" in results["dask"]:
            lines += dask_stencil_markdown(results["dask"]["stencil"])
    return "\n".join(lines) + "\n"


def loaded_markdown(results: dict) -> list[str]:
    """`--load`: every cell's tb(numpy) speedup quiet and under each load, side by side, with the floors."""
    rows = [r for r in results["rows"] if "loaded" in r]
    loads = sorted({k for r in rows for k in r["loaded"]}, key=int)
    lines = ["", "## Quiet vs loaded", "",
             f"tb(numpy)'s speedup over native with 0 (quiet) and {', '.join(loads)} busy processes competing for "
             f"the {results['machine']['affinity_cores'] or results['environment']['cores']} usable cores (`--load`; "
             "each a Python busy loop, paused outside its timings), both paths timed under the same load, "
             "interleaved; then tb(numpy)'s median time. Floors: under load within 2x of the quiet speedup and "
             "not below 0.5x SciPy (**below** where not).", "",
             "| suite | routine | n | quiet x | " + " | ".join(f"load {k} x" for k in loads) + " | tb quiet | "
             + " | ".join(f"tb load {k}" for k in loads) + " | floors |",
             "|---|---|---:|---:|" + "---:|" * (2 * len(loads) + 1) + "---|"]
    held = 0
    for r in rows:
        quiet = r["timings"]["native"]["median"] / r["timings"]["tb(numpy)"]["median"]
        under = loaded_speedups(r)
        ok = all(load_floor_holds(quiet, under[k]) for k in loads if k in under)
        held += ok
        xs = " | ".join(f"{under[k]:.2f}" if k in under else "" for k in loads)
        ts = " | ".join(fmt_time(r["loaded"][k]["tb(numpy)"]["median"]) if k in under else "" for k in loads)
        lines.append(f"| {r['suite']} | {r['routine']} | {r['size']:g} | {quiet:.2f} | {xs} | "
                     f"{fmt_time(r['timings']['tb(numpy)']['median'])} | {ts} | {'ok' if ok else '**below**'} |")
    lines += ["", f"{held} of {len(rows)} cells hold both floors under every load."]
    return lines


#: Why torchbridge is slower than SciPy where it is (the report's "Slower than SciPy" section): what was
#: measured or read in the code, per routine; a routine below 1x without an entry is listed as not investigated.
WHY_SLOWER = {
    "special.logit": "one pass (csrc/logit.cpp): x / (1 - x) formed in double-double precision and one SLEEF "
                     "log per element; at 1e3 the per-call cost (about 2.3 us) is what SciPy's loop does not pay",
    "special.gammaln": "Cephes' lgam, as SciPy's, on eight AVX-512 lanes (csrc/gammaln.cpp); at 1e3 the per-call "
                       "cost (about 2.3 us) against SciPy's 9 us for the whole call",
    "special.ndtr": "one pass (csrc/ndtr.cpp): MKL's vector erfc in L1-sized blocks with the tail correction on "
                    "eight lanes, about 3.5 ns per element against SciPy's 12; at 1e3 the per-call cost (about "
                    "2.3 us) is the difference",
    "special.wofz": "Zaghloul and Ali's sampling sums (one exp per term, up to 72 terms) and Poppe and Wijers' "
                    "continued fraction: about 0.7x SciPy's Faddeeva package per element on one thread",
    "fft.dct": "a pass, the FFT in place on per-thread scratch kept between calls (from 8192 even points "
               "half as long, complex, its split in the pass) and a pass, in one shim call, the "
               "intermediate no longer fresh memory that page-faults; on one thread at 1e6 MKL's FFT (its generic "
               "'def' kernels on this AMD CPU, as perf shows) costs about as much as pocketfft's, and the 8 MB "
               "outputs of both libraries page-fault whenever glibc has trimmed its heap",
    "special.stdtr": "the per-call cost: about 49 small libtorch ops (masks, nonzero, fills) around the C++ "
                     "incbet kernel, about 67 us against SciPy's 214 us for the whole call at 1e3; per element "
                     "the kernel matches SciPy's (0.26 against 0.24 us)",
    "special.kv": "per element about 8% above SciPy's: the kernel (csrc/bessel_kernels.h, `ik`) computes I "
                  "beside K (CF1, Miller's recurrence, the I series), which K alone does not need",
    "special.hyp2f1": "the per-call cost (about 7 us, four arrays converted) against SciPy's 158 us; the kernel is "
                      "Cephes' algorithm, as SciPy's, and equal per element at 1e5",
    "special.lambertw": "about 1.4x SciPy's per-element cost with the same algorithm (xsf's): the complex division "
                        "of the Halley step calls compiler-rt's `__divdc3`, linked into the extension, where "
                        "SciPy's build inlines it",
    "linalg.solve": "above the host path's limit (64) the general path adds about 0.6 ms to libtorch's solve: "
                    "the condition estimate behind LinAlgWarning as about 50 tensor ops and 8 lu_solve calls "
                    "(300 us), and MKL's getrf is about 0.9x OpenBLAS's on this AMD EPYC",
    "linalg.svd": "MKL's dgesdd, called directly, is 10-15% slower than SciPy's OpenBLAS on this AMD EPYC "
                  "(torch.linalg.svd 580 against 491 us)",
    "signal.lfilter": "below 1e4 samples the per-call cost (about 14 us) dominates (the crossover table)",
}


def slower_markdown(results: dict) -> list[str]:
    """The routines tb(numpy) runs slower than native at some size (quiet), with the reason where known."""
    slower: dict[str, list[str]] = {}
    for r in results["rows"]:
        t = r["timings"]
        if "tb(numpy)" in t and t["native"]["median"] < t["tb(numpy)"]["median"]:
            x = t["native"]["median"] / t["tb(numpy)"]["median"]
            slower.setdefault(f"{r['suite']}.{r['routine']}", []).append(f"{r['size']:g}: {x:.2f}x")
    if not slower:
        return []
    lines = ["", "## Slower than SciPy, and why", "",
             "tb(numpy) below 1x native (quiet), by size, and the reason where it was measured or found in the code.",
             "", "| routine | sizes | why |", "|---|---|---|"]
    for name, cells in slower.items():
        lines.append(f"| {name} | {', '.join(cells)} | {md_escape(WHY_SLOWER.get(name, 'not investigated'))} |")
    return lines


def summary_markdown(results: dict) -> str:
    """`--summary`: one line per routine, tb(numpy)'s speedup over native at each size, quiet and under
    each `--load` (the README's table), and the error flag where a path went above the tolerance."""
    by_routine: dict[tuple[str, str], list[dict]] = {}
    for r in results["rows"]:
        if "tb(numpy)" in r["timings"]:
            by_routine.setdefault((r["suite"], r["routine"]), []).append(r)
    loads = sorted({k for r in results["rows"] for k in r.get("loaded", {})}, key=int)
    lines = ["| " + " | ".join(["suite", "routine", "n", "speedup quiet", *(f"load {k}" for k in loads)]) + " |",
             "|---|---|---|---|" + "---|" * len(loads)]
    for (suite, routine), rows in by_routine.items():
        sizes = " / ".join(f"{r['size']:g}" for r in rows)

        def speedups(timings_of) -> str:
            out = []
            for r in rows:
                t = timings_of(r)
                out.append(f"{t['native']['median'] / t['tb(numpy)']['median']:.2f}" if t else "-")
            return " / ".join(out)

        quiet = speedups(lambda r: r["timings"])
        flagged = any(r["max_rel_error"].get("tb(numpy)", 0) > r.get("tol", float("inf")) for r in rows)
        under = [speedups(lambda r, k=k: r.get("loaded", {}).get(k)) for k in loads]
        lines.append("| " + " | ".join([suite, routine, sizes, quiet + (" (err > tol)" if flagged else ""), *under])
                     + " |")
    return "\n".join(lines) + "\n"


def extras_markdown(results: dict, m: dict, env: dict) -> list[str]:
    """Overhead, conversion, threads and import times."""
    lines: list[str] = []
    over = results["overhead"]
    manual_key = "manual: np.from_dlpack(torch.special.erf(torch.from_dlpack(x)))"
    op = over["torch.special.erf (torch tensor)"]["median"]
    lines += ["", "## Per-call overhead, 1-element float64", "", "| path | median |", "|---|---:|"]
    lines += [f"| {k} | {fmt_time(v['median'])} |" for k, v in over.items()]
    tb_over = over["tb.special.erf"]["median"] - op
    manual_over = over[manual_key]["median"] - op
    lines += ["", f"Overhead beyond the libtorch op itself: torchbridge {fmt_time(tb_over)}, manual path "
              f"{fmt_time(manual_over)}; ratio {tb_over / manual_over:.2f}."]
    if results.get("containers"):
        c = results["containers"]
        lines += ["", "## Per-call time by container, 1-element float64 `special.erf`", "",
                  "Median per call, interleaved rounds; ratio: the path's time over its reference's; floor: the "
                  "most the ratio may be (issue 19).", "",
                  "| path | median | reference | ratio | floor | holds |", "|---|---:|---|---:|---:|---|"]
        for path, timing in c["timings"].items():
            f = c["floors"].get(path)
            cells = (f"{f['reference']} | {f['ratio']:.2f} | {f['most']:g} | {'yes' if f['holds'] else '**no**'}"
                     if f else " |  |  | ")
            lines.append(f"| {path} | {fmt_time(timing['median'])} | {cells} |")
    lines += ["", "## Conversion is O(1)", "", "| elements | `tb.apply(lambda t: t, x)` |", "|---:|---:|"]
    lines += [f"| {int(k):.0e} | {fmt_time(v['median'])} |" for k, v in results["conversion"].items()]
    ts = results["threads"]
    lines += ["", "## Threads", "",
              f"Two Python threads calling `tb.special.erfc` on separate {ts['size']:.0e}-element arrays, libtorch at "
              f"one intra-op thread: {ts['two_threads_s']:.3f} s against {ts['one_thread_s']:.3f} s for one thread "
              f"doing both (speedup {ts['speedup']:.2f}; medians of {ts.get('rounds', 1)} alternating rounds; "
              f"{m['affinity_cores'] or env['cores']} usable cores)."]
    default = ts.get("default_threads")
    if default:
        lines += ["", f"The same at libtorch's default ({default['intra_op_threads']} intra-op threads; torchbridge "
                  f"shares the free cores between calls running at once): {default['two_threads_s']:.3f} s against "
                  f"{default['one_thread_s']:.3f} s (speedup {default['speedup']:.2f})."]
    if results.get("iir_crossover"):
        rows = results["iir_crossover"]
        lengths = list(rows[0]["ratios"])
        lines += ["", "## IIR filters: the crossover length", "",
                  "Speedup of torchbridge over SciPy (float64 numpy signal, median of interleaved rounds) by "
                  "signal length; crossover: the shortest length from which every longer one wins.", "",
                  "| routine | " + " | ".join(f"{int(n):g}" for n in lengths) + " | crossover |",
                  "|---|" + "---:|" * (len(lengths) + 1)]
        for r in rows:
            cross = "never" if r["crossover"] is None else f"{int(r['crossover']):g}"
            lines.append(f"| {r['routine']} | " + " | ".join(f"{r['ratios'][n]:.2f}" for n in lengths)
                         + f" | {cross} |")
    if results.get("fft_backend"):
        lines += ["", "## scipy.fft backend: SciPy routines with `set_backend(torchbridge.fft)`", "",
                  "Median per call; x = unset time / path time (above 1: faster with the backend); served = "
                  "transforms the backend computed in one call (the rest went to SciPy's pocketfft); `forced` "
                  "serves every transform, the cost model off.", "",
                  "| routine | n | unset | set | x | served | forced | x | served | err |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in results["fft_backend"]:
            t = r["timings"]
            unset = t["unset"]["median"]
            err = max(r["max_rel_error"].values())
            lines.append(f"| {r['routine']} | {r['size']:g} | {fmt_time(unset)} | {fmt_time(t['set']['median'])} | "
                         f"{unset / t['set']['median']:.2f} | {r['served']['set']} | "
                         f"{fmt_time(t['forced']['median'])} | {unset / t['forced']['median']:.2f} | "
                         f"{r['served']['forced']} | {err:.1e} |")
    if results.get("small_linalg"):
        lines += small_linalg_markdown(results["small_linalg"])
    imports = results["imports"]
    lines += ["", f"## Import time (fresh process, median of {imports.get('runs', 3)})", ""]
    lines += [f"- `{k}`: {v:.3f} s" for k, v in imports.items() if k != "runs"]
    return lines


# ---------------------------------------------------------------- plot

#: What an unsupported path's row says in the plot, by path.
UNSUPPORTED_TEXT = {"array-API": "not supported by SciPy array-API", "cupy": "not in cupyx.scipy"}


def plot_data(results: dict) -> list[dict]:
    """The plot's rows, computed without drawing: one entry per routine, size
    and non-native path, in the order drawn. Each entry has `suite`, `group`
    (routine and size), `path` and `kind`: "bar" (with `ratio`, the median
    native time over the median path time; `lo`/`hi`, the whiskers: the
    fastest native round over the slowest path round, and the slowest over
    the fastest; `direction`, +1 right of 1 (faster than native), -1 left,
    0 on it; `err`, `tol`, `inaccurate`; `label`), "unsupported" (with
    `label`, what is drawn instead of a bar) or "missing" (not measured)."""
    rows = results["rows"]
    paths = [p for p in shown_paths(rows) if p != "native"]
    out = []
    for r in rows:
        native = r["timings"]["native"]
        group = f"{r['routine']}  n={fmt_size(r)}"
        for p in paths:
            entry: dict[str, Any] = {"suite": r["suite"], "group": group, "path": p}
            if p in r.get("unsupported", {}):
                reason = r["unsupported"][p]
                text = UNSUPPORTED_TEXT.get(p, "not supported")
                if reason == "not in this build":
                    text = "not in this torchbridge build"
                elif reason.startswith("TypeError: returned "):
                    text += " (" + reason[len("TypeError: "):].split(",")[0] + ")"
                entry.update(kind="unsupported", label=text, reason=reason)
            elif p not in r["timings"]:
                entry.update(kind="missing", label="not measured")
            else:
                t = r["timings"][p]
                ratio = native["median"] / t["median"]
                err = r["max_rel_error"].get(p)
                tol = r.get("tol", TOLERANCE.get(r["suite"]))
                inaccurate = err is not None and tol is not None and err > tol
                label = fmt_ratio(ratio)
                if inaccurate:
                    label += f"  err {err:.1e} > tol {tol:.0e}"
                entry.update(kind="bar", ratio=ratio, lo=native["min"] / t["max"], hi=native["max"] / t["min"],
                             direction=(ratio > 1) - (ratio < 1), err=err, tol=tol, inaccurate=inaccurate,
                             label=label, rounds=t["rounds"])
            out.append(entry)
    return out


def fmt_ratio(ratio: float) -> str:
    """A speedup as the plot labels it: three digits from 1 up, two below (0.00036x, not 0.00x)."""
    return f"{ratio:.3g}x" if ratio >= 1 else f"{ratio:.2g}x"


PATH_COLORS = {"array-API": "#9e9ac8", "tb(numpy)": "#3182bd", "tb(torch)": "#e6550d", "cupy": "#31a354",
               "tb(cupy)": "#756bb1", "tb(torch-cuda)": "#d62728"}


def plot(results: dict, path: Path) -> bool:
    """Draws the speedup chart; False (no chart) where matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        return False

    matplotlib.use("Agg")
    import math

    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    data = plot_data(results)
    if not data:
        return False
    paths = list(dict.fromkeys(e["path"] for e in data))
    suites = list(dict.fromkeys(e["suite"] for e in data))
    groups = {s: list(dict.fromkeys(e["group"] for e in data if e["suite"] == s)) for s in suites}
    slots = {s: len(groups[s]) * (len(paths) + 1) for s in suites}  # a bar per path, a gap per group

    bars = [e for e in data if e["kind"] == "bar"]
    # decades left and right of 1 that the bars and whiskers reach (at least one each way), then room for
    # the labels: about a sixth of the span on each side, a third right of 1 for the unsupported texts
    left = max([1.0] + [-math.log10(e["lo"]) for e in bars])
    right = max([1.0] + [math.log10(e["hi"]) for e in bars])
    span = left + right
    right_room = max(right + span / 6, span / 3 * 1.4 if any(e["kind"] != "bar" for e in data) else 0)
    xlim = (10 ** -(left + span / 6), 10 ** right_room)

    fig_h = 0.13 * sum(slots.values()) + 0.35 * len(suites) + 2.4
    fig, axes = plt.subplots(len(suites), 1, figsize=(10, fig_h), sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": [slots[s] for s in suites]})
    height = 0.8
    for ax, suite in zip(axes[:, 0], suites):
        ax.axvspan(xlim[0], 1, color="#fbe3e0", zorder=0)
        ax.axvspan(1, xlim[1], color="#e6f4e1", zorder=0)
        ax.axvline(1.0, color="black", linewidth=0.9, zorder=2)
        ticks = []
        for g, group in enumerate(groups[suite]):
            base = g * (len(paths) + 1)
            ticks.append(base + (len(paths) - 1) / 2)
            for i, p in enumerate(paths):
                e = next(x for x in data if x["suite"] == suite and x["group"] == group and x["path"] == p)
                y = base + i
                if e["kind"] != "bar":
                    ax.plot([1], [y], marker="x", color="#555555", markersize=4, zorder=3)
                    ax.text(1.12, y, e["label"], va="center", ha="left", fontsize=6.5, style="italic",
                            color="#444444", zorder=4)
                    continue
                ax.barh(y, e["ratio"] - 1, left=1, height=height, color=PATH_COLORS.get(p, "#888888"),
                        hatch="////" if e["inaccurate"] else None, edgecolor="#b00000" if e["inaccurate"] else "none",
                        linewidth=0.8, zorder=2)
                ax.errorbar(e["ratio"], y, xerr=[[e["ratio"] - e["lo"]], [e["hi"] - e["ratio"]]], fmt="none",
                            ecolor="black", elinewidth=0.7, capsize=1.8, zorder=3)
                right = e["ratio"] >= 1
                ax.text(e["hi"] * 1.08 if right else e["lo"] / 1.08, y, e["label"], va="center",
                        ha="left" if right else "right", fontsize=6.5, zorder=4,
                        color="#b00000" if e["inaccurate"] else "black",
                        fontweight="bold" if e["inaccurate"] else "normal")
        ax.set_yticks(ticks, groups[suite], fontsize=7.5)
        ax.set_ylim(slots[suite] - 1, -1)
        ax.set_ylabel(suite, fontsize=9, fontweight="bold")
        ax.tick_params(axis="y", length=0)
        ax.grid(axis="x", color="white", linewidth=0.8, zorder=1)
    ax = axes[-1, 0]
    ax.set_xscale("log")
    ax.set_xlim(*xlim)
    steps = (1, 3) if math.log10(xlim[1] / xlim[0]) <= 5 else (1,)
    ticks = [v * 10.0 ** k for k in range(-9, 10) for v in steps if xlim[0] <= v * 10.0 ** k <= xlim[1]]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.set_xlabel("speedup over native SciPy/NumPy = native time / path time (log scale; "
                  "left of 1: slower, right: faster)", fontsize=8)

    env = results["environment"]
    m = results.get("machine")  # None in a results.json from before the machine block (--replot)
    rounds = bars[0]["rounds"] if bars else 0
    if m:
        load = (f"load {m['loadavg_before'][0] if m['loadavg_before'] else '?'} before, peak "
                f"{m['loadavg_1min_max_during']} during")
        cores = f"{m['affinity_cores'] or env['cores']} usable cores"
    else:
        m, load, cores = {}, "load not recorded", f"{env['cores']} cores"
    title = (f"torchbridge vs SciPy/NumPy, {env['date']}: {env['cpu']}, {cores}, "
             f"{load}; torch {env['torch']} at {env['torch_threads']} threads")
    fig.suptitle(title, fontsize=8.5, y=1 - 0.12 / fig_h, va="top")
    if m.get("high_load"):
        fig.text(0.5, 1 - 0.36 / fig_h, f"HIGH LOAD: 1-minute load average peaked at {m['loadavg_1min_max_during']} "
                 f"> {m['load_threshold']:g}; timings inflated", ha="center", va="top", fontsize=8.5, color="#b00000",
                 fontweight="bold")
    handles = [Patch(color=PATH_COLORS.get(p, "#888888"), label=p) for p in paths]
    handles.append(Line2D([], [], color="black", linewidth=0.7, marker="|", markersize=5,
                          label=f"whiskers: extreme rounds (of {rounds})"))
    if any(e["inaccurate"] for e in bars):
        handles.append(Patch(facecolor="white", edgecolor="#b00000", hatch="////", label="max rel. error > tolerance"))
    if any(e["kind"] != "bar" for e in data):
        handles.append(Line2D([], [], color="#555555", marker="x", linestyle="none", markersize=4,
                              label="not supported: no bar"))
    axes[0, 0].legend(handles=handles, fontsize=7, loc="lower left", bbox_to_anchor=(0, 1.0),
                      ncol=len(handles) if len(handles) <= 7 else (len(handles) + 1) // 2,
                      frameon=False, handlelength=1.4, columnspacing=1.0)
    caption = (
        f"Bar: median native time / median path time over {rounds} interleaved rounds (array-API: its own process), "
        "drawn from 1. Whiskers: from the fastest native round / the slowest path round to the slowest native round "
        "/ the fastest path round (the extreme pairings of single rounds). Hatched with a red label: the path's max "
        "relative error against native is above the benchmark's tolerance ("
        + ", ".join(f"{k} {v:.0e}" for k, v in TOLERANCE.items()) + ")."
    )
    import textwrap

    fig.text(0.01, 0.005, "\n".join(textwrap.wrap(caption, 170)), fontsize=6.5, va="bottom", ha="left",
             color="#333333")
    fig.tight_layout(rect=(0, 0.5 / fig_h, 1, 1 - (0.35 if m.get("high_load") else 0.15) / fig_h))
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


# ---------------------------------------------------------------- terminal


def render_terminal(report: str, results: dict, console) -> None:
    """The report on a terminal: prose through rich's Markdown, tables as rich
    tables whose cells wrap (fold) where the terminal is narrow, never cut;
    the per-routine table compact (the full one, with spreads, is in report.md)."""
    from rich.markdown import Markdown
    from rich.table import Table

    blocks: list[tuple[str, list[str]]] = []
    for line in report.splitlines():
        kind = "table" if line.startswith("|") else "text"
        if blocks and blocks[-1][0] == kind:
            blocks[-1][1].append(line)
        else:
            blocks.append((kind, [line]))
    first_table = bool(results["rows"])  # the first table is the per-routine one, where there are rows
    for kind, lines in blocks:
        if kind == "text":
            console.print(Markdown("\n".join(lines)))
            continue
        if first_table:
            console.print(compact_table(results))
            first_table = False
            continue
        header = split_row(lines[0])
        table = Table(show_lines=False)
        for name in header:
            table.add_column(name.strip("`"), overflow="fold")
        for line in lines[2:]:
            table.add_row(*[c.replace("\\|", "|").strip("`") for c in split_row(line)])
        console.print(table)


def split_row(line: str) -> list[str]:
    """A Markdown table row's cells (`\\|` is a literal bar inside a cell)."""
    cells, current, i = [], "", 1
    body = line.strip()
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            current += "\\|"
            i += 2
            continue
        if body[i] == "|":
            cells.append(current.strip())
            current = ""
        else:
            current += body[i]
        i += 1
    return cells


def compact_table(results: dict):
    """The per-routine table for a terminal: speedup and median time per path, the error below (red
    where above the tolerance); a section per suite. Spreads and full reasons are in report.md."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    rows = results["rows"]
    paths = shown_paths(rows)
    table = Table(title="per path: speedup x over native, median time per call, max relative error",
                  box=box.SIMPLE_HEAD)
    for name in ("suite", "routine", "n", "native", *paths[1:]):
        table.add_column(name, justify="left" if name in ("suite", "routine") else "right", overflow="fold")
    unsupported = {(e["group"], e["path"]): e["label"] for e in plot_data(results) if e["kind"] == "unsupported"}
    for k, r in enumerate(rows):
        first = k == 0 or r["suite"] != rows[k - 1]["suite"]
        if first and k:
            table.add_section()
        native = r["timings"]["native"]["median"]
        cells: list[Any] = [r["suite"] if first else "", r["routine"], fmt_size(r), fmt_time(native)]
        for p in paths[1:]:
            if p in r.get("unsupported", {}):
                label = unsupported.get((f"{r['routine']}  n={fmt_size(r)}", p), "not supported")
                cells.append(Text(label.replace("not supported by ", "not in "), style="dim"))
                continue
            t = r["timings"].get(p)
            if t is None:
                cells.append("-")
                continue
            x = native / t["median"]
            text = Text(f"{x:.2f}x", style="bold green" if x > 1 else "bold red")
            text.append(f"\n{fmt_time(t['median'])}")
            err = r["max_rel_error"].get(p)
            if err is not None:
                bad = err > r.get("tol", float("inf"))
                text.append(f"\n{err:.0e}" + (" > tol" if bad else ""), style="bold red" if bad else "dim")
            cells.append(text)
        table.add_row(*cells)
    return table


# ---------------------------------------------------------------- main


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small and medium sizes, 3 rounds (about two minutes)")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest run, to check the output: size 16, 2 rounds, token extras (seconds)")
    parser.add_argument("--suite",
                        choices=["special", "fft", "linalg", "signal", "spatial", "ndimage", "stats", "all", "dask"],
                        default="all",
                        help="all: every suite but dask; dask (only when asked): 1 dask worker against 2")
    parser.add_argument(
        "--sizes", help="comma-separated sizes for every routine: elements, or the matrix order for linalg"
    )
    parser.add_argument("--rounds", type=int, help="interleaved rounds per cell (default 7, quick 3, smoke 2)")
    parser.add_argument("--dask-parts", default="erf,stencil",
                        help="the dask suite's parts, comma-separated: erf (special.erf on 1e8 elements), stencil "
                             "(ndimage.gaussian_filter on a square image); default both")
    parser.add_argument("--dask-stencil-side", type=int,
                        help="the stencil part's image side (default 8192, --quick 4096, --smoke 256; 8192**2 "
                             "float64 is 512 MiB per cluster for the input and as much for the result)")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--out", default="bench-results", help="folder for report.md, results.json, speedup.png")
    parser.add_argument("--plain", action="store_true", help="plain progress lines and Markdown even on a terminal")
    parser.add_argument("--load-threshold", type=float, default=1.0,
                        help="warn when the 1-minute load average during the run exceeds this times the usable "
                             "cores (default 1.0)")
    parser.add_argument("--load", metavar="N[,N...]",
                        help="also time every cell (native and tb(numpy)) with N busy processes competing for the "
                             "cores, for each N given (1 up to the core count), and report quiet vs loaded")
    parser.add_argument("--replot", metavar="RESULTS_JSON",
                        help="only redraw speedup.png in --out from a results.json (older ones included)")
    parser.add_argument("--summary", metavar="RESULTS_JSON",
                        help="only print one line per routine from a results.json: speedups by size, quiet and "
                             "under each --load (the README's table)")
    parser.add_argument("--worker-array-api", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    loads: tuple[int, ...] = ()
    if args.load:
        loads = tuple(int(k) for k in args.load.split(","))
        limit = len(usable_cores() or []) or os.cpu_count() or 1
        if any(k < 1 or k > limit for k in loads):
            parser.error(f"--load: each N from 1 to the {limit} usable cores, got {args.load}")
    if args.summary:
        print(summary_markdown(json.loads(Path(args.summary).read_text())), end="")
        return 0
    if args.replot:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        if not plot(json.loads(Path(args.replot).read_text()), out / "speedup.png"):
            print("no plot: matplotlib is not installed", file=sys.stderr)
            return 1
        print(f"written: {out / 'speedup.png'}", file=sys.stderr)
        return 0
    if args.worker_array_api:
        spec = json.loads(args.worker_array_api)
        array_api_worker(spec["names"], spec["sizes"], spec["rounds"], spec["out"])
        return 0

    try:
        import rich  # noqa: F401

        have_rich = True
    except ImportError:  # the GPU machine has no rich: plain output there
        have_rich = False
    fancy_progress = have_rich and not args.plain and sys.stderr.isatty()
    fancy_report = have_rich and not args.plain and sys.stdout.isatty()

    load = LoadMonitor()
    rounds = args.rounds or (2 if args.smoke else 3 if args.quick else 7)
    selected = [c for c in cases() if args.suite in ("all", c.suite)]
    dask_mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    explicit = [int(float(s)) for s in args.sizes.split(",")] if args.sizes else ([16] if args.smoke else None)

    def sizes_for(case: Case):
        return explicit or (case.quick_sizes if args.quick else case.sizes)

    cells = sum(len(sizes_for(c)) for c in selected)
    backend_extra = args.suite in ("fft", "all")
    crossover_extra = args.suite in ("signal", "all")
    small_linalg_extra = args.suite in ("linalg", "all")
    # each cell in process and in the array-API subprocess; the extras
    total = 2 * cells + 6 + backend_extra + crossover_extra + small_linalg_extra
    config = (f"suite {args.suite}, {'smoke' if args.smoke else 'quick' if args.quick else 'full'}, "
              f"{rounds} rounds, device {args.device}" + (f", load {args.load}" if loads else ""))
    if args.suite == "dask":
        return main_dask(args, dask_mode, fancy_progress, fancy_report, load)
    if not fancy_progress:
        print(f"torchbridge benchmark: {config}; {cells} routine x size cells, each in-process and in the "
              f"SCIPY_ARRAY_API=1 subprocess, then {total - 2 * cells} extras; load average before: "
              f"{load.before}", file=sys.stderr, flush=True)
    with Reporter(total, sys.stderr, fancy_progress, load) as progress:
        progress.say("importing torch and torchbridge")
        environment_facts = environment(args.device)
        if loads:
            with BusyLoad(max(loads)) as busy:
                rows = run_in_process(selected, sizes_for, rounds, args.device, progress, busy, loads)
        else:
            rows = run_in_process(selected, sizes_for, rounds, args.device, progress)
        array_api = run_array_api(selected, sizes_for, rounds, progress)
        for row in rows:
            found = array_api.get(f"{row['suite']}.{row['routine']}.{row['size']}")
            if found is None:
                row.setdefault("unsupported", {})["array-API"] = array_api.get("error", "no result")[:80]
            elif "unsupported" in found:
                row.setdefault("unsupported", {})["array-API"] = found["unsupported"]
            else:
                row["timings"]["array-API"] = found["timing"]
                row["max_rel_error"]["array-API"] = found["error"]
        backend_rows = None
        if backend_extra:
            progress.begin("scipy.fft backend: fftconvolve, welch")
            backend_sizes = ([4096] if args.smoke else [100_000, 1_000_000] if args.quick
                             else [10_000, 100_000, 1_000_000])
            backend_rows = fft_backend(backend_sizes, rounds)
            progress.end(", ".join(f"{r['routine']} {r['size']:g}: "
                                   f"{r['timings']['unset']['median'] / r['timings']['set']['median']:.2f}x"
                                   for r in backend_rows))
        small_rows = None
        if small_linalg_extra:
            progress.begin("small matrices: linalg at " + ", ".join(f"{n}x{n}" for n in SMALL_LINALG_SIZES))
            small_rows = small_linalg(rounds, (8,) if args.smoke else SMALL_LINALG_SIZES)
            progress.end(", ".join(f"{r['routine']} {r['n']}: {r['ratio']:.2f}" for r in small_rows
                                   if r["batch"] is None and r["n"] == 8 and "ratio" in r))
        crossover_rows = None
        if crossover_extra:
            progress.begin("IIR filters: the length from which torchbridge wins")
            lengths = IIR_CROSSOVER_LENGTHS[:3] if args.smoke else IIR_CROSSOVER_LENGTHS
            crossover_rows = iir_crossover(lengths, rounds)
            progress.end(", ".join(f"{r['routine']} {r['crossover']}" for r in crossover_rows))
        progress.begin("overhead, 1 element")
        over = overhead(rounds)
        progress.end(f"tb.special.erf {fmt_time(over['tb.special.erf']['median'])}")
        progress.begin("per-call time by container, 1 element")
        containers = container_overhead(rounds)
        progress.end(", ".join(f"{path.split(':')[0].split(',')[0]} {f['ratio']:.2f}x (floor {f['most']:g})"
                               for path, f in containers["floors"].items()))
        progress.begin("conversion round trip")
        conv_sizes = [10, 100_000] if args.smoke else [10, 10_000_000 if args.quick else 100_000_000]
        conv = conversion(conv_sizes, rounds)
        progress.end(", ".join(f"{int(k):.0e}: {fmt_time(v['median'])}" for k, v in conv.items()))
        progress.begin("two threads against one")
        thread_size, thread_calls = (10_000, 1) if args.smoke else (1_000_000, 3 if args.quick else 10)
        thread_rounds = 1 if args.smoke else 3 if args.quick else 5
        threads = thread_scaling(thread_size, thread_calls, rounds=thread_rounds)
        threads["default_threads"] = thread_scaling(
            thread_size, thread_calls, one_intra_op_thread=False, rounds=thread_rounds
        )
        progress.end(f"speedup {threads['speedup']:.2f} at one intra-op thread, "
                     f"{threads['default_threads']['speedup']:.2f} at the default")
        imports: dict[str, float] = {"runs": 1 if args.smoke else 3}
        for module in ("torchbridge", "torch"):
            progress.begin(f"import {module}, fresh process")
            imports[f"import {module}"] = import_time(module, int(imports["runs"]))
            progress.end(f"median of {imports['runs']}: {imports[f'import {module}']:.2f} s")
    machine_block = machine(load.finish(args.load_threshold, own_load=bool(loads)))
    results = {"environment": environment_facts, "machine": machine_block,
               "config": config, "rows": rows, "overhead": over, "containers": containers, "conversion": conv,
               "threads": threads, "imports": imports, "fft_backend": backend_rows, "iir_crossover": crossover_rows,
               "small_linalg": small_rows}
    return finish(results, args, fancy_report)


def main_dask(args, mode: str, fancy_progress: bool, fancy_report: bool, load: LoadMonitor) -> int:
    """`--suite dask`: the dask suite alone (its parts, 1 + 4 + 3 cells), then the report with the machine block."""
    n, chunks, tiny, rounds = DASK_SIZES[mode]
    parts = tuple(p for p in DASK_PARTS if p in args.dask_parts.split(","))
    side = args.dask_stencil_side or DASK_STENCIL_SIZES[mode][0]
    config = f"suite dask ({', '.join(parts)}), {mode}"
    if "erf" in parts:
        config += f"; erf: {n:.0e} elements in {chunks} chunks, {tiny} tiny tasks, {rounds} rounds"
    if "stencil" in parts:
        config += f"; stencil: gaussian_filter on {side}x{side}, {DASK_STENCIL_SIZES[mode][3]} rounds"
    cells = 1 + sum(DASK_PARTS[p] for p in parts)
    if not fancy_progress:
        print(f"torchbridge benchmark: {config}; {cells} cells; load average before: {load.before}",
              file=sys.stderr, flush=True)
    with Reporter(cells, sys.stderr, fancy_progress, load) as progress:
        progress.say("importing torch, torchbridge and dask.distributed")
        environment_facts = environment(args.device)
        dask_results = dask_suite(mode, progress, parts, args.dask_stencil_side)
    results = {"environment": environment_facts, "machine": machine(load.finish(args.load_threshold)),
               "config": config, "rows": [], "dask": dask_results}
    return finish(results, args, fancy_report)


def finish(results: dict, args, fancy_report: bool) -> int:
    """Writes report.md, results.json (and the plot where there are rows), prints the report and the machine."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = markdown(results)
    (out / "report.md").write_text(report)
    (out / "results.json").write_text(json.dumps(results, indent=2, default=str))
    written = [out / "report.md", out / "results.json"]
    if results["rows"] and plot(results, out / "speedup.png"):
        written.append(out / "speedup.png")
    if fancy_report:
        from rich.console import Console

        render_terminal(report, results, Console())
    else:
        sys.stdout.write(report)
        sys.stdout.flush()
    m = results["machine"]
    print(f"machine: {m['affinity_cores']} usable of {m['os_cpu_count']} cores; {load_summary(m)}", file=sys.stderr)
    if m.get("warning"):
        print(f"WARNING: {m['warning']}", file=sys.stderr)
    print("written: " + ", ".join(map(str, written)), file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
