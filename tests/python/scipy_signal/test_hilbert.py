"""torchbridge.signal's detrend, hilbert and hilbert2 against scipy.signal
1.17.1 over the four CPU containers: values, dtypes (float32 stays float32,
complex64 for hilbert of float32; integers give float64/complex128), axes,
break points, nan/empty/length-1 inputs, refusals, inputs left alone.

Tolerances: 1e-13 relative to max |result| in float64 (one FFT pair, or a
closed-form least-squares line against SciPy's lstsq), 2e-6 in float32.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy

import torchbridge.signal as ts


def close(got, want, tol=1e-13, ref=0.0):
    """Within ``tol`` of max(|want|, ``ref``) (``ref``: the input's size, where
    the exact result is zero and SciPy's is rounding noise)."""
    got = to_numpy(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    scale = max(np.max(np.abs(want)) if want.size else 1.0, ref)
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * max(scale, 1e-300))


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("n", [1, 2, 7, 64, 101])
def test_hilbert_matches_scipy(lib, n, rng):
    x = rng.standard_normal((3, n))
    t = to_library(lib, x)
    got = ts.hilbert(t)
    assert isinstance(got, library_type(lib)) and dtype_name(got) == "complex128"
    close(got, ss.hilbert(x))
    close(ts.hilbert(to_library(lib, x.T.copy()), axis=0), ss.hilbert(x.T, axis=0))
    for N in (n + 3, max(n - 1, 1), 2 * n):
        close(ts.hilbert(t, N=N), ss.hilbert(x, N=N))
    np.testing.assert_array_equal(to_numpy(t), x)  # input untouched


def test_hilbert_dtypes(rng):
    x = rng.standard_normal(50)
    got = ts.hilbert(x.astype(np.float32))
    assert got.dtype == np.complex64
    close(got, ss.hilbert(x.astype(np.float32)), 2e-6)
    ints = np.arange(10) ** 2
    close(ts.hilbert(ints), ss.hilbert(ints))
    assert ts.hilbert(np.array([True, False, True])).dtype == np.complex128


def test_hilbert_edges():
    x = np.array([1.0, np.nan, 2.0, 3.0])
    assert np.isnan(ts.hilbert(x)).all() == np.isnan(ss.hilbert(x)).all()
    with pytest.raises(ValueError, match="x must be real"):
        ts.hilbert(np.ones(4, complex))
    with pytest.raises(ValueError, match="N must be positive"):
        ts.hilbert(np.ones(4), N=0)
    with pytest.raises(IndexError):
        ts.hilbert(np.ones(4), axis=2)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("shape", [(8, 8), (7, 9), (1, 5), (3, 4, 6)])
def test_hilbert2_matches_scipy(lib, shape, rng):
    x = rng.standard_normal(shape)
    t = to_library(lib, x)
    got = ts.hilbert2(t)
    assert isinstance(got, library_type(lib))
    close(got, ss.hilbert2(x))
    close(ts.hilbert2(t, N=(5, 10)), ss.hilbert2(x, N=(5, 10)))
    close(ts.hilbert2(t, N=6), ss.hilbert2(x, N=6))
    if len(shape) == 3:
        close(ts.hilbert2(t, axes=(0, 2)), ss.hilbert2(x, axes=(0, 2)))
    np.testing.assert_array_equal(to_numpy(t), x)


def test_hilbert2_one_d_and_refusals(rng):
    x = rng.standard_normal(9)
    close(ts.hilbert2(x), ss.hilbert2(x))
    assert ts.hilbert2(x.astype(np.float32)).dtype == np.complex64
    with pytest.raises(ValueError, match="x must be real"):
        ts.hilbert2(np.ones((3, 3), complex))
    with pytest.raises(ValueError, match="2 distinct axes"):
        ts.hilbert2(np.ones((3, 3)), axes=(1, 1))
    with pytest.raises(ValueError, match="length 2"):
        ts.hilbert2(np.ones((3, 3)), axes=(0, 1, 2))
    with pytest.raises(ValueError, match="N must"):
        ts.hilbert2(np.ones((3, 3)), N=(3, 0))
    with pytest.raises(ValueError, match="N must be positive"):
        ts.hilbert2(np.ones((3, 3)), N=-1)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("kind", ["linear", "constant", "l", "c"])
def test_detrend_matches_scipy(lib, kind, rng):
    x = rng.standard_normal((4, 33)) + np.linspace(0, 5, 33)
    t = to_library(lib, x)
    got = ts.detrend(t, type=kind)
    assert isinstance(got, library_type(lib)) and dtype_name(got) == "float64"
    close(got, ss.detrend(x, type=kind))
    close(ts.detrend(t, axis=0, type=kind), ss.detrend(x, axis=0, type=kind))
    np.testing.assert_array_equal(to_numpy(t), x)


@pytest.mark.parametrize("bp", [0, 5, [3, 20], [10, 10, 33], np.array([7, 1])])
def test_detrend_break_points(bp, rng):
    x = rng.standard_normal((3, 33)) * 0.1 + np.abs(np.arange(33) - 12.0)
    close(ts.detrend(x, bp=bp), ss.detrend(x, bp=bp))
    close(ts.detrend(x.T.copy(), axis=0, bp=bp), ss.detrend(x.T, axis=0, bp=bp))


def test_detrend_dtypes_and_edges(rng):
    x = rng.standard_normal(20)
    for dtype in (np.float32, np.complex64):
        a = (x + 1j * x[::-1] if dtype is np.complex64 else x).astype(dtype)
        for kind in ("linear", "constant"):
            want = ss.detrend(a, type=kind)
            close(ts.detrend(a, type=kind), want, 2e-6)
    ints = np.arange(12) ** 2
    for kind in ("linear", "constant"):
        close(ts.detrend(ints, type=kind), ss.detrend(ints, type=kind))
    z = x + 1j * rng.standard_normal(20)
    close(ts.detrend(z), ss.detrend(z))
    for n in (1, 2):
        close(ts.detrend(x[:n]), ss.detrend(x[:n]), ref=np.max(np.abs(x)))
    nan = x.copy()
    nan[3] = np.nan
    assert np.isnan(ts.detrend(nan, type="constant")).all()
    with pytest.raises(ValueError, match="infs or NaNs"):  # SciPy's lstsq refuses them
        ts.detrend(nan)
    y = x.copy()
    ts.detrend(y, overwrite_data=True)
    np.testing.assert_array_equal(y, x)  # never written into
    with pytest.raises(ValueError, match="Trend type must be"):
        ts.detrend(x, type="quadratic")
    with pytest.raises(ValueError, match="Breakpoints must be less than length"):
        ts.detrend(x, bp=[30])
