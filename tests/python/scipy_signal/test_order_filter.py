"""The order filters, wiener and deconvolve (SciPy's ``_signaltools.py``;
src/ops/signal/signaltools/{order_filter,deconvolve}.rs): order_filter, medfilt,
medfilt2d, wiener, deconvolve, against scipy.signal."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.signal as ss
import torch
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy

from torchbridge import signal as ts


def scipy_quiet(func, *args, **kwargs):
    """SciPy's result, its RuntimeWarnings (divide by zero in wiener) and
    UserWarnings (kernel larger than the input) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def rel(ours, ref) -> float:
    ours, ref = to_numpy(ours), np.asarray(ref)
    assert ours.shape == ref.shape
    finite = np.isfinite(ref)
    assert np.array_equal(finite, np.isfinite(ours))
    scale = max(np.abs(ref[finite]).max(initial=0.0), 1e-300)
    return float(np.abs(ours[finite] - ref[finite]).max(initial=0.0) / scale)


# --- medfilt -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 10, 101])
@pytest.mark.parametrize("kernel", [None, 1, 3, 5, 7, 9, 15, 17, 31])
def test_medfilt_1d_exact(lib, n, kernel, rng):
    x = rng.standard_normal(n)
    ref = scipy_quiet(ss.medfilt, x, kernel)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        out = ts.medfilt(to_library(lib, x), kernel)
    assert isinstance(out, library_type(lib))
    np.testing.assert_array_equal(to_numpy(out), ref)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("kernel", [None, 3, [3, 5], [1, 7], [5, 1], [7, 7], [11, 11]])
def test_medfilt_2d_exact(lib, kernel, rng):
    x = rng.standard_normal((17, 24))
    out = ts.medfilt(to_library(lib, x), kernel)
    np.testing.assert_array_equal(to_numpy(out), ss.medfilt(x, kernel))


def test_medfilt_3d_and_ties(rng):
    x = rng.integers(-3, 4, size=(6, 7, 8)).astype(np.float64)  # many ties
    for kernel in [3, [3, 1, 5], [1, 3, 3]]:
        np.testing.assert_array_equal(to_numpy(ts.medfilt(x, kernel)), ss.medfilt(x, kernel))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "float32", "float64"])
def test_medfilt_dtypes(dtype, rng):
    x = rng.integers(0, 100, size=50).astype(dtype)
    ref = ss.medfilt(x, 5)
    out = ts.medfilt(x, 5)
    assert out.dtype == ref.dtype
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("dtype", ["int16", "float32"])
def test_medfilt_torch_dtypes(dtype, rng):
    x = rng.integers(-50, 50, size=(9, 9)).astype(dtype)
    out = ts.medfilt(torch.from_numpy(x), 3)
    assert dtype_name(out) == dtype
    np.testing.assert_array_equal(out.numpy(), ss.medfilt(x, 3))


