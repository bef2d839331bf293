"""The stencil class on dask arrays: every ndimage filter and morphology row and
the signal order filters, in every boundary mode, on one chunk, a 4x4 grid,
ragged chunks and chunks smaller than the filter's depth: lazy, numpy chunks,
and the eager (unchunked) torchbridge result bit for bit (uniform_filter:
within a few ulps, its running sum restarts in each chunk), close to SciPy.
"""

from __future__ import annotations

import dask.array as da
import numpy as np
import pytest
import scipy.ndimage as sn
import scipy.signal as ss
from distributed import Client, LocalCluster

import torchbridge as tb
from torchbridge.errors import UnsupportedParameterError

from .cases import CHUNKINGS, chunked, no_compute

SHAPE = (23, 17)
RNG = np.random.default_rng(17)
X = RNG.standard_normal(SHAPE)
B = X > 0.3
MASK = RNG.random(SHAPE) > 0.2
W2 = RNG.standard_normal((3, 4))
FOOT = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=bool)
FOOT34 = RNG.random((3, 4)) > 0.3
STRUCT = RNG.integers(-2, 3, (3, 2)).astype(float)

#: Every mode SciPy's filters take (cval where it matters).
MODES = {
    "reflect": {"mode": "reflect"},
    "grid-mirror": {"mode": "grid-mirror"},
    "mirror": {"mode": "mirror"},
    "nearest": {"mode": "nearest"},
    "constant": {"mode": "constant", "cval": 1.5},
    "grid-constant": {"mode": "grid-constant", "cval": -0.5},
    "wrap": {"mode": "wrap"},
    "grid-wrap": {"mode": "grid-wrap"},
}
#: SciPy's per-axis mode sequences, for the separable filters.
SEQUENCES = {
    "wrap,constant": {"mode": ("wrap", "constant"), "cval": 2.0},
    "mirror,wrap": {"mode": ("mirror", "wrap")},
}

#: name -> (args after the input, options) of a case; each with every mode.
FILTERS = {
    "correlate1d": ((np.array([1.0, -2.0, 3.0, 0.5, 2.0]),), {"axis": 0, "origin": -1}),
    "convolve1d": ((np.array([1.0, 2.0, 3.0, 4.0]),), {"axis": 1, "origin": 1}),
    "correlate": ((W2,), {"origin": (1, -1)}),
    "convolve": ((W2.T,), {"origin": (0, 1)}),
    "gaussian_filter1d": ((1.5,), {"axis": 1, "order": 1}),
    "gaussian_filter": (((1.0, 2.0),), {"order": (0, 2), "truncate": 3.0}),
    "minimum_filter1d": ((4,), {"axis": 0, "origin": -1}),
    "maximum_filter1d": ((3,), {"axis": 1}),
    "minimum_filter": ((), {"size": (3, 5)}),
    "maximum_filter": ((), {"footprint": FOOT, "origin": (1, 0)}),
    "median_filter": ((), {"size": 4}),
    "rank_filter": ((-2,), {"footprint": FOOT34}),
    "percentile_filter": ((30,), {"size": (3, 3)}),
    "sobel": ((), {"axis": 0}),
    "prewitt": ((), {"axis": 1}),
    "laplace": ((), {}),
    "gaussian_laplace": ((1.2,), {}),
    "gaussian_gradient_magnitude": (((1.0, 0.7),), {}),
    "grey_erosion": ((), {"size": (3, 4)}),
    "grey_dilation": ((), {"footprint": FOOT, "structure": STRUCT[:3, :2].repeat(2, 1)[:, :3]}),
    "grey_opening": ((), {"size": 3, "origin": 1}),
    "grey_closing": ((), {"footprint": FOOT34}),
    "morphological_gradient": ((), {"size": (3, 2)}),
    "morphological_laplace": ((), {"size": 3}),
    "white_tophat": ((), {"size": (2, 3)}),
    "black_tophat": ((), {"structure": STRUCT}),
}
#: The running-sum filters: close, not bit for bit.
RUNNING = {
    "uniform_filter1d": ((5,), {"axis": 0, "origin": 1}),
    "uniform_filter": ((), {"size": (3, 4), "origin": (0, 1)}),
}
#: Filters that take per-axis mode sequences.
SEPARABLE = {
    "gaussian_filter": ((1.3,), {"radius": (2, 5)}),
    "uniform_filter": ((), {"size": (4, 3)}),
    "minimum_filter": ((), {"size": (3, 4)}),
    "sobel": ((), {"axis": 1}),
    "laplace": ((), {}),
    "gaussian_laplace": ((1.0,), {}),
    "gaussian_gradient_magnitude": ((0.8,), {}),
}
#: The binary morphology (no mode: ``border_value``), on B.
BINARY = {
    "binary_erosion": {"iterations": 2, "border_value": 1},
    "binary_dilation": {"structure": FOOT, "origin": (0, 1), "mask": MASK},
    "binary_opening": {"iterations": 2},
    "binary_closing": {"structure": FOOT34, "border_value": 0},
    "binary_hit_or_miss": {"structure1": FOOT, "origin1": (1, 0)},
}


