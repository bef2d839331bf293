"""The exponential integrals (src/ops/special/expint.rs) against mpmath (50
digits) where torchbridge and SciPy disagree beyond their table rows in
cases.CASES: Ei next to its zero and just above 40, E_n's regimes."""

from __future__ import annotations

import numpy as np
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def test_exp1_against_mpmath(rng):
    x = np.concatenate([rng.uniform(0, 3, 300), 10.0 ** rng.uniform(-300, 2.8, 300)])
    got = tb.special.exp1(x)
    assert relative_to_mpmath(got, [mp.e1(mpf(v)) for v in x]).max() < 3e-15


def test_expi_against_mpmath(rng):
    root = float(mp.findroot(mp.ei, 0.3725))
    x = np.concatenate([
        rng.uniform(-50, 50, 300),
        root + rng.uniform(-0.06, 0.06, 200),  # the zero: SciPy loses every digit
        rng.uniform(40, 45, 100),  # SciPy's asymptotic series starts too early: 2.7e-14
        10.0 ** rng.uniform(-300, 2.85, 200),
    ])
    got = tb.special.expi(x)
    want = [mp.ei(mpf(v)) for v in x]
    assert relative_to_mpmath(got, want).max() < 3e-15
    # what the Taylor series about the zero and the split at 40 fix
    assert relative_to_mpmath(sc.expi(x[300:600]), want[300:600]).max() > 1e-14


def test_expi_between_the_overflows():
    # Ei is finite up to 716.4; SciPy's e^x / x overflows from 709.8
    for x in (709.0, 712.0, 716.0):
        assert np.isfinite(tb.special.expi(x))
        assert abs(tb.special.expi(x) / float(mp.ei(x)) - 1) < 3e-15
    assert tb.special.expi(717.0) == np.inf


def test_expn_against_mpmath(rng):
    n = rng.integers(0, 120, 400)
    x = np.concatenate([rng.uniform(0, 3, 200), 10.0 ** rng.uniform(-10, 2.8, 200)])
    got = tb.special.expn(n, x)
    with mp.workdps(300):  # mpmath's expint cancels at 50 digits for large n and x
        want = [+mp.expint(int(k), mpf(v)) for k, v in zip(n, x)]
    assert relative_to_mpmath(got, want).max() < 2e-14


def test_expn_special_values():
    assert tb.special.expn(2.9, 0.0) == 1.0  # n truncated to 2, as SciPy
    assert np.isnan(tb.special.expn(-1, 1.0)) and np.isnan(tb.special.expn(1, -1.0))
    assert tb.special.expn(0, 0.0) == np.inf and tb.special.expn(51, 0.0) == 1 / 50
    assert tb.special.expn(3, np.inf) == 0.0 and tb.special.expn(170, 1e300) == 0.0
    assert np.isnan(tb.special.expn(1e10, 1.0))
