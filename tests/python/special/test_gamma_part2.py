"""rgamma, gammasgn, poch, ndtri_exp, zetac and spence (src/ops/special/
gamma.rs, erf.rs, zeta.rs, spence.rs) against mpmath (50 digits) where SciPy
is the less accurate one, and their special values."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def test_rgamma_against_mpmath(rng):
    x = np.concatenate([rng.uniform(-185, 185, 400), 10.0 ** rng.uniform(-300, 0, 100)])
    got = tb.special.rgamma(x)
    want = [mp.rgamma(mpf(v)) for v in x]
    finite = np.abs(np.array([float(w) for w in want])) < 1e308
    assert relative_to_mpmath(got[finite], [w for w, f in zip(want, finite) if f]).max() < 5e-15
    # finite where Gamma(-x) * x overflows first: SciPy gives -inf at -170.93
    assert tb.special.rgamma(-170.92575813793937) == pytest.approx(-6.231795758419910e307, rel=1e-14)


def test_poch_large_arguments(rng):
    a = 10.0 ** rng.uniform(1, 5, 200)
    m = rng.uniform(-30, 30, 200) * 10.0 ** rng.uniform(0, 2, 200)
    want = [mp.rf(mpf(x), mpf(y)) for x, y in zip(a, m)]
    keep = (a + m > 1) & np.array([1e-300 < abs(w) < 1e300 for w in want])
    a, m, want = a[keep], m[keep], [w for w, k in zip(want, keep) if k]
    assert len(a) > 60
    got = tb.special.poch(a, m)
    # the condition numbers of (a)_m: m psi(a + m) in m, a (psi(a + m) - psi(a)) in a,
    # and the rounding of a + m (relative a / (a + m)) times psi(a + m)
    b = a + m
    bound = 1e-15 * (30 + np.abs(m) * np.log(a + np.abs(m) + 1) + a / b * np.log(b + 2))
    assert (relative_to_mpmath(got, want) <= bound).all()
    # SciPy's lgamma differences: 3.4e-11 here, torchbridge 1e-14
    x, y = 8591.534175754266, 26.11880250327195
    assert tb.special.poch(x, y) == pytest.approx(float(mp.rf(x, y)), rel=2e-14)


def test_poch_near_poles(rng):
    # a + m next to a negative integer: its rounding costs |psi(a + m)| ulps
    # unless corrected (SciPy: up to 2e-12 here)
    a = rng.uniform(-20, -10, 200)
    m = np.round(a) - 13 - a + rng.uniform(-1e-3, 1e-3, 200) - np.round(a)
    got = tb.special.poch(a, m)
    assert relative_to_mpmath(got, [mp.rf(mpf(x), mpf(y)) for x, y in zip(a, m)]).max() < 1e-14


def test_poch_special_values():
    a = np.array([np.nan, 1.0, -2.0, -2.0, -3.0, -3.0, 2.5, 0.0, 0.0, -2.5, 1e-300, 1e-300])
    m = np.array([0.0, np.nan, 0.0, 1.0, 2.0, 4.0, -2.5, 3.0, -1.0, -0.5, -1.0, -2.0])
    np.testing.assert_array_equal(tb.special.poch(a, m), sc.poch(a, m))


def test_gammasgn_is_scipys():
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, -2.5, -0.5, -1e300, 5e-324, -5e-324])
    np.testing.assert_array_equal(tb.special.gammasgn(x), sc.gammasgn(x))


def test_ndtri_exp_deep_tail(rng):
    y = -(10.0 ** rng.uniform(4, 300, 300))
    got = tb.special.ndtri_exp(y)
    # x solves log Phi(x) = y; log Phi(x) = -x^2/2 - log(-x) - log(2 pi)/2 + log(1 - 1/x^2 + ...)
    def log_ndtr(x):  # the asymptotic series: its first omitted term is 105 / x^8, x < -100
        x2 = x * x
        return -x2 / 2 - mp.log(-x) - mp.log(2 * mp.pi) / 2 + mp.log(1 - 1 / x2 + 3 / x2**2 - 15 / x2**3)

    want = []
    for v in y:
        v = mpf(v)
        x = -mp.sqrt(-2 * v)
        for _ in range(60):  # Newton: d log Phi / dx ~ -x
            x = x - (log_ndtr(x) - v) / (-x - 1 / x)
        want.append(x)
    assert relative_to_mpmath(got, want).max() < 2e-15
    assert tb.special.ndtri_exp(-np.inf) == -np.inf and tb.special.ndtri_exp(0.0) == np.inf
    assert np.isnan(tb.special.ndtri_exp(0.5))


def test_zetac_large_x():
    x = np.array([50.0, 126.0, 127.0, 200.0, 1000.0, 1074.0, 1080.0, 1e300, np.inf])
    got = tb.special.zetac(x)
    want = [sum(mp.mpf(k) ** -mpf(v) for k in range(2, 8)) for v in x[:6]]  # the rest is below 1e-30
    assert relative_to_mpmath(got[:6], want[:6]).max() < 1e-15
    assert (got[6:] == 0).all()
    assert sc.zetac(127.0) == 0.0  # SciPy's cut-off


def test_spence_against_mpmath(rng):
    x = np.concatenate([rng.uniform(0, 5, 300), 10.0 ** rng.uniform(-300, 300, 200), 1 + rng.uniform(-1e-8, 1e-8, 50)])
    got = tb.special.spence(x)
    assert relative_to_mpmath(got, [mp.polylog(2, 1 - mpf(v)) for v in x]).max() < 5e-15
