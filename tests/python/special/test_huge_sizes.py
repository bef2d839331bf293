"""Calls of torchbridge.special whose size, length, degree or axis comes from
the caller, made huge: each raises a clean exception in a subprocess."""

from __future__ import annotations

import subprocess
import sys

import pytest

# Calls whose size, length, degree or axis comes from the caller, made huge:
# each must raise a clean exception (never abort, hang or PanicException).
HUGE = [
    ("tb.special.multigammaln(1e16, 10**15)", MemoryError),
    ("tb.special.multigammaln(np.full(4, 1e31), 10**30)", MemoryError),
    ("tb.special.multigammaln(1.0, 10**9)", ValueError),
    ("tb.special.factorial(10**9, exact=True)", MemoryError),
    ("tb.special.factorial(np.array([10**9]), exact=True)", NotImplementedError),
    ("tb.special.eval_legendre(10**18, 0.5)", NotImplementedError),
    ("tb.special.eval_hermite(2**62, 0.5)", NotImplementedError),
    ("tb.special.eval_laguerre(-(10**18), 0.5)", NotImplementedError),
    ("tb.special.eval_chebyt(1e300, np.ones(3))", NotImplementedError),
    ("tb.special.eval_chebyu(np.array([5, 2**40]), 0.5)", NotImplementedError),
    ("tb.special.logsumexp(np.ones(3), axis=2**62)", IndexError),
    ("tb.special.logsumexp(np.ones(3), axis=-(2**63))", ValueError),
    ("tb.special.logsumexp(np.ones(3), axis=10**30)", TypeError),
    ("tb.special.softmax(np.ones((2, 2)), axis=(0, 2**62))", IndexError),
    ("tb.special.log_softmax(np.ones(3), axis=2**40)", IndexError),
    # broadcast shapes and zero-stride views whose results do not fit in memory
    ("tb.special.beta(np.ones((10**6, 1)), np.ones((1, 10**8)))", MemoryError),
    ("tb.special.gamma(np.broadcast_to(1.5, (2**44,)))", MemoryError),
    ("tb.special.erf(np.broadcast_to(1.5, (2**44,)))", MemoryError),
    ("tb.special.eval_legendre(np.broadcast_to(3, (2**44,)), 0.5)", MemoryError),
    ("tb.special.logsumexp(np.broadcast_to(1.5, (2**44,)))", MemoryError),
    ("tb.special.softmax(np.broadcast_to(np.float32(1.5), (2**44,)))", MemoryError),
    ("tb.special.polygamma(1, np.broadcast_to(1.5, (2**44,)))", MemoryError),
    ("tb.special.factorial(np.broadcast_to(3.0, (2**44,)))", MemoryError),
]


@pytest.mark.parametrize("call, expected", HUGE, ids=[c for c, _ in HUGE])
def test_huge_sizes_raise_cleanly(call, expected):
    code = (
        "import numpy as np, torchbridge as tb\n"
        f"try:\n    {call}\n"
        "except BaseException as e:\n"
        "    print(','.join(c.__name__ for c in type(e).__mro__))\n"
        "    print(e)\n"
        "else:\n    print('no exception')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    classes = proc.stdout.splitlines()[0].split(",")
    assert "PanicException" not in classes, proc.stdout
    assert expected.__name__ in classes, proc.stdout
