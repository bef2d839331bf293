"""resample, resample_poly and decimate (SciPy's ``_signaltools.py``;
src/ops/signal/signaltools/resample.rs), against scipy.signal."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
import torch
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy

from torchbridge import signal as ts


def rel(ours, ref) -> float:
    ours, ref = to_numpy(ours), np.asarray(ref)
    assert ours.shape == ref.shape
    scale = max(np.abs(ref).max(initial=0.0), 1e-300)
    return float(np.abs(ours - ref).max(initial=0.0) / scale)


# --- resample ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize(
    ("n", "num"), [(16, 128), (15, 120), (16, 10), (17, 9), (20, 20), (8, 9), (9, 8), (1, 5), (6, 1)]
)
def test_resample_matches_scipy(lib, n, num, rng):
    x = rng.standard_normal((n, 3))
    ref = ss.resample(x, num)
    out = ts.resample(to_library(lib, x), num)
    assert isinstance(out, library_type(lib)) and dtype_name(out) == "float64"
    assert rel(out, ref) < 1e-12


@pytest.mark.parametrize(("n", "num"), [(16, 128), (15, 120), (16, 10), (17, 9), (20, 20), (8, 9), (9, 8), (4, 7)])
@pytest.mark.parametrize("domain", ["time", "freq"])
def test_resample_complex_and_freq(n, num, domain, rng):
    x = rng.standard_normal((2, n)) + 1j * rng.standard_normal((2, n))
    ref = ss.resample(x, num, axis=-1, domain=domain)
    out = ts.resample(x, num, axis=-1, domain=domain)
    assert out.dtype == ref.dtype
    assert rel(out, ref) < 1e-12
    xr = rng.standard_normal((2, n))
    ref = ss.resample(xr, num, axis=1, domain=domain)
    out = ts.resample(xr, num, axis=1, domain=domain)
    assert out.dtype == ref.dtype
    assert rel(out, ref) < 1e-12


@pytest.mark.parametrize("window", ["hann", ("kaiser", 3.0), 2.5, "array", "callable"])
@pytest.mark.parametrize(("n", "num"), [(16, 40), (15, 6), (10, 10)])
def test_resample_window(window, n, num, rng):
    x = rng.standard_normal(n)
    if window == "array":
        window = rng.uniform(0.5, 1.0, n)
    elif window == "callable":
        window = lambda f: 1.0 / (1.0 + np.abs(f))  # noqa: E731
    ref = ss.resample(x, num, window=window)
    assert rel(ts.resample(x, num, window=window), ref) < 1e-12
    xc = x + 0.5j * x[::-1]
    assert rel(ts.resample(xc, num, window=window), ss.resample(xc, num, window=window)) < 1e-12


def test_resample_t_and_dtypes(rng):
    x = rng.standard_normal(20).astype(np.float32)
    t = np.linspace(0, 2, 20, endpoint=False)
    out, t_out = ts.resample(x, 50, t=t)
    ref, t_ref = ss.resample(x, 50, t=t)
    assert out.dtype == ref.dtype == np.float32
    assert rel(out, ref) < 1e-5
    assert rel(t_out, t_ref) < 1e-14
    xi = np.arange(12)
    ref = ss.resample(xi, 7)
    out = ts.resample(xi, 7)
    assert out.dtype == ref.dtype and rel(out, ref) < 1e-12


def test_resample_axes(rng):
    x = rng.standard_normal((5, 6, 7))
    for axis in (0, 1, 2, -1):
        ref = ss.resample(x, 11, axis=axis)
        assert rel(ts.resample(torch.from_numpy(x), 11, axis=axis), ref) < 1e-12


def test_resample_errors(rng):
    x = rng.standard_normal(10)
    with pytest.raises(ValueError, match="domain"):
        ts.resample(x, 5, domain="space")
    with pytest.raises(ValueError, match="window length"):
        ts.resample(x, 5, window=np.ones(4))
    with pytest.raises(ValueError):
        ts.resample(x, 0)


# --- resample_poly -------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize(("up", "down"), [(3, 2), (2, 3), (1, 4), (5, 1), (6, 4), (2, 2), (7, 13)])
def test_resample_poly_matches_scipy(lib, up, down, rng):
    x = rng.standard_normal((40, 3))
    ref = ss.resample_poly(x, up, down)
    out = ts.resample_poly(to_library(lib, x), up, down)
    assert isinstance(out, library_type(lib)) and dtype_name(out) == "float64"
    assert rel(out, ref) < 1e-12


@pytest.mark.parametrize(
    "padtype", ["constant", "mean", "median", "maximum", "minimum", "line", "wrap", "edge", "smooth", "symmetric",
                "reflect", "antisymmetric"]
)
def test_resample_poly_padtype(padtype, rng):
    x = rng.standard_normal((2, 31)) + 3.0
    ref = ss.resample_poly(x, 3, 2, axis=1, padtype=padtype)
    assert rel(ts.resample_poly(x, 3, 2, axis=1, padtype=padtype), ref) < 1e-12
    x = rng.standard_normal((2, 30)) + 3.0
    ref = ss.resample_poly(x, 2, 5, axis=-1, padtype=padtype)
    assert rel(ts.resample_poly(x, 2, 5, axis=-1, padtype=padtype), ref) < 1e-12


def test_resample_poly_cval_window_dtypes(rng):
    x = rng.standard_normal(50)
    ref = ss.resample_poly(x, 4, 3, cval=1.5)
    assert rel(ts.resample_poly(x, 4, 3, cval=1.5), ref) < 1e-12
    for window in ["hann", ("kaiser", 8.0), [0.25, 0.5, 0.25], np.hanning(21)]:
        ref = ss.resample_poly(x, 3, 2, window=window)
        assert rel(ts.resample_poly(x, 3, 2, window=window), ref) < 1e-12
    x32 = x.astype(np.float32)
    ref = ss.resample_poly(x32, 3, 2)
    out = ts.resample_poly(x32, 3, 2)
    assert out.dtype == ref.dtype == np.float32 and rel(out, ref) < 1e-5
    xi = np.arange(20)
    ref = ss.resample_poly(xi, 3, 2)
    out = ts.resample_poly(xi, 3, 2)
    assert out.dtype == ref.dtype and rel(out, ref) < 1e-12
    xc = x + 1j * x[::-1]
    ref = ss.resample_poly(xc, 2, 3)
    out = ts.resample_poly(xc, 2, 3)
    assert out.dtype == ref.dtype and rel(out, ref) < 1e-12
    same = ts.resample_poly(xi, 2, 2)
    assert same.dtype == xi.dtype and np.array_equal(same, xi)
    assert rel(ts.resample_poly(x, 3.0, 2.0), ss.resample_poly(x, 3.0, 2.0)) < 1e-12


def test_resample_poly_random(rng):
    for _ in range(10):
        shape = tuple(int(s) for s in rng.integers(1, 30, 2))
        axis = int(rng.integers(-2, 2))
        up, down = int(rng.integers(1, 8)), int(rng.integers(1, 8))
        x = rng.standard_normal(shape)
        ref = ss.resample_poly(x, up, down, axis=axis)
        assert rel(ts.resample_poly(x, up, down, axis=axis), ref) < 1e-12


def test_resample_poly_errors(rng):
    x = rng.standard_normal(10)
    with pytest.raises(ValueError, match="up must be an integer"):
        ts.resample_poly(x, 1.5, 1)
    with pytest.raises(ValueError, match="down must be an integer"):
        ts.resample_poly(x, 1, 2.5)
    with pytest.raises(ValueError, match=">= 1"):
        ts.resample_poly(x, 0, 1)
    with pytest.raises(ValueError, match="cval has no effect"):
        ts.resample_poly(x, 2, 1, padtype="mean", cval=1.0)
    with pytest.raises(ValueError, match="padtype must be one of"):
        ts.resample_poly(x, 2, 1, padtype="nosuch")
    with pytest.raises(ValueError, match="window must be 1-D"):
        ts.resample_poly(x, 2, 1, window=np.ones((3, 3)))


def test_resample_empty_lanes():
    x = np.zeros((4, 0))
    ref = ss.resample(x, 5, axis=0)
    out = ts.resample(x, 5, axis=0)
    assert out.shape == ref.shape and out.dtype == ref.dtype
    assert ts.resample(x + 0j, 5, axis=0).dtype == ss.resample(x + 0j, 5, axis=0).dtype


# --- decimate ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("ftype", ["iir", "fir"])
@pytest.mark.parametrize("zero_phase", [True, False])
def test_decimate_matches_scipy(lib, ftype, zero_phase, rng):
    x = rng.standard_normal((3, 1001))
    # an order-31 Chebyshev filter (poles crowding the unit circle) is ill-conditioned in either library:
    # the IIR cases stay at the orders decimate is meant for
    extra = [(1, None), (5, 6)] if ftype == "iir" else [(5, 31)]
    for q, n in [(2, None), (3, None), (7, None), (3, 4), *extra]:
        ref = ss.decimate(x, q, n=n, ftype=ftype, zero_phase=zero_phase)
        out = ts.decimate(to_library(lib, x), q, n=n, ftype=ftype, zero_phase=zero_phase)
        assert isinstance(out, library_type(lib)) and dtype_name(out) == "float64"
        # the order-8 Chebyshev sections at q = 7 have poles near the unit circle: 1e-13, not 1e-15
        assert rel(out, ref) < 1e-12, (q, n)


@pytest.mark.parametrize("ftype", ["iir", "fir"])
def test_decimate_axis_dtypes_and_edges(ftype, rng):
    x = rng.standard_normal((40, 31, 33))
    for axis in (0, 1, -1):
        assert rel(ts.decimate(x, 2, ftype=ftype, axis=axis), ss.decimate(x, 2, ftype=ftype, axis=axis)) < 1e-12
    # float32 keeps its dtype (the filter is cast to it, as SciPy casts it); integers give float64
    x32 = rng.standard_normal(500).astype(np.float32)
    out = ts.decimate(torch.from_numpy(x32), 4, ftype=ftype)
    assert out.dtype == torch.float32
    assert rel(out, ss.decimate(x32, 4, ftype=ftype)) < 1e-5
    ints = np.arange(300) % 17
    out = ts.decimate(ints, 3, ftype=ftype)
    assert out.dtype == np.float64 and rel(out, ss.decimate(ints, 3, ftype=ftype)) < 1e-12
    z = x[:, 0, 0] + 1j * x[:, 1, 0]
    assert rel(ts.decimate(z, 2, ftype="fir"), ss.decimate(z, 2, ftype="fir")) < 1e-12
    # the caller's data is left as it was
    before = x.copy()
    ts.decimate(x, 3, ftype=ftype, axis=0)
    np.testing.assert_array_equal(x, before)


def test_decimate_nan_stays_local_to_fir_and_spreads_with_iir(rng):
    x = rng.standard_normal(400)
    x[200] = np.nan
    for ftype in ("fir", "iir"):
        ours, ref = ts.decimate(x, 4, ftype=ftype), ss.decimate(x, 4, ftype=ftype)
        np.testing.assert_array_equal(np.isnan(ours), np.isnan(ref))


def test_decimate_errors(rng):
    x = rng.standard_normal(100)
    with pytest.raises(ValueError, match="q must be a positive integer"):
        ts.decimate(x, 0)
    with pytest.raises(ValueError, match="q must be an integer"):
        ts.decimate(x, 2.0)
    with pytest.raises(ValueError, match="invalid ftype"):
        ts.decimate(x, 2, ftype="cheby")
    with pytest.raises(ValueError, match="Invalid cutoff frequency"):
        ts.decimate(x, 1, ftype="fir")  # firwin's cutoff 1/q must lie below Nyquist, as in SciPy
    with pytest.raises(ValueError, match="greater than padlen"):
        ts.decimate(x[:20], 2)  # sosfiltfilt's padding needs 27 samples, as in SciPy
    with pytest.raises(ValueError, match="n must be a positive integer"):
        ts.decimate(x, 2, n=0)
    with pytest.raises(NotImplementedError, match="dlti"):
        ts.decimate(x, 2, ftype=ss.dlti([1.0], [1.0, -0.5]))
    with pytest.raises(ValueError, match="at least 1-D"):
        ts.decimate(np.float64(1.0), 2)
