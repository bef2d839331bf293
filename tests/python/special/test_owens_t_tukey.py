"""Owen's T (src/ops/special/owens_t.rs) and the Tukey lambda CDF
(src/ops/special/tukey.rs) against 40-digit mpmath, where SciPy is the less
accurate of the two."""

from __future__ import annotations

import numpy as np
import scipy.special as sc

import torchbridge as tb

from .cases import mp, relative_to_mpmath


def owens_t_reference(h, a):
    """T(h, a) by quadrature in u = |h| x, split where the Gaussian falls off."""
    h, a = abs(mp.mpf(float(h))), mp.mpf(float(a))
    if h == 0:
        return mp.atan(a) / (2 * mp.pi)
    sign, a = (1 if a >= 0 else -1), abs(a)
    upper = a * h
    points = [0] + [p for p in (1, 3, 6, 10, 40) if p < upper] + [upper]
    integral = mp.quad(lambda u: mp.exp(-u * u / 2) / (1 + u * u / h**2), points)
    return sign * integral * mp.exp(-h * h / 2) / (h * 2 * mp.pi)


def test_owens_t_against_mpmath(rng):
    h = np.concatenate([rng.uniform(-6, 6, 150), 10 ** rng.uniform(-3, 1.55, 150)])
    a = np.concatenate([rng.uniform(-1, 1, 100), 10 ** rng.uniform(-5, 5, 100), -(10 ** rng.uniform(-2, 2, 100))])
    got = tb.special.owens_t(h, a)
    reference = [owens_t_reference(x, y) for x, y in zip(h, a)]
    # the condition number in h is about h^2 (Q(h)'s); 1e-13 covers h up to 38
    assert relative_to_mpmath(got, reference).max() < 1e-13
    # SciPy's Patefield-Tandy code is up to 1.1e-12 off here
    np.testing.assert_allclose(got, sc.owens_t(h, a), rtol=3e-12, atol=1e-300)


def test_owens_t_edges():
    assert tb.special.owens_t(0.0, 1.0) == sc.owens_t(0.0, 1.0) == 0.125
    assert tb.special.owens_t(0.0, np.inf) == 0.25
    np.testing.assert_allclose(tb.special.owens_t(1.5, np.inf), sc.ndtr(-1.5) / 2, rtol=1e-15)
    np.testing.assert_allclose(tb.special.owens_t(1.5, -np.inf), -sc.ndtr(-1.5) / 2, rtol=1e-15)
    assert tb.special.owens_t(np.inf, 0.5) == 0.0 and tb.special.owens_t(50.0, 3.0) == 0.0
    assert tb.special.owens_t(2.0, 0.0) == 0.0
    assert np.isnan(tb.special.owens_t(np.nan, 1.0)) and np.isnan(tb.special.owens_t(1.0, np.nan))
    # T(h, 1) = Phi(h) Q(h) / 2, even in h, odd in a
    h = np.linspace(-5, 5, 41)
    np.testing.assert_allclose(tb.special.owens_t(h, 1.0), sc.ndtr(h) * sc.ndtr(-h) / 2, rtol=1e-14)
    np.testing.assert_array_equal(tb.special.owens_t(h, 0.7), tb.special.owens_t(-h, 0.7))
    np.testing.assert_array_equal(tb.special.owens_t(h, -0.7), -tb.special.owens_t(h, 0.7))
    assert tb.special.owens_t(np.zeros((0, 2)), 1.0).shape == (0, 2)


def tukey_cdf_reference(x, lmbda):
    """Solve (p^l - (1 - p)^l) / l = x for p in 40 digits."""
    x, lmbda = mp.mpf(float(x)), mp.mpf(float(lmbda))
    if lmbda > 0 and abs(x) >= 1 / lmbda:
        return mp.mpf(0) if x < 0 else mp.mpf(1)

    def quantile(t):  # p = e^t, the lower tail; l -> 0 is the logistic
        p = mp.exp(t)
        if lmbda == 0:
            return t - mp.log1p(-p)
        return (mp.expm1(lmbda * t) - mp.expm1(lmbda * mp.log1p(-p))) / lmbda

    target = -abs(x)
    lo, hi = mp.mpf(-800), mp.log(mp.mpf(1) / 2)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if quantile(mid) > target else (mid, hi)
    tail = mp.exp((lo + hi) / 2)
    return tail if x < 0 else 1 - tail


def test_tklmbda_against_mpmath(rng):
    x = np.concatenate([rng.uniform(-6, 6, 150), -(10 ** rng.uniform(-3, 2, 100))])
    lmbda = np.concatenate([rng.uniform(-2, 2, 100), 10 ** rng.uniform(-8, -3, 50), rng.uniform(0.01, 0.2, 100)])
    got = tb.special.tklmbda(x, lmbda)
    reference = [tukey_cdf_reference(u, v) for u, v in zip(x, lmbda)]
    assert relative_to_mpmath(got, reference).max() < 5e-14
    # SciPy's bisection stops at an absolute 1e-14 (and takes the logistic for |l| < 1e-4)
    mid = (np.abs(np.asarray(got) - 0.5) < 0.45) & (np.abs(lmbda) >= 1e-4)
    np.testing.assert_allclose(got[mid], sc.tklmbda(x, lmbda)[mid], rtol=1e-11, atol=1e-13)


def test_tklmbda_edges():
    assert tb.special.tklmbda(0.0, 0.3) == 0.5 and tb.special.tklmbda(-0.0, -1.0) == 0.5
    # the support of l > 0 is [-1/l, 1/l]
    assert tb.special.tklmbda(-2.0, 0.5) == sc.tklmbda(-2.0, 0.5) == 0.0
    assert tb.special.tklmbda(2.0, 0.5) == sc.tklmbda(2.0, 0.5) == 1.0
    assert tb.special.tklmbda(np.inf, -0.5) == 1.0 and tb.special.tklmbda(-np.inf, -0.5) == 0.0
    # l = 0: the logistic distribution; l = 1 and 2: uniform on [-1, 1], [-1/2, 1/2]
    x = np.linspace(-30, 30, 61)
    np.testing.assert_allclose(tb.special.tklmbda(x, 0.0), sc.expit(x), rtol=3e-15)
    np.testing.assert_allclose(tb.special.tklmbda(np.linspace(-0.9, 0.9, 7), 1.0),
                               (np.linspace(-0.9, 0.9, 7) + 1) / 2, rtol=1e-15)
    np.testing.assert_allclose(tb.special.tklmbda(0.25, 2.0), 0.75, rtol=1e-15)
    assert np.isnan(tb.special.tklmbda(np.nan, 0.5)) and np.isnan(tb.special.tklmbda(0.5, np.nan))
    assert tb.special.tklmbda(np.float32([0.5]), np.float32(0.1)).dtype == np.float32
