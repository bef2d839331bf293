"""Convolution and correlation (SciPy's ``_signaltools.py``; src/ops/signal/signaltools/convolve.rs)
against SciPy 1.17.1.

Tolerances. The direct method sums the same products as SciPy in another
order: float64 results agree within 1e-12 of the largest output, float32 within
1e-5; integer results are exact. FFT results carry round-off relative to the
whole output (about eps * log n * max|y|), compared with 1e-12 of the largest.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.signal as ss
from conftest import LIBRARIES, library_type, to_library, to_numpy

from torchbridge import signal as ts

MODES = ["full", "same", "valid"]
METHODS = ["auto", "direct", "fft"]
SHAPES = [
    ((10,), (3,)),
    ((3,), (10,)),
    ((7,), (7,)),
    ((1,), (1,)),
    ((8,), (2,)),
    ((8, 5), (3, 2)),
    ((3, 2), (8, 5)),
    ((4, 5, 6), (2, 3, 2)),
    ((1000,), (50,)),
]


def assert_matches(got, want, tol=1e-12):
    """Same type, dtype and shape as SciPy; values within ``tol`` of the largest (exact for integers)."""
    assert type(got) is type(want), (type(got), type(want))
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if not np.issubdtype(want.dtype, np.inexact):
        np.testing.assert_array_equal(got, want)
        return
    finite = np.isfinite(want)
    np.testing.assert_array_equal(finite, np.isfinite(got))
    np.testing.assert_array_equal(got[~finite], want[~finite])  # nan, inf and -inf where SciPy has them
    scale = np.abs(want[finite]).max() if finite.any() else 1.0
    np.testing.assert_allclose(got[finite], want[finite], rtol=0, atol=tol * max(scale, 1e-300))


def _valid_possible(s1, s2):
    return all(a >= b for a, b in zip(s1, s2)) or all(b >= a for a, b in zip(s1, s2))


@pytest.mark.parametrize(("s1", "s2"), SHAPES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["convolve", "correlate"])
def test_convolve_and_correlate_match_scipy_for_every_method(rng, s1, s2, mode, name):
    a, b = rng.standard_normal(s1), rng.standard_normal(s2)
    for method in METHODS:
        assert_matches(getattr(ts, name)(a, b, mode=mode, method=method), getattr(ss, name)(a, b, mode, method))


@pytest.mark.parametrize(("s1", "s2"), SHAPES + [((10000,), (300,)), ((300,), (10000,)), ((50, 400), (3, 30))])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["fftconvolve", "oaconvolve"])
def test_fft_convolutions_match_scipy(rng, s1, s2, mode, name):
    a, b = rng.standard_normal(s1), rng.standard_normal(s2)
    assert_matches(getattr(ts, name)(a, b, mode=mode), getattr(ss, name)(a, b, mode=mode))


@pytest.mark.parametrize("name", ["fftconvolve", "oaconvolve"])
@pytest.mark.parametrize("mode", MODES)
def test_fft_convolutions_along_axes_broadcast_the_others(rng, name, mode):
    x = rng.standard_normal((6, 1, 500))
    h = rng.standard_normal((1, 4, 40))
    for axes in (-1, [2], [0, 2] if mode != "valid" else [2]):
        assert_matches(getattr(ts, name)(x, h, mode=mode, axes=axes), getattr(ss, name)(x, h, mode=mode, axes=axes))
    # complex input: the complex transform
    z = x + 1j * rng.standard_normal(x.shape)
    assert_matches(getattr(ts, name)(z, h, mode=mode, axes=-1), getattr(ss, name)(z, h, mode=mode, axes=-1))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm", "pad", "circular", "symmetric"])
@pytest.mark.parametrize(("s1", "s2"), [((8, 5), (3, 2)), ((3, 2), (8, 5)), ((2, 3), (3, 4)), ((6, 6), (5, 5))])
def test_convolve2d_and_correlate2d_match_scipy_in_every_boundary(rng, mode, boundary, s1, s2):
    a, b = rng.standard_normal(s1), rng.standard_normal(s2)
    for name in ("convolve2d", "correlate2d"):
        for fillvalue in (0, 1.5, np.array([-2.0])):
            got = getattr(ts, name)(a, b, mode=mode, boundary=boundary, fillvalue=fillvalue)
            assert_matches(got, getattr(ss, name)(a, b, mode, boundary, fillvalue))


def test_convolve2d_extends_any_distance_and_takes_complex_fill(rng):
    # a kernel larger than the input: wrap and symm repeat the input several times over
    a, k = rng.standard_normal((2, 3)), rng.standard_normal((7, 9))
    for boundary in ("wrap", "symm"):
        assert_matches(ts.convolve2d(a, k, boundary=boundary), ss.convolve2d(a, k, boundary=boundary))
    z = a + 1j
    assert_matches(ts.convolve2d(z, k, fillvalue=1 - 2j), ss.convolve2d(z, k, fillvalue=1 - 2j))
    assert_matches(ts.correlate2d(z, k, "same", fillvalue=3j), ss.correlate2d(z, k, "same", fillvalue=3j))


@pytest.mark.parametrize(
    ("dtype1", "dtype2"),
    [("int64", "int64"), ("int8", "int8"), ("int32", "float32"), ("float32", "float32"), ("float32", "float64"),
     ("uint8", "int16"), ("complex64", "float32"), ("complex128", "int64")],
)
def test_result_dtypes_are_scipys(rng, dtype1, dtype2):
    a = (rng.standard_normal((12, 5)) * 4).astype(dtype1)
    b = (rng.standard_normal((3, 2)) * 4).astype(dtype2)
    # SciPy transforms single-precision input in single precision (as torchbridge does)
    tol = 1e-5 if {dtype1, dtype2} & {"float32", "complex64"} else 1e-12
    for method in METHODS:
        assert_matches(ts.convolve(a, b, method=method), ss.convolve(a, b, method=method), tol)
        assert_matches(ts.correlate(a, b, "same", method=method), ss.correlate(a, b, "same", method=method), tol)
    assert_matches(ts.fftconvolve(a, b), ss.fftconvolve(a, b), tol)
    assert_matches(ts.convolve2d(a, b), ss.convolve2d(a, b), tol)


def test_integers_are_exact_and_wrap_as_numpy(rng):
    big = rng.integers(-(2**40), 2**40, 50)
    kernel = rng.integers(-(2**10), 2**10, 7)
    # beyond float64's mantissa: SciPy's auto method goes direct, which is exact
    assert ts.choose_conv_method(big, kernel) == ss.choose_conv_method(big, kernel) == "direct"
    np.testing.assert_array_equal(ts.convolve(big, kernel), ss.convolve(big, kernel))
    small = np.array([100, 120, 90], np.int8)
    got, want = ts.convolve(small, small, method="direct"), ss.convolve(small, small, method="direct")
    assert got.dtype == want.dtype == np.int8
    np.testing.assert_array_equal(got, want)


def test_bool_convolution_is_numpys_logical_sum():
    a, b = np.array([1, 0, 0, 1, 0], bool), np.array([1, 1], bool)
    for method in ("auto", "direct"):
        got, want = ts.convolve(a, b, method=method), ss.convolve(a, b, method=method)
        assert got.dtype == want.dtype == np.bool_
        np.testing.assert_array_equal(got, want)
    # SciPy's FFT method casts the unrounded float result to bool, so that its round-off (1e-17
    # where the sum is 0) reads True; torchbridge rounds first: the logical sum on every method
    np.testing.assert_array_equal(ts.convolve(a, b, method="fft"), ss.convolve(a, b, method="direct"))


@pytest.mark.parametrize("lib", LIBRARIES)
def test_results_come_back_in_the_callers_library(rng, lib):
    a, b = rng.standard_normal((40,)), rng.standard_normal((5,))
    xa, xb = to_library(lib, a), to_library(lib, b)
    for name in ("convolve", "correlate", "fftconvolve", "oaconvolve"):
        got = getattr(ts, name)(xa, xb, mode="same")
        assert isinstance(got, library_type(lib)), (name, type(got))
        np.testing.assert_allclose(to_numpy(got), getattr(ss, name)(a, b, mode="same"), rtol=0, atol=1e-12)
    m, k = to_library(lib, rng.standard_normal((6, 7))), to_library(lib, rng.standard_normal((2, 3)))
    got = ts.convolve2d(m, k, boundary="symm")
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), ss.convolve2d(to_numpy(m), to_numpy(k), boundary="symm"), atol=1e-12)


def test_inputs_are_not_modified(rng):
    a, b = rng.standard_normal((30, 4)), rng.standard_normal((5, 3))
    a0, b0 = a.copy(), b.copy()
    for name in ("convolve", "correlate", "fftconvolve", "oaconvolve", "convolve2d", "correlate2d"):
        getattr(ts, name)(a, b)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)


def test_scalars_empty_and_non_finite_input():
    assert ts.convolve(np.array(2.0), np.array(3)) == ss.convolve(np.array(2.0), np.array(3))
    assert ts.correlate(np.array(2.0), np.array(1j)) == ss.correlate(np.array(2.0), np.array(1j))
    for name in ("fftconvolve", "oaconvolve"):
        got, want = getattr(ts, name)(np.ones(0), np.ones(3)), getattr(ss, name)(np.ones(0), np.ones(3))
        assert got.shape == want.shape == (0,) and got.dtype == want.dtype
    x = np.ones(100)
    x[0] = np.nan
    with pytest.warns(RuntimeWarning, match="NAN or inf"):
        got = ts.convolve(x, np.ones(90), method="fft")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(ss.convolve(x, np.ones(90), method="fft")))
    # the direct method keeps NaN where it belongs, inf and -0.0 as SciPy
    y = np.array([1.0, np.inf, -0.0, 2.0])
    assert_matches(ts.convolve(y, np.array([1.0, 0.5]), method="direct"),
                   ss.convolve(y, np.array([1.0, 0.5]), method="direct"))


def test_complex_valid_correlation_is_the_correlation_on_every_path(rng):
    # SciPy's n-D direct path conjugates this case (its 1-D and FFT paths do not); torchbridge never does
    a, b = rng.standard_normal(3) + 1j * rng.standard_normal(3), rng.standard_normal(5) + 1j
    want = ss.correlate(a, b, "valid", method="direct")
    np.testing.assert_allclose(want, ss.correlate(a, b, "valid", method="fft"), atol=1e-12)
    for method in METHODS:
        np.testing.assert_allclose(ts.correlate(a, b, "valid", method=method), want, atol=1e-12)
        np.testing.assert_allclose(ts.correlate(a[None], b[None], "valid", method=method)[0], want, atol=1e-12)


def test_choose_conv_method_is_scipys_choice(rng):
    for s1, s2 in [((10,), (3,)), ((1000,), (500,)), ((100000,), (10,)), ((100000,), (1000,)), ((64, 64), (9, 9)),
                   ((256, 256), (32, 32)), ((5,), (5000,))]:
        a, b = rng.standard_normal(s1), rng.standard_normal(s2)
        for mode in MODES:
            if mode == "valid" and not _valid_possible(s1, s2):
                continue
            assert ts.choose_conv_method(a, b, mode) == ss.choose_conv_method(a, b, mode), (s1, s2, mode)
    method, times = ts.choose_conv_method(rng.standard_normal(200), rng.standard_normal(20), measure=True)
    assert method in ("fft", "direct") and set(times) == {"fft", "direct"}
    assert method == min(times, key=times.get) and all(t > 0 for t in times.values())


@pytest.mark.parametrize("mode", MODES)
def test_correlation_lags_are_scipys(mode):
    for n1 in range(1, 9):
        for n2 in range(1, 9):
            got, want = ts.correlation_lags(n1, n2, mode), ss.correlation_lags(n1, n2, mode)
            assert type(got) is np.ndarray and got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


def test_bad_input_is_refused_with_scipys_messages():
    a, b = np.ones(5), np.ones(3)
    with pytest.raises(ValueError, match="Acceptable mode flags"):
        ts.convolve(a, b, mode="middle")
    with pytest.raises(ValueError, match="Acceptable mode flags"):
        ts.fftconvolve(a, b, mode=1)
    with pytest.raises(ValueError, match="Acceptable method flags"):
        ts.correlate(a, b, method="slow")
    with pytest.raises(ValueError, match="same dimensionality"):
        ts.convolve(a, np.ones((2, 2)))
    with pytest.raises(ValueError, match="same dimensionality"):
        ts.fftconvolve(a, np.ones((2, 2)))
    with pytest.raises(ValueError, match="at least as large as the other in every dimension"):
        ts.convolve(np.ones((3, 2)), np.ones((2, 3)), mode="valid")
    with pytest.raises(ValueError, match="axes cannot be empty"):
        ts.fftconvolve(a, b, axes=[])
    with pytest.raises(ValueError, match="incompatible shapes for in1 and in2: \\(2, 5\\) and \\(3, 3\\)"):
        ts.fftconvolve(np.ones((2, 5)), np.ones((3, 3)), axes=1)
    with pytest.raises(ValueError, match="must both be 2-D arrays"):
        ts.convolve2d(a, b)
    with pytest.raises(ValueError, match="Acceptable boundary flags"):
        ts.convolve2d(np.ones((3, 3)), np.ones((2, 2)), boundary="mirror")
    with pytest.raises(ValueError, match="Incorrect boundary value"):
        ts.correlate2d(np.ones((3, 3)), np.ones((2, 2)), boundary="reflect")
    with pytest.raises(ValueError, match="scalar or an array with one element"):
        ts.convolve2d(np.ones((3, 3)), np.ones((2, 2)), fillvalue=np.array([1, 2]))
    with pytest.raises(ValueError, match="could not cast `fillvalue`"):
        ts.convolve2d(np.ones((3, 3)), np.ones((2, 2)), fillvalue=1j)
    with pytest.raises(ValueError, match="not available for this type"):
        ts.convolve2d(np.ones((3, 3), bool), np.ones((2, 2), bool))
    with pytest.raises(ValueError, match="Mode sideways is invalid"):
        ts.correlation_lags(3, 2, "sideways")
    with pytest.raises(ValueError, match="empty input"):
        ts.convolve(np.ones(0), b, method="direct")
