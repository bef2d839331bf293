"""upfirdn (SciPy's ``_upfirdn.py``; src/ops/signal/upfirdn.rs), against scipy.signal."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
import torch
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy

from torchbridge import signal as ts

MODES = ["constant", "wrap", "edge", "smooth", "symmetric", "reflect", "antisymmetric", "line"]


def rel(ours, ref) -> float:
    ours, ref = to_numpy(ours), np.asarray(ref)
    assert ours.shape == ref.shape
    scale = max(np.abs(ref).max(initial=0.0), 1e-300)
    return float(np.abs(ours - ref).max(initial=0.0) / scale)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize(("up", "down"), [(1, 1), (3, 2), (2, 3), (5, 1), (1, 4), (7, 3), (4, 4)])
def test_upfirdn_matches_scipy(lib, up, down, rng):
    x = rng.standard_normal((3, 50))
    h = rng.standard_normal(13)
    ref = ss.upfirdn(h, x, up, down)
    out = ts.upfirdn(to_library(lib, h), to_library(lib, x), up, down)
    assert isinstance(out, library_type(lib)) and dtype_name(out) == "float64"
    assert rel(out, ref) < 1e-13


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("up", "down", "taps", "n"), [(1, 1, 5, 20), (3, 2, 13, 40), (2, 5, 30, 7), (4, 1, 9, 3)])
def test_upfirdn_modes(mode, up, down, taps, n, rng):
    x = rng.standard_normal((2, n))
    h = rng.standard_normal(taps)
    kw = {"cval": 2.5} if mode == "constant" else {}
    ref = ss.upfirdn(h, x, up, down, mode=mode, **kw)
    assert rel(ts.upfirdn(h, x, up, down, mode=mode, **kw), ref) < 1e-12


def test_upfirdn_random_shapes_axes(rng):
    for _ in range(15):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 12, ndim))
        axis = int(rng.integers(-ndim, ndim))
        x = rng.standard_normal(shape)
        h = rng.standard_normal(int(rng.integers(1, 20)))
        up, down = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        ref = ss.upfirdn(h, x, up, down, axis=axis)
        assert rel(ts.upfirdn(torch.from_numpy(h), torch.from_numpy(x), up, down, axis=axis), ref) < 1e-12


@pytest.mark.parametrize(
    ("hdtype", "xdtype", "expected"),
    [
        ("float64", "float32", "float64"),
        ("float32", "float32", "float32"),
        ("int64", "int64", "float64"),
        ("int16", "float32", "float32"),
        ("float32", "complex64", "complex64"),
        ("complex128", "float32", "complex128"),
    ],
)
def test_upfirdn_dtypes(hdtype, xdtype, expected, rng):
    h = (rng.standard_normal(11) * 5).astype(hdtype)
    x = (rng.standard_normal((2, 40)) * 5).astype(xdtype)
    if np.dtype(xdtype).kind == "c":
        x = x + 1j * x[::-1]
    ref = ss.upfirdn(h, x, 3, 2)
    out = ts.upfirdn(h, x, 3, 2)
    assert out.dtype == ref.dtype == np.dtype(expected)
    assert rel(out, ref) < (1e-5 if "64" not in expected or expected == "complex64" else 1e-13)


def test_upfirdn_long_filter_fft(rng):
    x = rng.standard_normal((2, 3000))
    h = rng.standard_normal(1600)
    for up, down in [(1, 1), (3, 2), (2, 3)]:
        assert rel(ts.upfirdn(h, x, up, down), ss.upfirdn(h, x, up, down)) < 1e-12
        xc = x + 1j * x[:, ::-1]
        assert rel(ts.upfirdn(h, xc, up, down), ss.upfirdn(h, xc, up, down)) < 1e-12


def test_upfirdn_examples():
    np.testing.assert_allclose(ts.upfirdn([1, 1, 1], [1, 1, 1]), [1, 2, 3, 2, 1])
    np.testing.assert_allclose(ts.upfirdn([1], [1, 2, 3], 3), [1, 0, 0, 2, 0, 0, 3])
    np.testing.assert_allclose(ts.upfirdn([0.5, 1, 0.5], np.arange(10), 2, 3), [0, 1, 2.5, 4, 5.5, 7, 8.5])
    x = np.arange(8).reshape(4, 2)
    np.testing.assert_allclose(ts.upfirdn([1, 1], x, 2, axis=0), ss.upfirdn([1, 1], x, 2, axis=0))


def test_upfirdn_nonfinite():
    x = np.array([1.0, np.nan, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    ref = ss.upfirdn([1.0, 2.0], x, 2, 1)
    out = ts.upfirdn([1.0, 2.0], x, 2, 1)
    np.testing.assert_array_equal(np.isnan(out), np.isnan(ref))


def test_upfirdn_does_not_modify_input(rng):
    x = rng.standard_normal(30)
    h = rng.standard_normal(5)
    x0, h0 = x.copy(), h.copy()
    ts.upfirdn(h, x, 2, 3, mode="wrap")
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(h, h0)


def test_upfirdn_errors():
    x = np.arange(10.0)
    with pytest.raises(ValueError, match="h must be 1-D with non-zero length"):
        ts.upfirdn([], x)
    with pytest.raises(ValueError, match="h must be 1-D"):
        ts.upfirdn(np.ones((2, 2)), x)
    with pytest.raises(ValueError, match="Both up and down must be >= 1"):
        ts.upfirdn([1.0], x, 0)
    with pytest.raises(ValueError, match="Both up and down must be >= 1"):
        ts.upfirdn([1.0], x, 1, -1)
    with pytest.raises(ValueError, match="Unknown mode"):
        ts.upfirdn([1.0], x, mode="nosuch")
    with pytest.raises(NotImplementedError, match="antireflect"):
        ts.upfirdn([1.0, 2.0], x, mode="antireflect")
    with pytest.raises((ValueError, IndexError)):
        ts.upfirdn([1.0], x, axis=1)


@pytest.mark.parametrize(("taps", "up", "down"), [(400, 64, 1), (10_000, 50, 3), (9, 1, 40)])
def test_upfirdn_paths(taps, up, down, rng):
    """The block GEMM, the conv1d (a Toeplitz block too large) and many-down cases."""
    x = rng.standard_normal((2, 300))
    h = rng.standard_normal(taps)
    assert rel(ts.upfirdn(h, x, up, down), ss.upfirdn(h, x, up, down)) < 1e-12
    x[0, 7] = np.inf
    ref = ss.upfirdn(h, x, up, down)
    out = ts.upfirdn(h, x, up, down)
    np.testing.assert_array_equal(np.isnan(out), np.isnan(ref))
    np.testing.assert_array_equal(np.isinf(out), np.isinf(ref))
