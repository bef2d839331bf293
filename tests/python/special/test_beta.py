"""The beta function and binomial coefficients (src/ops/special/beta.rs).

mpmath (50 digits, set in ``cases``) is the judge where SciPy itself is off.
"""

from __future__ import annotations

import numpy as np
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def test_beta_and_binom_against_mpmath():
    a = np.array([0.5, 30.0, 1e7, -2.5, 1e-300, -1.5, 100.0])
    b = np.array([0.5, 40.0, 2.5, 1.3, 3.0, 0.5, 60.5])
    reference = [mp.beta(mpf(s), mpf(t)) for s, t in zip(a, b)]
    assert relative_to_mpmath(tb.special.beta(a, b), reference).max() < 3e-15
    # past a + b = 171.6 both go through lgamma sums: 3e-14 at (150, 150), as SciPy
    reference = mp.beta(150, 150)
    assert relative_to_mpmath(tb.special.beta(150.0, 150.0), [reference]).max() < 1e-13
    assert relative_to_mpmath(sc.beta(150.0, 150.0), [reference]).max() < 1e-13
    n = np.array([10.0, 50.0, 7.5, -3.5, 1e11, 30.0])
    k = np.array([3.0, 25.0, 2.0, 4.0, 2.0, 0.5])
    reference = [mp.binomial(mpf(s), mpf(t)) for s, t in zip(n, k)]
    assert relative_to_mpmath(tb.special.binom(n, k), reference).max() < 5e-15
    assert tb.special.binom(40.0, 15.0) == sc.binom(40.0, 15.0) == 40225345056.0  # product formula
    assert np.isnan(tb.special.binom(-3.0, 2.0))
    # SciPy's values at the negative integers
    a = np.array([-3.0, -3.0, 0.0, -2.0])
    b = np.array([2.0, 5.0, 3.0, -2.0])
    np.testing.assert_array_equal(tb.special.beta(a, b), sc.beta(a, b))