def _lazy_and_eager(func, x, args, kwargs, arrays=()):
    """``func`` on every chunking of ``x`` (and of the arrays in ``arrays``, by keyword),
    built without computing, and its eager result."""
    eager = func(x, *args, **kwargs)
    results = {}
    for how in CHUNKINGS:
        lazy_kwargs = dict(kwargs)
        for name in arrays:
            lazy_kwargs[name] = chunked(kwargs[name], how)
        with no_compute():
            lazy = func(chunked(x, how), *args, **lazy_kwargs)
        assert isinstance(lazy, da.Array) and type(lazy._meta) is np.ndarray, how
        assert lazy.dtype == eager.dtype and lazy.shape == eager.shape, how
        got = lazy.compute(scheduler="sync")
        assert type(got) is np.ndarray, how
        results[how] = got
    return results, eager


def _scipy(module, name, *args, **kwargs):
    return getattr(module, name)(*args, **kwargs)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", FILTERS)
def test_filter_is_lazy_and_bit_identical_in_every_mode(name, mode):
    args, kwargs = FILTERS[name]
    kwargs = kwargs | MODES[mode]
    results, eager = _lazy_and_eager(getattr(tb.ndimage, name), X, args, kwargs)
    for how, got in results.items():
        np.testing.assert_array_equal(got, eager, strict=True, err_msg=how)
    np.testing.assert_allclose(eager, _scipy(sn, name, X, *args, **kwargs), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode", SEQUENCES)
@pytest.mark.parametrize("name", SEPARABLE)
def test_separable_filter_with_a_mode_per_axis(name, mode):
    args, kwargs = SEPARABLE[name]
    kwargs = kwargs | SEQUENCES[mode]
    results, eager = _lazy_and_eager(getattr(tb.ndimage, name), X, args, kwargs)
    exact = name not in RUNNING
    for how, got in results.items():
        if exact:
            np.testing.assert_array_equal(got, eager, strict=True, err_msg=how)
        else:
            np.testing.assert_allclose(got, eager, rtol=0, atol=1e-14, err_msg=how)
    np.testing.assert_allclose(eager, _scipy(sn, name, X, *args, **kwargs), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", RUNNING)
def test_running_sum_filter_within_ulps(name, mode):
    args, kwargs = RUNNING[name]
    kwargs = kwargs | MODES[mode]
    results, eager = _lazy_and_eager(getattr(tb.ndimage, name), X, args, kwargs)
    for how, got in results.items():  # |X| < 5: a few ulps of the window sums
        np.testing.assert_allclose(got, eager, rtol=0, atol=1e-14, err_msg=how)
    np.testing.assert_allclose(eager, _scipy(sn, name, X, *args, **kwargs), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", BINARY)
def test_binary_morphology_is_bit_identical(name):
    kwargs = BINARY[name]
    arrays = ("mask",) if "mask" in kwargs else ()
    results, eager = _lazy_and_eager(getattr(tb.ndimage, name), B, (), kwargs, arrays)
    for how, got in results.items():
        np.testing.assert_array_equal(got, eager, strict=True, err_msg=how)
    np.testing.assert_array_equal(eager, _scipy(sn, name, B, **kwargs))


def test_axes_and_origin_shift_the_depth():
    x = RNG.standard_normal((9, 11, 13))
    for func, kwargs in (
        (tb.ndimage.gaussian_filter, {"sigma": (2.0, 1.0), "axes": (2, 0), "mode": ("wrap", "nearest")}),
        (tb.ndimage.median_filter, {"size": (3, 4), "axes": (0, 2), "origin": (1, -2), "mode": "mirror"}),
        (tb.ndimage.uniform_filter1d, {"size": 3, "axis": 1, "mode": "wrap"}),
    ):
        eager = func(x, **kwargs)
        atol = 1e-14 if func is tb.ndimage.uniform_filter1d else 0  # its running sum restarts in each chunk
        for chunks in ((3, 4, 5), (2, 11, 1), (9, 1, 13)):
            lazy = func(da.from_array(x, chunks=chunks), **kwargs)
            np.testing.assert_allclose(lazy.compute(), eager, rtol=0, atol=atol, err_msg=str(chunks))


def test_a_footprint_larger_than_the_array_and_a_wide_wrap():
    """Depth beyond the axis: that axis becomes one chunk (wrap too)."""
    x = RNG.standard_normal((6, 40))
    for mode in ("wrap", "reflect", "mirror"):
        eager = tb.ndimage.gaussian_filter(x, 3.0, mode=mode)  # radius 12 > 6 rows, < 40 columns
        lazy = tb.ndimage.gaussian_filter(da.from_array(x, chunks=(2, 5)), 3.0, mode=mode)
        np.testing.assert_array_equal(lazy.compute(), eager)


def test_output_dtype_and_integer_input():
    xi = (X * 40).astype(np.int16)
    for func, kwargs in (
        (tb.ndimage.gaussian_filter, {"sigma": 1.0, "output": np.float32}),
        (tb.ndimage.median_filter, {"size": 3}),
        (tb.ndimage.sobel, {}),
    ):
        eager = func(xi, **kwargs)
        lazy = func(chunked(xi, "ragged"), **kwargs)
        assert lazy.dtype == eager.dtype
        np.testing.assert_array_equal(lazy.compute(), eager, strict=True)


def test_refusals():
    x = da.from_array(B, chunks=(5, 4))
    with pytest.raises(UnsupportedParameterError, match="until nothing changes"):
        tb.ndimage.binary_erosion(x, iterations=0)
    with pytest.raises(UnsupportedParameterError, match="output="):
        tb.ndimage.gaussian_filter(da.from_array(X, chunks=5), 1.0, output=np.empty(SHAPE))
    with pytest.raises(UnsupportedParameterError, match="option"):
        tb.ndimage.correlate(da.from_array(X, chunks=5), da.from_array(W2))
    for name, args in (("zoom", (2,)), ("map_coordinates", (np.zeros((2, 1)),)), ("label", ()), ("sum", ())):
        with pytest.raises(NotImplementedError, match="on dask arrays"):
            getattr(tb.ndimage, name)(da.from_array(X, chunks=5), *args)
    with pytest.raises(NotImplementedError, match="noise=None"):
        tb.signal.wiener(da.from_array(X, chunks=5))
    with pytest.raises(ValueError):  # a bad option is reported at once, as eagerly
        tb.ndimage.gaussian_filter(da.from_array(X, chunks=5), 1.0, mode="nope")


# --------------------------------------------------------------------------- signal

SIGNAL = {
    "medfilt": (X, (), {"kernel_size": (3, 5)}),
    "medfilt2d": (X, (), {"kernel_size": 5}),
    "order_filter": (X, (FOOT.astype(float), 2), {}),
    "wiener": (X, (), {"mysize": (3, 5), "noise": 0.4}),
}


@pytest.mark.parametrize("name", SIGNAL)
def test_signal_order_filters_and_wiener(name):
    x, args, kwargs = SIGNAL[name]
    results, eager = _lazy_and_eager(getattr(tb.signal, name), x, args, kwargs)
    for how, got in results.items():
        np.testing.assert_array_equal(got, eager, strict=True, err_msg=how)
    np.testing.assert_allclose(eager, _scipy(ss, name, x, *args, **kwargs), rtol=1e-12, atol=1e-12)


def test_wiener_on_blocks_large_enough_for_an_fft_correlation():
    """Its local sums are a correlation, by FFT on larger arrays: within a few ulps then."""
    x = RNG.standard_normal((120, 90))
    eager = tb.signal.wiener(x, (5, 3), noise=0.5)
    got = tb.signal.wiener(da.from_array(x, chunks=(50, 40)), (5, 3), noise=0.5).compute()
    np.testing.assert_allclose(got, eager, rtol=0, atol=1e-13)


@pytest.mark.parametrize("mode", ["interp", "mirror", "constant", "nearest", "wrap"])
def test_savgol_filter(mode):
    kwargs = {"window_length": 7, "polyorder": 3, "deriv": 1, "axis": 0, "mode": mode, "cval": 0.5}
    results, eager = _lazy_and_eager(tb.signal.savgol_filter, X, (), kwargs)
    for how, got in results.items():  # a blocked GEMM whose blocks depend on the length: within ulps
        np.testing.assert_allclose(got, eager, rtol=1e-13, atol=1e-15, err_msg=how)
    np.testing.assert_allclose(eager, ss.savgol_filter(X, **kwargs), rtol=1e-10, atol=1e-12)


# --------------------------------------------------------------------------- distributed


@pytest.fixture(scope="module")
def client():
    with LocalCluster(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        with Client(cluster, set_as_default=False) as client:
            yield client


def test_on_a_distributed_cluster(client):
    """Stencils and the lfilter chain on in-process workers (the graph is pickled all the same)."""
    x = RNG.standard_normal((40, 30))
    b, a = ss.butter(3, 0.3)
    zi = np.ones((40, 3))
    y, zf = tb.signal.lfilter(b, a, da.from_array(x, chunks=(20, 7)), zi=zi)
    lazy = {
        "gaussian-wrap": tb.ndimage.gaussian_filter(da.from_array(x, chunks=(7, 6)), 1.7, mode="wrap"),
        "opening": tb.ndimage.grey_opening(da.from_array(x, chunks=(9, 4)), size=(3, 4), mode="nearest"),
        "medfilt": tb.signal.medfilt(da.from_array(x, chunks=(5, 5)), 3),
        "lfilter": y,
        "zf": zf,
    }
    got = dict(zip(lazy, client.gather(client.compute(list(lazy.values())))))
    np.testing.assert_array_equal(got["gaussian-wrap"], tb.ndimage.gaussian_filter(x, 1.7, mode="wrap"))
    np.testing.assert_array_equal(got["opening"], tb.ndimage.grey_opening(x, size=(3, 4), mode="nearest"))
    np.testing.assert_array_equal(got["medfilt"], tb.signal.medfilt(x, 3))
    eager_y, eager_zf = tb.signal.lfilter(b, a, x, zi=zi)
    np.testing.assert_allclose(got["lfilter"], eager_y, rtol=1e-12)
    np.testing.assert_allclose(got["zf"], eager_zf, rtol=1e-12)
