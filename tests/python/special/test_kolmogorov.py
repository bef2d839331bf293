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


def test_smirnov_against_scipy(rng):
    import scipy.special as sc

    n = rng.integers(1, 300, 3000)
    d = np.concatenate([rng.uniform(0, 1, 1500), rng.uniform(0, 1, 1500) / np.sqrt(n[:1500])])
    got = tb.special.smirnov(n, d)
    want = sc.smirnov(n, d)
    assert got.dtype == want.dtype == np.float64
    # both sum Birnbaum and Tingey's series beyond double precision (SciPy in double-double,
    # torchbridge in long double); 1e-14 relative into the far tail
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=0)
    big = np.array([2_000_000, 5_000_000])  # SciPy's approximation beyond 10**6
    np.testing.assert_allclose(tb.special.smirnov(big, 1e-4), sc.smirnov(big, 1e-4), rtol=1e-15)
    f32 = tb.special.smirnov(n[:100].astype(np.float32), d[:100].astype(np.float32))
    assert f32.dtype == np.float32
    np.testing.assert_allclose(f32, sc.smirnov(n[:100].astype(np.float32), d[:100].astype(np.float32)), rtol=2e-6)


def test_smirnovi_against_scipy(rng):
    import scipy.special as sc

    n = rng.integers(1, 200, 300)
    p = np.concatenate([rng.uniform(0, 1, 200), 10.0 ** rng.uniform(-300, 0, 100)])
    got = tb.special.smirnovi(n, p)
    want = sc.smirnovi(n, p)
    # each root to a few ulps; the conditioning of the root adds where smirnov is flat
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-300)
    # the round trip where smirnov is well conditioned (its relative slope grows like n / (1 - d))
    mid = (p > 1e-3) & (p < 0.999)
    np.testing.assert_allclose(tb.special.smirnov(n[mid], got[mid]), p[mid], rtol=1e-11)


def test_smirnov_edges_are_scipys():
    import scipy.special as sc

    n = np.array([1, 2, 5, 5, 5, 5, 5, 5, 0, -1, 2**31, 5, 5, 5])
    d = np.array([0.3, 0.5, 0.0, 1.0, 0.2, 0.9, -0.1, 1.1, 0.3, 0.3, 0.3, np.nan, np.inf, 0.8 + 1e-16])
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(tb.special.smirnov(n, d), sc.smirnov(n, d), rtol=1e-15)
        p = np.array([0.3, 0.5, 0.0, 1.0, 0.2, 0.9, -0.1, 1.1, 0.3, 0.3, 0.3, np.nan, np.inf, 1e-300])
        np.testing.assert_allclose(tb.special.smirnovi(n, p), sc.smirnovi(n, p), rtol=1e-14)
    # float orders are truncated, as SciPy's dd->d loop (which warns)
    assert tb.special.smirnov(2.5, 0.3) == 0.61
