"""The Kolmogorov distribution (src/ops/special/kolmogorov.rs) against its
series in 50-digit arithmetic, and the inverse's round trip."""

from __future__ import annotations

import numpy as np

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def sf(y):
    y = mpf(y)
    return 2 * mp.nsum(lambda k: (-1) ** (k - 1) * mp.exp(-2 * k * k * y * y), [1, mp.inf])


def test_kolmogorov_against_mpmath(rng):
    y = np.concatenate([rng.uniform(0.3, 3, 300), rng.uniform(0.80, 0.84, 100), rng.uniform(3, 19, 50)])
    got = tb.special.kolmogorov(y)
    # the condition number of sf at y is 4 y^2 (the rounding of y alone)
    assert (relative_to_mpmath(got, [sf(v) for v in y]) <= 3e-15 + 4 * y**2 * 2.3e-16).all()


def test_kolmogi_round_trip(rng):
    p = np.concatenate([rng.uniform(0, 1, 300), 10.0 ** rng.uniform(-300, 0, 200)])
    y = tb.special.kolmogi(p)
    # sf'(y) y / sf(y) is about 4 y^2: the rounding of y alone moves sf that much
    assert (relative_to_mpmath(p, [sf(v) for v in y]) <= 3e-15 + 4 * y**2 * 2.3e-16).all()
    q = 10.0 ** rng.uniform(-16, -1, 100)  # p next to 1: y small, the CDF side
    y = tb.special.kolmogi(1 - q)
    cdf = [1 - sf(v) for v in y]
    assert relative_to_mpmath(1 - (1 - q), cdf).max() < 1e-13


def test_edges():
    assert tb.special.kolmogorov(-1.0) == 1.0 and tb.special.kolmogorov(0.0) == 1.0
    assert tb.special.kolmogorov(np.inf) == 0.0 and tb.special.kolmogorov(1e300) == 0.0
    assert tb.special.kolmogi(0.0) == np.inf and tb.special.kolmogi(1.0) == 0.0
    assert np.isnan(tb.special.kolmogi(1.5)) and np.isnan(tb.special.kolmogi(-0.5))
    assert np.isfinite(tb.special.kolmogi(5e-324))  # SciPy: inf below 1e-308
