"""Savitzky-Golay (SciPy's ``_savitzky_golay.py``; src/ops/signal/savitzky_golay.rs):
savgol_coeffs, savgol_filter, against scipy.signal."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
import torch
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy

from torchbridge import signal as ts

MODES = ["mirror", "constant", "nearest", "wrap", "interp"]


def rel(ours, ref) -> float:
    ours, ref = to_numpy(ours), np.asarray(ref)
    assert ours.shape == ref.shape
    scale = max(np.abs(ref).max(initial=0.0), 1e-300)
    return float(np.abs(ours - ref).max(initial=0.0) / scale)


# --- savgol_coeffs -------------------------------------------------------------------------------


def exact_coeffs(window_length, polyorder, deriv, delta, pos, use):
    """The minimum-norm solution ``A^T (A A^T)^-1 y`` in rational arithmetic (sympy)."""
    import sympy

    if pos is None:
        pos = window_length // 2 if window_length % 2 else sympy.Rational(window_length - 1, 2)
    x = [sympy.nsimplify(-pos + k) for k in range(window_length)]
    if use == "conv":
        x = x[::-1]
    a = sympy.Matrix([[v**o for v in x] for o in range(polyorder + 1)])
    y = sympy.zeros(polyorder + 1, 1)
    y[deriv] = sympy.factorial(deriv) / sympy.nsimplify(delta) ** deriv
    return np.array([float(v) for v in a.T * (a * a.T).inv() * y])



@pytest.mark.parametrize(
    ("window_length", "polyorder", "deriv"),
    [(5, 2, 0), (5, 2, 1), (7, 4, 2), (6, 2, 0), (8, 3, 1), (11, 0, 0), (4, 3, 3), (31, 3, 0), (51, 6, 2), (3, 1, 4)],
)
@pytest.mark.parametrize("use", ["conv", "dot"])
def test_savgol_coeffs_matches_scipy(window_length, polyorder, deriv, use):
    for pos in [None, 0, window_length - 1, window_length // 3]:
        for delta in [1.0, 0.25]:
            ref = ss.savgol_coeffs(window_length, polyorder, deriv, delta, pos, use)
            out = ts.savgol_coeffs(window_length, polyorder, deriv, delta, pos, use)
            assert isinstance(out, np.ndarray) and out.dtype == np.float64
            assert out.shape == ref.shape
            if np.abs(ref).max() == 0:
                np.testing.assert_array_equal(out, ref)
            else:
                # SciPy's unscaled Vandermonde system errs by up to 5e-8 for long windows and high
                # orders; where it disagrees, torchbridge must match the exact solution
                if rel(out, ref) >= 1e-12:
                    assert rel(out, exact_coeffs(window_length, polyorder, deriv, delta, pos, use)) < 1e-10


def test_savgol_coeffs_xp():
    out = ts.savgol_coeffs(7, 2, xp=torch)
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float64
    np.testing.assert_allclose(out.numpy(), ss.savgol_coeffs(7, 2), rtol=1e-13)


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((5, 5), {}, "polyorder must be less than window_length."),
        ((5, 2), {"pos": 5}, "pos must be nonnegative and less than window_length."),
        ((5, 2), {"pos": -1}, "pos must be nonnegative and less than window_length."),
        ((5, 2), {"use": "dott"}, "`use` must be 'conv' or 'dot'"),
        ((5, -1), {}, "polyorder must be nonnegative"),
        ((5, 2), {"deriv": -1}, "deriv must be nonnegative"),
    ],
)
def test_savgol_coeffs_errors(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        ts.savgol_coeffs(*args, **kwargs)


# --- savgol_filter -------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("window_length", "polyorder", "deriv"), [(5, 2, 0), (31, 3, 0), (6, 2, 1), (9, 4, 2)])
def test_savgol_filter_matches_scipy(lib, mode, window_length, polyorder, deriv, rng):
    x = rng.standard_normal(300)
    ref = ss.savgol_filter(x, window_length, polyorder, deriv, 0.5, mode=mode, cval=1.5)
    out = ts.savgol_filter(to_library(lib, x), window_length, polyorder, deriv, 0.5, mode=mode, cval=1.5)
    assert isinstance(out, library_type(lib))
    assert dtype_name(out) == "float64"
    assert rel(out, ref) < 1e-12


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 64, 65, 129])
def test_savgol_filter_lengths(mode, n, rng):
    x = rng.standard_normal(n)
    window_length = 5 if n >= 5 or mode != "interp" else n | 1 if (n | 1) <= n else n
    polyorder = min(2, window_length - 1)
    if mode == "interp" and window_length > n:
        with pytest.raises(ValueError, match="window_length must be less than or equal to the size of x"):
            ts.savgol_filter(x, window_length, polyorder, mode=mode)
        return
    ref = ss.savgol_filter(x, window_length, polyorder, mode=mode)
    assert rel(ts.savgol_filter(x, window_length, polyorder, mode=mode), ref) < 1e-12


@pytest.mark.parametrize("mode", ["mirror", "nearest", "wrap", "constant"])
def test_savgol_filter_window_longer_than_signal(mode, rng):
    # SciPy's modes extend any distance (torch's pads cannot)
    x = rng.standard_normal(4)
    assert rel(ts.savgol_filter(x, 11, 3, mode=mode), ss.savgol_filter(x, 11, 3, mode=mode)) < 1e-12


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("axis", [0, 1, -1, -3])
def test_savgol_filter_axes(mode, axis, rng):
    x = rng.standard_normal((9, 11, 13))
    ref = ss.savgol_filter(x, 7, 2, axis=axis, mode=mode)
    out = ts.savgol_filter(torch.from_numpy(x), 7, 2, axis=axis, mode=mode)
    assert out.shape == x.shape
    assert rel(out, ref) < 1e-12


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int8", "uint8", "bool", "float16"])
def test_savgol_filter_dtypes(dtype, rng):
    x = rng.integers(0, 2 if dtype == "bool" else 50, size=40).astype(dtype)
    ref = ss.savgol_filter(x, 7, 3)
    out = ts.savgol_filter(x, 7, 3)
    assert out.dtype == ref.dtype
    if dtype == "float32":
        # torchbridge filters in float64 and rounds once; SciPy fits the "interp" edges in float32
        # (errors of a few float32 ulps there): ours is within one rounding of the float64 result
        assert rel(out, ss.savgol_filter(x.astype(np.float64), 7, 3)) < 1.2e-7
        assert rel(out, ref) < 1e-5
    else:
        assert rel(out, ref) < 1e-12


def test_savgol_filter_values_and_edges():
    # a polynomial of the filter's order is kept exactly, edges included (interp)
    t = np.arange(50.0)
    p = 0.5 * t**2 - 3 * t + 2
    np.testing.assert_allclose(ts.savgol_filter(p, 9, 2), p, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(ts.savgol_filter(p, 9, 2, deriv=1), t - 3, atol=1e-9)
    # deriv > polyorder: zeros
    np.testing.assert_array_equal(ts.savgol_filter(p, 9, 2, deriv=3), np.zeros(50))
    # non-finite values spread as SciPy's
    x = np.ones(20)
    x[10] = np.nan
    out = ts.savgol_filter(x, 5, 2, mode="mirror")
    np.testing.assert_array_equal(np.isnan(out), np.isnan(ss.savgol_filter(x, 5, 2, mode="mirror")))
    # empty batch axes
    e = np.zeros((0, 10))
    assert ts.savgol_filter(e, 5, 2).shape == (0, 10)


def test_savgol_filter_does_not_modify_input(rng):
    x = rng.standard_normal(50)
    before = x.copy()
    ts.savgol_filter(x, 7, 2)
    np.testing.assert_array_equal(x, before)


def test_savgol_filter_errors():
    x = np.ones(10)
    with pytest.raises(ValueError, match="mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'."):
        ts.savgol_filter(x, 5, 2, mode="reflect")
    with pytest.raises(ValueError, match="polyorder must be less than window_length."):
        ts.savgol_filter(x, 5, 5)
    with pytest.raises(ValueError, match="window_length must be less than or equal to the size of x"):
        ts.savgol_filter(x, 11, 2)
    with pytest.raises(NotImplementedError, match="complex"):
        ts.savgol_filter(x.astype(complex), 5, 2)
    with pytest.raises(Exception, match="axis"):
        ts.savgol_filter(x, 5, 2, axis=1)
