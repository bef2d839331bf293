"""The Python-level functions of SciPy's ``_basic.py`` (polygamma, factorial,
multigammaln) and ``numpy.sinc``."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp


def test_polygamma_types_follow_scipy():
    assert type(tb.special.polygamma(1, 2.0)) is type(sc.polygamma(1, 2.0)) is np.ndarray
    f32 = np.ones(3, np.float32)
    assert tb.special.polygamma(f32, f32).dtype == sc.polygamma(f32, f32).dtype == np.float32
    assert tb.special.polygamma(1, f32).dtype == sc.polygamma(1, f32).dtype == np.float64
    np.testing.assert_array_equal(tb.special.polygamma([-1, 0.5], 2.0), [np.nan, np.nan])
    np.testing.assert_allclose(tb.special.polygamma([0, 1], [[2.0], [3.0]]),
                               sc.polygamma([0, 1], [[2.0], [3.0]]), rtol=1e-14)


def test_multigammaln():
    a = np.array([3.0, 5.5, 20.0])
    for d in [1, 2, 3, 5, np.int64(4)]:
        np.testing.assert_allclose(tb.special.multigammaln(a, d), sc.multigammaln(a, d), rtol=1e-14)
    assert type(tb.special.multigammaln(23.5, 10)) is type(sc.multigammaln(23.5, 10))
    reference = 22.5 * mp.log(mp.pi) + sum(mp.loggamma(23.5 - mp.mpf(j) / 2) for j in range(10))
    assert tb.special.multigammaln(23.5, 10) == pytest.approx(float(reference), rel=1e-15)
    assert tb.special.multigammaln(np.float32(3), 2).dtype == np.float64
    with pytest.raises(ValueError, match="positive integer"):
        tb.special.multigammaln(a, 2.5)
    with pytest.raises(ValueError, match="not met"):
        tb.special.multigammaln(np.array([3.0, 0.4]), 2)


def test_factorial():
    n = np.array([3, 4, -1, 0, 20, 30, 170, 171])
    # correctly rounded n! (SciPy is an ulp off at 170)
    np.testing.assert_array_equal(tb.special.factorial(n)[4:7],
                                  [float(mp.factorial(k)) for k in (20, 30, 170)])
    np.testing.assert_allclose(tb.special.factorial(n), sc.factorial(n), rtol=4e-16)
    assert tb.special.factorial(n).dtype == np.float64
    f = np.array([3.0, 2.5, -1.0, np.nan, 170.0])
    np.testing.assert_allclose(tb.special.factorial(f), sc.factorial(f), rtol=1e-15)
    np.testing.assert_allclose(tb.special.factorial(f, extend="complex"),
                               sc.factorial(f, extend="complex"), rtol=1e-15)
    assert tb.special.factorial(np.float32([3, -1.5]), extend="complex").dtype == np.float32
    for value in [5, 5.0, np.float32(5), -3, 0, 1, None, np.nan, 2.5, np.int8(4)]:
        got, want = tb.special.factorial(value), sc.factorial(value)
        assert type(got) is type(want), value
        np.testing.assert_allclose(got, want, rtol=1e-7, equal_nan=True)
    assert tb.special.factorial(25, exact=True) == sc.factorial(25, exact=True) == 15511210043330985984000000
    exact = tb.special.factorial(np.array([0, 1, 5, 20, -2]), exact=True)
    np.testing.assert_array_equal(exact, sc.factorial(np.array([0, 1, 5, 20, -2]), exact=True))
    assert exact.dtype == np.int64
    assert type(tb.special.factorial(np.array(3.0))) is np.ndarray  # 0-d array, as SciPy
    empty = np.array([], dtype=np.int32)
    assert tb.special.factorial(empty) is empty  # SciPy returns n itself
    with pytest.raises(tb.UnsupportedParameterError, match="20!"):
        tb.special.factorial(np.array([21]), exact=True)
    for bad, kwargs in [(np.array([2.0]), {"exact": True}), (np.array([True]), {}),
                        (3, {"extend": "x"}), (3, {"exact": True, "extend": "complex"}),
                        (2.5, {"exact": True}), (np.array([1j]), {}), (True, {})]:
        with pytest.raises(ValueError):
            tb.special.factorial(bad, **kwargs)
        with pytest.raises(ValueError):
            sc.factorial(bad, **kwargs)


def test_sinc_is_numpys(rng):
    for dtype in ["float16", "float32", "float64", "int32", "bool", "complex64", "complex128"]:
        x = (rng.uniform(-5, 5, 100) * (2 if dtype != "bool" else 1)).astype(dtype)
        x[:3] = 0
        got, want = tb.special.sinc(x), np.sinc(x)
        assert got.dtype == want.dtype, dtype
        tol = 2e-3 if dtype == "float16" else 1e-6 if dtype in ("float32", "complex64") else 1e-15
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    assert type(tb.special.sinc(0.5)) is type(np.sinc(0.5))
    assert tb.special.sinc(0.0) == 1.0
    assert np.isnan(tb.special.sinc(np.inf))


def test_factorial_takes_device():
    assert tb.special.factorial(np.array([3.0, 4.0]), device="cpu").tolist() == [6.0, 24.0]
    assert tb.special.factorial(5.0, device="cpu") == 120.0