def test_medfilt_integer_extremes():
    x = np.array([-128, 127, -128, 127, 0, 5], dtype=np.int8)
    np.testing.assert_array_equal(ts.medfilt(x, 3), ss.medfilt(x, 3))
    # uint64 at and above 2**63: SciPy's ndimage orders them as negative int64 (its result here is
    # [0, 2**64 - 1, 0, 2**64 - 2, 0]); torchbridge orders them as the unsigned values they are
    y = np.array([2**64 - 1, 0, 2**63, 7, 2**64 - 2], dtype=np.uint64)
    padded = np.r_[np.uint64(0), y, np.uint64(0)]
    want = np.array([np.sort(padded[i:i + 3])[1] for i in range(5)], dtype=np.uint64)
    out = ts.medfilt(y, 3)
    assert out.dtype == np.uint64
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(want, [0, 2**63, 7, 2**63, 7])
    for dtype in ["uint16", "uint32"]:
        top = np.iinfo(dtype).max
        z = np.array([top, 0, top // 2 + 1, 7, top - 1, 3], dtype=dtype)
        np.testing.assert_array_equal(ts.medfilt(z, 3), ss.medfilt(z, 3))


def test_medfilt_edges_values():
    x = np.array([np.inf, -np.inf, 1.0, 2.0, np.inf, -0.0, 0.0])
    np.testing.assert_array_equal(ts.medfilt(x, 3), ss.medfilt(x, 3))
    # 0-d is taken as 1-d
    with pytest.warns(UserWarning, match="kernel_size exceeds volume extent"):
        out = ts.medfilt(np.array(5.0))
    np.testing.assert_array_equal(out, np.array([0.0]))
    # empty
    with pytest.warns(UserWarning, match="kernel_size exceeds volume extent"):
        out = ts.medfilt(np.array([]), 3)
    assert out.shape == (0,) and out.dtype == np.float64


def test_medfilt_nan_gives_nan_under_the_window():
    x = np.array([1.0, np.nan, 3.0, 2.0, 5.0, 4.0, 6.0])
    out = ts.medfilt(x, 3)
    np.testing.assert_array_equal(out, [np.nan, np.nan, np.nan, 3.0, 4.0, 5.0, 4.0])
    # the sort path (a large footprint) agrees
    big = np.arange(400.0).reshape(20, 20)
    big[10, 10] = np.nan
    out = ts.medfilt(big, [13, 13])
    ref = ss.medfilt(np.where(np.isnan(big), 0.0, big), [13, 13])
    near = np.zeros_like(big, dtype=bool)
    near[4:17, 4:17] = True
    assert np.isnan(out[near]).all()
    np.testing.assert_array_equal(out[~near], ref[~near])


def test_medfilt_warns_when_the_kernel_exceeds():
    with pytest.warns(UserWarning, match="kernel_size exceeds volume extent"):
        ts.medfilt(np.arange(3.0), 5)


@pytest.mark.parametrize(
    ("kernel", "error", "match"),
    [
        (4, ValueError, "should be odd"),
        ([3, 4], ValueError, "should be odd"),
        (0, ValueError, "should be odd"),
        (-1, ValueError, "positive"),
        ([3], ValueError, "one size per dimension"),
        ([3, 3, 3], ValueError, "one size per dimension"),
        (3.0, TypeError, None),
    ],
)
def test_medfilt_bad_kernel(kernel, error, match):
    with pytest.raises(error, match=match):
        ts.medfilt(np.ones((4, 4)), kernel)


@pytest.mark.parametrize("dtype", ["bool", "float16", "complex128"])
def test_medfilt_refuses_scipy_refused_dtypes(dtype):
    x = np.ones(5, dtype=dtype)
    with pytest.raises(ValueError, match=f"dtype={dtype} is not supported by medfilt") as info:
        ts.medfilt(x)
    assert "accepted" in str(info.value)
    with pytest.raises(ValueError, match=f"dtype={dtype} is not supported by medfilt"):
        ss.medfilt(x)


def test_medfilt_does_not_modify_input(rng):
    x = rng.standard_normal(20)
    before = x.copy()
    ts.medfilt(x, 5)
    np.testing.assert_array_equal(x, before)
    t = torch.from_numpy(before.copy())
    ts.medfilt(t, 5)
    np.testing.assert_array_equal(t.numpy(), before)


# --- medfilt2d -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("dtype", ["uint8", "float32", "float64", "int16", "int64"])
@pytest.mark.parametrize("kernel", [3, 5, [3, 5], [1, 3], (7, 1)])
def test_medfilt2d_exact(lib, dtype, kernel, rng):
    x = rng.integers(0, 200, size=(13, 16)).astype(dtype)
    ref = scipy_quiet(ss.medfilt2d, x, kernel)
    out = ts.medfilt2d(to_library(lib, x), kernel)
    assert isinstance(out, library_type(lib))
    assert dtype_name(out) == ref.dtype.name
    np.testing.assert_array_equal(to_numpy(out), ref)


def test_medfilt2d_errors():
    with pytest.raises(ValueError, match="2-d"):
        ts.medfilt2d(np.arange(5.0))
    with pytest.raises(ValueError, match="2-d"):
        ts.medfilt2d(np.ones((2, 3, 4)))
    with pytest.raises(ValueError, match="length two sequence"):
        ts.medfilt2d(np.ones((4, 4)), [3])
    with pytest.raises(ValueError, match="should be odd"):
        ts.medfilt2d(np.ones((4, 4)), 2)
    with pytest.raises(ValueError, match="positive"):
        ts.medfilt2d(np.ones((4, 4)), -1)
    with pytest.raises(ValueError, match="not supported by medfilt"):
        ts.medfilt2d(np.ones((4, 4), dtype=bool))
    # other integers follow medfilt's path: any dimensionality, as in SciPy
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    with pytest.warns(UserWarning, match="kernel_size exceeds volume extent"):
        out = ts.medfilt2d(x, 3)
    np.testing.assert_array_equal(out, scipy_quiet(ss.medfilt2d, x, 3))


# --- order_filter --------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("rank", [0, 1, 2, 3, 4, -1, -2])
def test_order_filter_2d_domain(lib, rank, rng):
    a = rng.standard_normal((11, 14))
    domain = np.array([[1, 0, 1], [0, 1, 1], [1, 0, 0]])
    out = ts.order_filter(to_library(lib, a), to_library(lib, domain), rank)
    assert isinstance(out, library_type(lib))
    np.testing.assert_array_equal(to_numpy(out), ss.order_filter(a, domain, rank))


@pytest.mark.parametrize(
    "domain",
    [[1, 0, 0], [0, 0, 1], [True, False, True], [2.0, 0.0, 0.5], np.ones(5), np.ones(21), [1]],
)
def test_order_filter_1d_domains(domain, rng):
    a = rng.standard_normal(40)
    domain = np.asarray(domain)
    for rank in range(int(np.count_nonzero(domain))):
        np.testing.assert_array_equal(ts.order_filter(a, domain, rank), ss.order_filter(a, domain, rank))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint16", "float32", "float64"])
def test_order_filter_dtypes(dtype, rng):
    a = rng.integers(0, 120, size=(8, 9)).astype(dtype)
    domain = np.ones((3, 5))
    ref = ss.order_filter(a, domain, 7)
    out = ts.order_filter(a, domain, 7)
    assert out.dtype == ref.dtype
    np.testing.assert_array_equal(out, ref)


def test_order_filter_errors():
    a = np.arange(5.0)
    with pytest.raises(ValueError, match="odd number of elements"):
        ts.order_filter(a, np.ones(2), 0)
    with pytest.raises(ValueError, match="rank not within filter footprint size"):
        ts.order_filter(a, np.ones(3), 3)
    with pytest.raises(ValueError, match="rank not within filter footprint size"):
        ts.order_filter(a, np.ones(3), -4)
    with pytest.raises(ValueError, match="rank not within filter footprint size"):
        ts.order_filter(a, np.zeros(3), 0)
    with pytest.raises(ValueError, match="same number of dimensions"):
        ts.order_filter(a, np.ones((3, 3)), 1)
    with pytest.raises(ValueError, match="dtype=bool is not supported by order_filter"):
        ts.order_filter(a > 1, np.ones(3), 1)


# --- wiener --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("mysize", [None, 3, 5, [3, 5], [4, 2], [1, 1]])
def test_wiener_matches_scipy(lib, mysize, rng):
    im = rng.standard_normal((20, 23))
    out = ts.wiener(to_library(lib, im), mysize)
    assert isinstance(out, library_type(lib))
    assert dtype_name(out) == "float64"
    assert rel(out, scipy_quiet(ss.wiener, im, mysize)) < 1e-12


@pytest.mark.parametrize("noise", [0.0, 0.1, 1.0, 10.0])
def test_wiener_given_noise(noise, rng):
    im = rng.standard_normal(200)
    assert rel(ts.wiener(im, 7, noise), scipy_quiet(ss.wiener, im, 7, noise)) < 1e-12


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8", "float16", "float32", "bool"])
def test_wiener_dtypes(dtype, rng):
    im = rng.integers(0, 30, size=(9, 10)).astype(dtype)
    ref = scipy_quiet(ss.wiener, im)
    out = ts.wiener(im)
    assert out.dtype == ref.dtype == np.float64
    assert rel(out, ref) < 1e-12


def test_wiener_constant_regions_and_edges():
    # zero local variance: SciPy's divide by zero picks the local mean, inf/nan as SciPy
    im = np.zeros((6, 6))
    im[2:4, 2:4] = 1.0
    assert rel(ts.wiener(im), scipy_quiet(ss.wiener, im)) < 1e-12
    one = np.array([3.0])
    np.testing.assert_array_equal(ts.wiener(one), scipy_quiet(ss.wiener, one))
    x = np.array([1.0, np.nan, 2.0, 3.0, 4.0, 5.0])
    np.testing.assert_array_equal(np.isnan(ts.wiener(x, 3, 0.5)), np.isnan(scipy_quiet(ss.wiener, x, 3, 0.5)))


def test_wiener_errors():
    with pytest.raises(ValueError, match="same dimensionality"):
        ts.wiener(np.arange(5.0), [3, 3])
    with pytest.raises(NotImplementedError, match="complex"):
        ts.wiener(np.ones(5, dtype=complex))
    with pytest.raises(ValueError, match="positive"):
        ts.wiener(np.ones(5), 0)


# --- deconvolve ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize(("n", "d"), [(1, 1), (5, 1), (10, 3), (40, 3), (100, 7), (33, 33)])
def test_deconvolve_matches_scipy(lib, n, d, rng):
    signal = rng.standard_normal(n)
    divisor = np.r_[1.0, 0.5 * rng.uniform(-1, 1, d - 1) / d]  # minimum phase: the quotient stays bounded
    quot, rem = ts.deconvolve(to_library(lib, signal), to_library(lib, divisor))
    assert isinstance(quot, library_type(lib)) and isinstance(rem, library_type(lib))
    q_ref, r_ref = ss.deconvolve(signal, divisor)
    assert rel(quot, q_ref) < 1e-12
    np.testing.assert_allclose(to_numpy(rem), r_ref, rtol=0, atol=1e-12 * np.abs(signal).max())
    np.testing.assert_allclose(np.convolve(divisor, to_numpy(quot)) + to_numpy(rem), signal, atol=1e-12)


def test_deconvolve_dtypes_and_shapes():
    quot, rem = ts.deconvolve(np.array([1, 2, 3, 4]), np.array([1, 2]))
    q_ref, r_ref = ss.deconvolve(np.array([1, 2, 3, 4]), np.array([1, 2]))
    assert quot.dtype == q_ref.dtype and rem.dtype == r_ref.dtype
    np.testing.assert_array_equal(quot, q_ref)
    np.testing.assert_array_equal(rem, r_ref)
    s = np.array([1, 2, 3j, 4])
    for ours, ref in zip(ts.deconvolve(s, np.array([1, 2])), ss.deconvolve(s, np.array([1, 2]))):
        assert ours.dtype == ref.dtype
        np.testing.assert_allclose(ours, ref, atol=1e-14)
    # a divisor longer than the signal: an empty quotient (SciPy: []), the signal back (a copy)
    signal = np.array([1.0, 2.0, 3.0])
    quot, rem = ts.deconvolve(signal, np.array([1.0, 2.0, 3.0, 4.0]))
    assert quot.shape == (0,) and quot.dtype == np.float64
    np.testing.assert_array_equal(rem, signal)
    rem[0] = 99.0
    assert signal[0] == 1.0
    # scalars are taken as 1-d
    quot, rem = ts.deconvolve(np.float64(6.0), np.float64(2.0))
    np.testing.assert_array_equal(quot, [3.0])


def test_deconvolve_errors():
    with pytest.raises(ValueError, match=r"Parameter signal must be non-empty 1d array, but its shape is \(0,\)!"):
        ts.deconvolve(np.array([]), np.array([1.0]))
    with pytest.raises(ValueError, match=r"Parameter signal must be non-empty 1d array, but its shape is \(2, 2\)!"):
        ts.deconvolve(np.ones((2, 2)), np.array([1.0]))
    with pytest.raises(ValueError, match="Parameter divisor must be non-empty 1d array"):
        ts.deconvolve(np.ones(3), np.ones((1, 1)))
    with pytest.raises(ValueError, match="a\\[0\\]"):
        ts.deconvolve(np.ones(4), np.array([0.0, 2.0]))
