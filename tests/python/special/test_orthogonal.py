"""The orthogonal polynomials (src/ops/special/orthogonal.rs): degrees, edges and
overflow against SciPy's recurrences."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import POLYNOMIALS, assert_close, ours, scipy_call


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_edges_with_integer_degree(name):
    n = np.array([-4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 10, 11, 25])
    x = np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0])
    if name.startswith("eval_hermite"):
        n = n[n >= 0]
    nn, xx = (m.ravel() for m in np.meshgrid(n, x))
    want = scipy_call(name, nn, xx)
    got = ours(name)(nn, xx)
    # libtorch's kernels return garbage for nan x; SciPy's recurrences set the
    # pattern of nan and inf at infinite x, which torchbridge follows
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14, equal_nan=True)


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_overflow_gives_the_leading_terms_infinity(name):
    # SciPy's recurrences end in nan as often as inf here; the limit is +-inf
    n = np.array([3, 25, 170]) if name != "eval_laguerre" else np.array([3, 25, 170])
    for x in (1e300, -1e300):
        got = ours(name)(n, x)
        lead = np.sign(-x if name == "eval_laguerre" else x) ** n
        assert np.array_equal(got, lead * np.inf), (x, got)


@pytest.mark.parametrize("name", ["eval_chebyt", "eval_chebyu", "eval_laguerre", "eval_legendre"])
def test_polynomials_with_integral_real_degree(name, rng):
    n = rng.integers(0, 25, 4000).astype(np.float64)
    x = rng.uniform(-1, 1, 4000)
    want = scipy_call(name, n, x)
    got = ours(name)(n, x)
    assert got.dtype == np.float64
    # SciPy evaluates real degrees through hypergeometric functions: its Laguerre
    # values there lose up to 1e-9 relative (torchbridge keeps the recurrence)
    rtol = 1e-8 if name == "eval_laguerre" else 1e-10
    assert_close(got, want, rtol, 1e-12, scale_atol=True)
    # negative integral degrees follow SciPy's rules (nan for Laguerre)
    neg = np.array([-3.0, -2.0, -1.0])
    assert_close(ours(name)(neg, 0.3), scipy_call(name, neg, 0.3), 1e-12, 1e-15)


@pytest.mark.parametrize("name", ["eval_chebyt", "eval_chebyu", "eval_laguerre", "eval_legendre"])
def test_polynomials_refuse_non_integer_degrees(name):
    with pytest.raises(tb.UnsupportedParameterError, match="non-integer degree"):
        ours(name)(np.array([2.5]), np.array([0.3]))
    # nan and infinite degrees give nan, as SciPy
    got = ours(name)(np.array([np.nan, np.inf]), 0.3)
    assert np.isnan(got).all() and np.isnan(scipy_call(name, np.array([np.nan, np.inf]), 0.3)).all()


def test_hermite_takes_integer_degrees_only():
    with pytest.raises(TypeError):
        sc.eval_hermite(2.0, 0.5)
    with pytest.raises(tb.DtypeError, match="eval_hermite does not accept float64"):
        tb.special.eval_hermite(2.0, 0.5)
    assert np.isnan(tb.special.eval_hermite(-1, 0.5)) and np.isnan(sc.eval_hermite(-1, 0.5))
