"""Sizes taken from the caller never abort the process: every linalg routine
that builds an array whose size comes from its arguments raises a clean
Python exception (MemoryError as NumPy raises it, or SciPy's ValueError),
never a signal, an abort or a PanicException. Each call runs in its own
subprocess, so a crash fails one case instead of the whole session."""

from __future__ import annotations

import concurrent.futures
import subprocess
import sys

import pytest

# (call, the exception class it must raise)
CASES = [
    ("toeplitz(np.ones(10**6))", "MemoryError"),
    ("toeplitz(np.ones(10**6), np.ones(10**6))", "MemoryError"),
    ("circulant(np.ones(10**6))", "MemoryError"),
    ("hankel(np.ones(10**6))", "MemoryError"),
    ("hankel(np.ones(10**6), np.ones(10**6))", "MemoryError"),
    ("hadamard(2**40)", "MemoryError"),
    ("hadamard(2**62)", "MemoryError"),
    ("hadamard(2**70)", "OverflowError"),
    ("hilbert(10**6)", "MemoryError"),
    ("hilbert(2**62)", "MemoryError"),
    ("invhilbert(10**6)", "MemoryError"),
    ("invhilbert(10**6, exact=True)", "NotImplementedError"),
    ("helmert(10**6)", "MemoryError"),
    ("helmert(10**6, full=True)", "MemoryError"),
    ("dft(10**6)", "MemoryError"),
    ("dft(2**62, scale='n')", "MemoryError"),
    ("pascal(10**6, exact=False)", "MemoryError"),
    ("pascal(10**6, kind='lower', exact=False)", "MemoryError"),
    ("invpascal(10**6, exact=False)", "MemoryError"),
    ("invpascal(10**6, kind='upper', exact=False)", "MemoryError"),
    ("leslie(np.ones(10**6), np.ones(10**6 - 1))", "MemoryError"),
    ("companion(np.ones(10**6))", "MemoryError"),
    ("fiedler(np.ones(10**6))", "MemoryError"),
    ("block_diag(np.ones((10**6, 1)), np.ones((1, 10**6)))", "MemoryError"),
    ("block_diag(*[np.ones((1, 1))] * 10**6)", "MemoryError"),
    ("convolution_matrix(np.ones(10**6), 10**6)", "MemoryError"),
    ("convolution_matrix(np.ones(3), 2**62)", "MemoryError"),
    ("convolution_matrix(np.ones(3), 2**62, 'same')", "MemoryError"),
    ("khatri_rao(np.ones((10**6, 1)), np.ones((10**6, 1)))", "MemoryError"),
    ("diagsvd(np.ones(10**6), 10**6, 10**6)", "MemoryError"),
    ("diagsvd(np.ones(1), 1, 2**62)", "MemoryError"),
    ("diagsvd(np.ones(1), 2**62, 1)", "MemoryError"),
    ("solve_toeplitz(np.ones(10**6), np.ones(10**6))", "LinAlgError"),  # SciPy: a singular minor at once
    ("solve_banded((1, 1), np.ones((3, 10**6)), np.ones(10**6))", "MemoryError"),
    ("solve_banded((2**62, 2**62), np.ones((3, 3)), np.ones(3))", "ValueError"),
    ("solveh_banded(np.ones((2, 10**6)), np.ones(10**6))", "MemoryError"),
    ("cholesky_banded(np.ones((2, 10**6)))", "MemoryError"),
    ("eigh_tridiagonal(np.ones(10**6), np.ones(10**6 - 1))", "MemoryError"),
    ("eigvalsh_tridiagonal(np.ones(10**6), np.ones(10**6 - 1))", "MemoryError"),
    ("norm(np.ones(3), axis=2**62)", "AxisError"),
    ("norm(np.ones((3, 3)), axis=(0, 2**62))", "AxisError"),
    ("solve_circulant(np.ones(3), np.ones(3), caxis=2**62)", "ValueError"),
    ("solve_circulant([2.0, 1.0, 0.0], np.ones(3), outaxis=2**62)", "AxisError"),
    ("eigh(np.eye(3), subset_by_index=(0, 2**62))", "ValueError"),
    ("eigvalsh_tridiagonal(np.ones(3), np.ones(2), select='i', select_range=(0, 2**62))", "ValueError"),
]

SCRIPT = """
import numpy as np
import torchbridge
from torchbridge.linalg import *
try:
    {call}
except BaseException as exc:
    names = [c.__name__ for c in type(exc).__mro__]
    print("raised", type(exc).__name__, " ".join(names), "|", str(exc)[:200])
else:
    print("returned")
"""


def _run(call: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT.format(call=call)], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def outcomes():
    # The cases are independent processes: run a few at a time.
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        futures = {call: pool.submit(_run, call) for call, _ in CASES}
        return {call: future.result() for call, future in futures.items()}


@pytest.mark.parametrize("call,expected", CASES)
def test_huge_sizes_raise_cleanly(call, expected, outcomes):
    result = outcomes[call]
    assert result.returncode == 0, f"{call} killed the process (rc {result.returncode}): {result.stderr[-2000:]}"
    words = result.stdout.split()
    assert words and words[0] == "raised", f"{call}: {result.stdout!r}"
    mro = result.stdout.split("|")[0].split()[2:]
    assert "PanicException" not in mro, f"{call}: {result.stdout}"
    assert expected in mro, f"{call}: expected {expected}, got {result.stdout}"
