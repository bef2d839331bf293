"""Dawson's integral and erfi (src/ops/special/faddeeva.rs) against mpmath
(50 digits), where SciPy's Faddeeva code is the less accurate one."""

from __future__ import annotations

import numpy as np
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def dawson(x):
    x = mpf(x)
    return mp.sqrt(mp.pi) / 2 * mp.exp(-x * x) * mp.erfi(x)


def test_dawsn_against_mpmath(rng):
    x = np.concatenate([rng.uniform(-0.05, 0.05, 200), rng.uniform(-60, 60, 400), 10.0 ** rng.uniform(-300, 1.5, 100)])
    got = tb.special.dawsn(x)
    assert relative_to_mpmath(got, [dawson(v) for v in x]).max() < 3e-15
    # SciPy is 1e-14 relative off for small |x|
    assert relative_to_mpmath(sc.dawsn(x[:200]), [dawson(v) for v in x[:200]]).max() > 3e-15


def test_erfi_against_mpmath(rng):
    x = np.concatenate([rng.uniform(-5, 5, 300), rng.uniform(-26.6, 26.6, 300)])
    got = tb.special.erfi(x)
    assert relative_to_mpmath(got, [mp.erfi(mpf(v)) for v in x]).max() < 5e-15


def test_edges():
    assert tb.special.erfi(np.inf) == np.inf and tb.special.erfi(-np.inf) == -np.inf
    assert tb.special.erfi(27.0) == np.inf
    assert tb.special.dawsn(1e300) == 5e-301 and tb.special.dawsn(5e-324) == 5e-324
    assert np.signbit(tb.special.dawsn(-0.0)) and np.signbit(tb.special.dawsn(-np.inf))
