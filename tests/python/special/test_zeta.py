"""Riemann's and Hurwitz's zeta (src/ops/special/zeta.rs).

mpmath (50 digits, set in ``cases``) is the judge where SciPy itself is off.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def test_zeta_against_mpmath():
    s = np.array([-171.5, -60.5, -20.0000047, -9.5, -2.0000047, -1.0, -0.5, -1e-10, 0.0, 0.3,
                  0.999, 1.001, 2.0, 10.0, 60.0])
    reference = [mp.zeta(mpf(v)) for v in s]
    assert relative_to_mpmath(tb.special.zeta(s), reference).max() < 5e-15
    # SciPy loses relative accuracy next to the trivial zeros
    assert relative_to_mpmath(sc.zeta(s[4:5]), reference[4:5]).max() > 1e-12
    assert tb.special.zeta(-2.0) == 0 and tb.special.zeta(1.0) == np.inf
    assert np.isnan(tb.special.zeta(-np.inf)) and tb.special.zeta(np.inf) == 1.0
    x = np.array([2.0, 3.5, 10.0, 2.0, 4.0])
    q = np.array([0.5, 1e-3, 100.0, -1.5, np.inf])
    reference = [mp.zeta(mpf(a), mpf(b)) for a, b in zip(x[:3], q[:3])]
    assert relative_to_mpmath(tb.special.zeta(x[:3], q[:3]), reference).max() < 2e-15
    np.testing.assert_array_equal(tb.special.zeta(x, q), sc.zeta(x, q))


def test_zeta_tails():
    # zeta(0) is exactly -1/2, as SciPy
    assert tb.special.zeta(0.0) == sc.zeta(0.0) == -0.5
    assert tb.special.zeta(np.array([-0.0]))[0] == -0.5
    # the reflection overflowed an intermediate: finite as SciPy (-5.7e297)
    s = np.array([-260.00000000001, -259.5, -200.5, -170.3])
    reference = [mp.zeta(mpf(v)) for v in s]
    assert np.isfinite(tb.special.zeta(s)).all()
    assert relative_to_mpmath(tb.special.zeta(s), reference).max() < 5e-12  # the sine's argument rounds
    # really beyond the range: still inf like SciPy
    assert tb.special.zeta(-400.5) == sc.zeta(-400.5)
    # Hurwitz zeta at huge q: the asymptotic form (libtorch's series gave 0)
    x = np.array([1.75, 2.0, 1.5, 3.0])
    q = np.array([1.49e185, 1e10, 1e200, 1e9])
    reference = [mp.zeta(mpf(a), mpf(b)) for a, b in zip(x, q)]
    assert relative_to_mpmath(tb.special.zeta(x, q), reference).max() < 1e-14
    assert tb.special.zeta(1.75, 1.49e185) == pytest.approx(1.7581221087135674e-139, rel=1e-14)
