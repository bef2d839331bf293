"""Tricomi's U and Wright's generalized Bessel function (csrc/hyperu_kernels.h,
csrc/wright_bessel_kernels.h): hyperu, wright_bessel, log_wright_bessel.

The CASES rows (cases.py) compare them with SciPy where SciPy is accurate
(float64, float32, the four CPU containers, the edge grids); here mpmath (40
digits, inside ``mp.workdps``) judges on wider grids, including where SciPy's
specfun CHGU is off or gives nan (hyperu with integer b, negative a, large b),
and the special values (x = 0, x < 0, infinities, nan, -0.0, empty arrays)
follow SciPy's.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp, rel_err

SEED = 20261207


def mp_hyperu(a, b, x):
    out = []
    with mp.workdps(40):
        for p in zip(a, b, x):
            out.append(float(mp.hyperu(*(mp.mpf(float(v)) for v in p))))
    return np.array(out)


def mp_log_wright(a, b, x):
    """log Phi(a, b; x) from the positive series at 40 digits."""
    out = []
    with mp.workdps(40):
        for a_, b_, x_ in zip(a, b, x):
            a_, b_, x_ = mp.mpf(float(a_)), mp.mpf(float(b_)), mp.mpf(float(x_))
            total, k, largest = mp.mpf(0), 0, mp.mpf(0)
            while True:
                arg = a_ * k + b_
                term = x_**k / (mp.factorial(k) * mp.gamma(arg)) if arg > 0 else mp.mpf(0)
                total += term
                largest = max(largest, term)
                if k > 5 and term <= largest and (term < total * mp.mpf(10) ** -25 or total == 0):
                    break
                k += 1
            out.append(float(mp.log(total)) if total > 0 else -np.inf)
    return np.array(out)


# ----------------------------------------------------------------------------------------- hyperu

def hyperu_grid():
    a = [-3.5, -2, -1.3, -0.5, -0.1, 0.1, 0.5, 1, 1.7, 2, 3.3, 7, 15.5]
    b = [-3, -2.5, -1, -0.3, 0, 0.5, 1, 1.5, 2, 2.000001, 3, 4.7, 10]
    x = [1e-8, 1e-3, 0.1, 0.7, 1.0, 2.5, 7, 15, 30, 80, 300]
    g = np.array(np.meshgrid(a, b, x, indexing="ij")).reshape(3, -1)
    return g[0], g[1], g[2]


def test_hyperu_against_mpmath_on_a_grid():
    a, b, x = hyperu_grid()
    want = mp_hyperu(a, b, x)
    ours = rel_err(tb.special.hyperu(a, b, x), want)
    theirs = rel_err(sc.hyperu(a, b, x), want)
    assert np.isfinite(want).all()
    # torchbridge: 4e-11 at worst (integer b >= 10 with a < 1: the recurrence in a from two
    # integrals), 1e-13 for 99%; SciPy is off by up to 1e5 relative here, and nan on some points
    assert ours.max() < 1e-10, ours.max()
    assert np.quantile(ours, 0.99) < 1e-13
    assert np.nanmax(theirs) > 1e-3 and np.isnan(sc.hyperu(a, b, x)).sum() > 10


def test_hyperu_random_against_mpmath():
    rng = np.random.default_rng(SEED)
    n = 300
    a, b = rng.uniform(-10, 20, n), rng.uniform(-10, 20, n)
    x = 10.0 ** rng.uniform(-3, 2.5, n)
    want = mp_hyperu(a, b, x)
    err = rel_err(tb.special.hyperu(a, b, x), want)
    assert err.max() < 1e-11, err.max()
    assert np.median(err) < 1e-15


def test_hyperu_follows_scipy_and_mpmath_judges_the_differences():
    rng = np.random.default_rng(SEED + 1)
    n = 5000
    a, b, x = rng.uniform(0.1, 5, n), rng.uniform(-3, 3, n), rng.uniform(0.5, 20, n)
    ours, theirs = tb.special.hyperu(a, b, x), sc.hyperu(a, b, x)
    # SciPy's specfun CHGU (Gauss-Legendre integrals) is only about 1e-6 accurate here
    err = rel_err(ours, theirs)
    assert err.max() < 2e-6
    worst = np.argsort(-err)[:40]
    want = mp_hyperu(a[worst], b[worst], x[worst])
    assert rel_err(ours[worst], want).max() < 1e-14
    assert rel_err(theirs[worst], want).min() > 1e-9


def test_hyperu_polynomials_and_known_values():
    x = np.array([0.25, 1.0, 3.0, 40.0])
    # U(-m, b, x) is a polynomial: U(-1, b, x) = x - b, U(-2, b, x) = x^2 - 2(b+1)x + b(b+1)
    np.testing.assert_allclose(tb.special.hyperu(-1.0, 2.5, x), x - 2.5, rtol=1e-15)
    np.testing.assert_allclose(tb.special.hyperu(-2.0, 2.5, x), x**2 - 7 * x + 8.75, rtol=1e-14)
    # U(a, a + 1, x) = x^-a; U(1, 1, x) = e^x E1(x)
    np.testing.assert_allclose(tb.special.hyperu(0.7, 1.7, x), x**-0.7, rtol=1e-15)
    np.testing.assert_allclose(tb.special.hyperu(1.0, 1.0, x), np.exp(x) * sc.exp1(x), rtol=1e-14)
    # (a, b) = (-2, -1): both a and a - b + 1 = 0 are polynomial: U = x^2 exactly
    assert tb.special.hyperu(-2.0, -1.0, 1e-8) == pytest.approx(1e-16, rel=1e-15)


def test_hyperu_special_values_follow_scipy():
    a = np.array([-3, -2.5, -2, -1, -0.5, 0, 0.5, 1, 2, 3.5])
    b = np.array([-3, -2.5, -2, -1, -0.5, 0, 0.5, 1, 1.5, 2])
    aa, bb = (v.ravel() for v in np.meshgrid(a, b))
    for x in (0.0, -0.0):
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(tb.special.hyperu(aa, bb, x), sc.hyperu(aa, bb, x), rtol=1e-14,
                                       equal_nan=True)
    # x < 0 and nan: nan
    assert np.isnan(tb.special.hyperu(1.0, 2.0, -1.0))
    for args in ((np.nan, 1.0, 1.0), (1.0, np.nan, 1.0), (1.0, 1.0, np.nan)):
        assert np.isnan(tb.special.hyperu(*args))
    # x = inf: the limit (0, 1 or inf) where U is x^(1-b) times a polynomial, as SciPy; nan elsewhere
    # (SciPy's specfun also gives an inf at (-1.5, -2), torchbridge nan)
    inf_cases = [(0.0, 1.5), (-1.0, 2.0), (-2.0, -3.0), (1.0, 2.0), (2.0, 3.0), (0.5, 1.5), (-0.5, 0.5),
                 (1.0, 1.0), (0.5, 0.5), (3.0, 1.0), (-0.5, 1.0)]
    for a_, b_ in inf_cases:
        np.testing.assert_equal(tb.special.hyperu(a_, b_, np.inf), sc.hyperu(a_, b_, np.inf))


def test_hyperu_dtypes_and_empty():
    assert tb.special.hyperu(np.float32(1), np.float32(1.5), np.float32(2)).dtype == np.float32
    got = tb.special.hyperu(np.float32([1, 2]), np.float32(1.5), np.float32([0.5, 3]))
    np.testing.assert_allclose(got, sc.hyperu(np.float32([1, 2]), np.float32(1.5), np.float32([0.5, 3])),
                               rtol=1e-6)
    assert tb.special.hyperu(np.zeros(0), 1.0, 1.0).shape == (0,)


# ----------------------------------------------------------------------------------- wright_bessel

def wright_grid():
    rng = np.random.default_rng(SEED + 2)
    a = [0, 1e-3, 0.1, 0.5, 1, 2, 5, 20]
    b = [0, 0.5, 1, 2.5, 10]
    x = [1e-5, 0.1, 1, 10, 100, 700]
    g = np.array(np.meshgrid(a, b, x, indexing="ij")).reshape(3, -1)
    n = 100
    r = np.c_[rng.uniform(0, 5, n), rng.uniform(0, 10, n), 10.0 ** rng.uniform(-3, 3, n)].T
    return np.concatenate([g, r], axis=1)


def test_wright_bessel_against_mpmath():
    a, b, x = wright_grid()
    want_log = mp_log_wright(a, b, x)
    want = np.exp(want_log)
    ok = np.isfinite(want) & (want > 0)
    err = rel_err(tb.special.wright_bessel(a, b, x)[ok], want[ok])
    assert err.max() < 1e-13, err.max()
    fin = np.isfinite(want_log)
    log_err = np.abs(tb.special.log_wright_bessel(a, b, x)[fin] - want_log[fin]) / np.maximum(np.abs(want_log[fin]), 1)
    assert log_err.max() < 1e-14
    # where Phi is 0 (b = 0 at x = 0 only), the log is -inf; where Phi overflows, inf
    assert np.array_equal(np.isinf(tb.special.wright_bessel(a, b, x)), np.isinf(want))


def test_wright_bessel_follows_scipy():
    rng = np.random.default_rng(SEED + 3)
    n = 5000
    a, b, x = rng.uniform(0, 5, n), rng.uniform(0, 10, n), rng.uniform(0, 50, n)
    assert rel_err(tb.special.wright_bessel(a, b, x), sc.wright_bessel(a, b, x)).max() < 1e-12
    x = 10.0 ** rng.uniform(-2, 4, n)
    got, want = tb.special.log_wright_bessel(a, b, x), sc.log_wright_bessel(a, b, x)
    # SciPy's asymptotic expansion for small a and large x is up to 1.4e-9 off (mpmath sides with the
    # series: log_wright_bessel(0.1795, 6.5664, 377.495) = 211.289631855853, SciPy 211.2896319549)
    assert (np.abs(got - want) / np.maximum(np.abs(want), 1.0)).max() < 3e-9
    close = x < 100
    assert (np.abs(got - want) / np.maximum(np.abs(want), 1.0))[close].max() < 1e-12


def test_wright_bessel_closed_forms():
    x = np.array([0.0, 0.5, 3.0, 40.0])
    # a = 0: e^x / Gamma(b); a = 1, b = 1: I0(2 sqrt x)
    np.testing.assert_allclose(tb.special.wright_bessel(0.0, 2.5, x), np.exp(x) / sc.gamma(2.5), rtol=4e-15)
    np.testing.assert_allclose(tb.special.wright_bessel(1.0, 1.0, x), sc.i0(2 * np.sqrt(x)), rtol=1e-14)
    np.testing.assert_allclose(tb.special.log_wright_bessel(0.0, 2.5, x), x - sc.gammaln(2.5), rtol=1e-15)


def test_wright_bessel_special_values_follow_scipy():
    vals = [0.0, -0.0, 0.5, 1.0, -1.0, np.inf, -np.inf, np.nan]
    g = np.array(np.meshgrid(vals, vals, vals)).reshape(3, -1)
    for ours, theirs in ((tb.special.wright_bessel, sc.wright_bessel),
                         (tb.special.log_wright_bessel, sc.log_wright_bessel)):
        with np.errstate(all="ignore"):
            # (log_wright_bessel(0, 0.5, 0.5) = 0.5 - log(sqrt(pi)): torchbridge's is the rounded value,
            # SciPy's 1.5e-15 off)
            np.testing.assert_allclose(ours(*g), theirs(*g), rtol=2e-15, equal_nan=True)
    assert tb.special.wright_bessel(np.zeros(0), 1.0, 1.0).shape == (0,)
    assert tb.special.log_wright_bessel(np.float32(0.5), np.float32(1), np.float32(2)).dtype == np.float32
