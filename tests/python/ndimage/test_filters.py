"""The filters of ``scipy.ndimage._filters`` (src/ops/ndimage/filters.rs), against SciPy.

The sums run in float64 in SciPy's order, so every value is compared bit for
bit (``assert_same``), except the float64 square root of
``gaussian_gradient_magnitude`` (libtorch's is within 1 ulp of NumPy's).
SciPy's 1-D rank filters (``_rank_filter_1d``, 1-d input only) extend the line
once and read past it when the footprint is longer than the input (garbage
values in ``mirror`` mode); torchbridge follows SciPy's n-D path, which
repeats the extension, so those cases are compared with SciPy on the input as
a ``(1, n)`` array.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.ndimage as sn
from conftest import LIBRARIES, library_type, to_library, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from torchbridge import ndimage as tn

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror", "grid-wrap"]
DTYPES = [np.float64, np.float32, np.int32, np.uint8, np.int16]


def sample(rng, shape, dtype):
    if np.dtype(dtype).kind == "u":
        return rng.integers(0, 255, shape).astype(dtype)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-100, 100, shape).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def assert_same(ours, ref, ulps=0):
    ours = to_numpy(ours)
    ref = np.asarray(ref)
    assert ours.dtype == ref.dtype, (ours.dtype, ref.dtype)
    assert ours.shape == ref.shape
    if ulps == 0:
        np.testing.assert_array_equal(ours, ref)
    else:
        np.testing.assert_array_max_ulp(ours, ref, maxulp=ulps)


def scipy_call(name, x, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sn, name)(x, *args, **kwargs)


def scipy_rank(name, x, *args, **kwargs):
    """SciPy's n-D rank-filter path also for 1-d input (see the module docstring)."""
    if x.ndim == 1:
        kwargs = dict(kwargs)
        if "size" in kwargs and kwargs["size"] is not None:
            kwargs["size"] = (1, kwargs["size"] if np.isscalar(kwargs["size"]) else kwargs["size"][0])
        if kwargs.get("footprint") is not None:
            kwargs["footprint"] = np.asarray(kwargs["footprint"])[None]
        if "origin" in kwargs:
            kwargs["origin"] = (0, kwargs["origin"])
        return scipy_call(name, x[None], *args, **kwargs)[0]
    return scipy_call(name, x, *args, **kwargs)


# --- every library, the main routines ---------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("correlate1d", ([1.0, -2.0, 0.5],), {}),
        ("convolve1d", ([1.0, 2.0],), {"axis": 0}),
        ("correlate", (np.arange(6.0).reshape(2, 3),), {}),
        ("convolve", (np.arange(6.0).reshape(3, 2),), {"mode": "wrap"}),
        ("uniform_filter1d", (4,), {}),
        ("uniform_filter", (), {"size": (3, 2)}),
        ("gaussian_filter1d", (1.5,), {"order": 1}),
        ("gaussian_filter", (2.0,), {}),
        ("minimum_filter1d", (3,), {}),
        ("maximum_filter1d", (4,), {"axis": 0}),
        ("minimum_filter", (), {"size": 3}),
        ("maximum_filter", (), {"footprint": np.array([[1, 0, 1], [0, 1, 0]])}),
        ("median_filter", (), {"size": 4}),
        ("rank_filter", (-2,), {"size": (3, 3)}),
        ("percentile_filter", (70,), {"size": 3}),
        ("sobel", (), {}),
        ("prewitt", (), {"axis": 0}),
        ("laplace", (), {}),
        ("gaussian_laplace", (1.0,), {}),
        ("gaussian_gradient_magnitude", (1.0,), {}),
    ],
)
def test_every_library_gets_scipys_values_in_its_own_type(lib, name, args, kwargs, rng):
    x = rng.standard_normal((9, 11))
    got = getattr(tn, name)(to_library(lib, x), *args, **kwargs)
    assert isinstance(got, library_type(lib))
    ulps = 1 if name == "gaussian_gradient_magnitude" else 0
    assert_same(got, scipy_call(name, x, *args, **kwargs), ulps)


def test_input_is_not_modified(rng):
    x = rng.standard_normal((8, 8))
    keep = x.copy()
    for name, args in [("gaussian_filter", (2.0,)), ("median_filter", (3,)), ("uniform_filter", (5,))]:
        getattr(tn, name)(x, *args)
    np.testing.assert_array_equal(x, keep)


# --- modes x sizes x dtypes, footprints larger than the array ---------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 2, 5, 13])
def test_correlate1d_and_convolve1d(mode, dtype, n, rng):
    x = sample(rng, (3, n), dtype)
    for w in ([1, 2, 3], [1, 2], [1, -2, 1], [3, 0, -3], [0.25] * 6, list(rng.standard_normal(9)), [2.0]):
        for origin in {0, (len(w) - 1) // 2, -(len(w) // 2)}:
            for name in ("correlate1d", "convolve1d"):
                if name == "convolve1d" and len(w) % 2 == 0 and origin == (len(w) - 1) // 2 and origin:
                    continue
                try:
                    ref = sn.__dict__[name](x, w, mode=mode, cval=1.5, origin=origin)
                except ValueError:
                    with pytest.raises(ValueError):
                        getattr(tn, name)(x, w, mode=mode, cval=1.5, origin=origin)
                    continue
                assert_same(getattr(tn, name)(x, w, mode=mode, cval=1.5, origin=origin), ref)


@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
@pytest.mark.parametrize("shape", [(1, 1), (2, 3), (6, 5)])
def test_correlate_and_convolve(mode, dtype, shape, rng):
    x = sample(rng, shape, dtype)
    for wshape in [(3, 3), (2, 4), (5, 1), (7, 6)]:
        w = rng.standard_normal(wshape)
        w[0, 0] = 1e-17  # below DBL_EPSILON: SciPy drops it from the footprint
        for name in ("correlate", "convolve"):
            assert_same(getattr(tn, name)(x, w, mode=mode, cval=-2.0), sn.__dict__[name](x, w, mode=mode, cval=-2.0))
        assert_same(tn.correlate(x, w[0], axes=1, mode=mode), sn.correlate(x, w[0], axes=1, mode=mode))
    assert_same(tn.correlate(x, np.ones((3, 3)), origin=(1, -1)), sn.correlate(x, np.ones((3, 3)), origin=(1, -1)))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("size", [1, 2, 3, 4, 7, 12])
def test_uniform_and_min_max(mode, dtype, size, rng):
    for shape in [(1,), (5,), (4, 6)]:
        x = sample(rng, shape, dtype)
        for name in ("uniform_filter1d", "minimum_filter1d", "maximum_filter1d"):
            assert_same(
                getattr(tn, name)(x, size, mode=mode, cval=-3.5), scipy_call(name, x, size, mode=mode, cval=-3.5)
            )
        for name in ("uniform_filter", "minimum_filter", "maximum_filter"):
            assert_same(
                getattr(tn, name)(x, size=size, mode=mode, cval=2.5),
                scipy_call(name, x, size=size, mode=mode, cval=2.5),
            )
    x = sample(rng, (5, 4), dtype)
    foot = np.array([[1, 0, 1], [1, 1, 0]], bool)
    for name in ("minimum_filter", "maximum_filter"):
        assert_same(
            getattr(tn, name)(x, footprint=foot, mode=mode, cval=7.2),
            scipy_call(name, x, footprint=foot, mode=mode, cval=7.2),
        )
    assert_same(
        tn.uniform_filter(x, size, mode=[mode, "wrap"], origin=(0, -(size // 2))),
        sn.uniform_filter(x, size, mode=[mode, "wrap"], origin=(0, -(size // 2))),
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("size", [2, 3, 4, 5, 12])
def test_rank_median_percentile(mode, dtype, size, rng):
    for shape in [(1,), (2,), (5,), (13,), (4, 6)]:
        x = sample(rng, shape, dtype)
        for name, args in [
            ("median_filter", ()),
            ("rank_filter", (1,)),
            ("rank_filter", (-2,)),
            ("percentile_filter", (30,)),
            ("percentile_filter", (-10.0,)),
        ]:
            kwargs = {"size": size, "mode": mode, "cval": 0.7}
            try:
                ref = scipy_rank(name, x, *args, **kwargs)
            except RuntimeError:
                with pytest.raises(ValueError, match="rank not within"):
                    getattr(tn, name)(x, *args, **kwargs)
                continue
            assert_same(getattr(tn, name)(x, *args, **kwargs), ref)
    x = sample(rng, (6, 5), dtype)
    foot = np.array([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 0, 1]])
    assert_same(
        tn.median_filter(x, footprint=foot, mode=mode), scipy_call("median_filter", x, footprint=foot, mode=mode)
    )
    assert_same(
        tn.rank_filter(x, 3, footprint=foot, mode=mode, origin=(1, -1)),
        scipy_call("rank_filter", x, 3, footprint=foot, mode=mode, origin=(1, -1)),
    )


def test_median_of_an_even_window_is_the_upper_middle():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    assert to_numpy(tn.median_filter(x, size=4, mode="constant", cval=10.0))[1] == 3.0


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_gaussian(mode, dtype, order, rng):
    for shape in [(1,), (3,), (6, 9)]:
        x = sample(rng, shape, dtype)
        for sigma in (0.5, 1.0, 3.0):
            assert_same(
                tn.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=0.3),
                sn.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=0.3),
            )
            assert_same(
                tn.gaussian_filter(x, sigma, order=order, mode=mode),
                sn.gaussian_filter(x, sigma, order=order, mode=mode),
            )
        assert_same(
            tn.gaussian_filter(x, 2.0, truncate=1.5, order=order, mode=mode),
            sn.gaussian_filter(x, 2.0, truncate=1.5, order=order, mode=mode),
        )
        assert_same(
            tn.gaussian_filter(x, 1.0, radius=7, order=order, mode=mode),
            sn.gaussian_filter(x, 1.0, radius=7, order=order, mode=mode),
        )
    x = sample(rng, (5, 7), dtype)
    kw = {"sigma": (1.0, 0.0), "order": (order, 0), "mode": [mode, "nearest"], "radius": (2, None)}
    assert_same(tn.gaussian_filter(x, **kw), sn.gaussian_filter(x, **kw))
    assert_same(
        tn.gaussian_filter(x, 1.2, axes=(1,), output=np.float64),
        sn.gaussian_filter(x, 1.2, axes=(1,), output=np.float64),
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
def test_derivative_filters(mode, dtype, rng):
    for shape in [(1,), (4,), (5, 6), (3, 4, 5)]:
        x = sample(rng, shape, dtype)
        for axis in range(-len(shape), len(shape)):
            for name in ("sobel", "prewitt"):
                assert_same(
                    getattr(tn, name)(x, axis, mode=mode, cval=2.0), sn.__dict__[name](x, axis, mode=mode, cval=2.0)
                )
        assert_same(tn.laplace(x, mode=mode, cval=1.0), sn.laplace(x, mode=mode, cval=1.0))
        assert_same(
            tn.gaussian_laplace(x, 1.3, mode=mode, truncate=3.0), sn.gaussian_laplace(x, 1.3, mode=mode, truncate=3.0)
        )
        ulps = 1 if dtype == np.float64 else 0
        assert_same(
            tn.gaussian_gradient_magnitude(x, 0.8, mode=mode), sn.gaussian_gradient_magnitude(x, 0.8, mode=mode), ulps
        )
    x = sample(rng, (5, 6), dtype)
    assert_same(tn.laplace(x, axes=(1,)), sn.laplace(x, axes=(1,)))
    assert_same(
        tn.gaussian_laplace(x, (1.0, 2.0), axes=(0, 1), mode=[mode, "wrap"]),
        sn.gaussian_laplace(x, (1.0, 2.0), axes=(0, 1), mode=[mode, "wrap"]),
    )
    assert_same(tn.sobel(x, mode=[mode, "nearest"]), sn.sobel(x, mode=[mode, "nearest"]))


@pytest.mark.parametrize("output", [np.float64, "float32", np.int16, np.uint8, np.dtype("int64"), bool])
def test_output_dtype(output, rng):
    x = sample(rng, (6, 7), np.float64) * 20
    for name, args in [
        ("correlate1d", ([1.0, 2.0, -1.0],)),
        ("gaussian_filter", (1.0,)),
        ("uniform_filter", (3,)),
        ("median_filter", (3,)),
        ("minimum_filter1d", (3,)),
        ("sobel", ()),
        ("laplace", ()),
    ]:
        assert_same(getattr(tn, name)(x, *args, output=output), scipy_call(name, x, *args, output=output))


def test_edge_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 2.0, -0.0])
    for name, args in [
        ("correlate1d", ([1.0, 2.0, 3.0],)),
        ("convolve1d", ([1.0, -1.0],)),
        ("gaussian_filter", (1.0,)),
        ("uniform_filter1d", (3,)),
        ("sobel", ()),
        ("laplace", ()),
    ]:
        got, ref = to_numpy(getattr(tn, name)(x, *args)), getattr(sn, name)(x, *args)
        np.testing.assert_array_equal(got, ref)
        number = ~np.isnan(ref)  # the sign of a NaN is not compared
        np.testing.assert_array_equal(np.signbit(got[number]), np.signbit(ref[number]))
    finite = np.array([3.0, -0.0, np.inf, -np.inf, 1.0])
    for name in ("minimum_filter1d", "maximum_filter1d"):
        assert_same(getattr(tn, name)(finite, 2), getattr(sn, name)(finite, 2))
    # empty and 0-d
    for name, args in [("gaussian_filter", (1.0,)), ("median_filter", (3,)), ("uniform_filter", (3,))]:
        assert_same(getattr(tn, name)(np.zeros((0, 4)), *args), scipy_call(name, np.zeros((0, 4)), *args))
        assert_same(getattr(tn, name)(np.float64(2.5), *args), scipy_call(name, np.float64(2.5), *args))


def test_nan_under_a_rank_footprint_gives_nan():
    x = np.array([1.0, np.nan, 3.0, 4.0, 5.0, 6.0])
    got = to_numpy(tn.median_filter(x, size=3))
    assert np.isnan(got[:3]).all() and np.array_equal(got[3:], sn.median_filter(x, size=3)[3:])


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "scipy_error"),
    [
        (lambda m, x: m.correlate1d(x, [1, 2, 3], origin=2), ValueError),
        (lambda m, x: m.correlate1d(x, []), RuntimeError),
        (lambda m, x: m.correlate1d(x, [1, 2], axis=3), np.exceptions.AxisError),
        (lambda m, x: m.correlate(x, np.ones((3, 3)), origin=(2, 0)), ValueError),
        (lambda m, x: m.correlate(x, np.ones(3)), RuntimeError),
        (lambda m, x: m.uniform_filter1d(x, 0), RuntimeError),
        (lambda m, x: m.uniform_filter(x, 3, mode="bogus"), RuntimeError),
        (lambda m, x: m.minimum_filter1d(x, 3, origin=2), ValueError),
        (lambda m, x: m.minimum_filter(x), RuntimeError),
        (lambda m, x: m.maximum_filter(x, footprint=np.zeros((2, 2))), ValueError),
        (lambda m, x: m.median_filter(x), RuntimeError),
        (lambda m, x: m.rank_filter(x, 9, size=3), RuntimeError),
        (lambda m, x: m.percentile_filter(x, 120, size=3), RuntimeError),
        (lambda m, x: m.gaussian_filter(x, 1.0, radius=-1), ValueError),
        (lambda m, x: m.gaussian_filter(x, 1.0, order=-1), ValueError),
        (lambda m, x: m.gaussian_filter(x, (1.0, 2.0, 3.0)), RuntimeError),
        (lambda m, x: m.laplace(x, axes=(0, 0)), ValueError),
        (lambda m, x: m.sobel(x, axis=2), np.exceptions.AxisError),
        (lambda m, x: m.median_filter(x + 0j, 3), TypeError),
    ],
)
def test_errors_match_scipys_classes(call, scipy_error, rng):
    x = rng.standard_normal((4, 5))
    with pytest.raises(scipy_error), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(sn, x)
    # SciPy's RuntimeError is a ValueError here (torchbridge has no RuntimeError class)
    ours = ValueError if scipy_error is RuntimeError else scipy_error
    with pytest.raises(ours):
        call(tn, x)


def test_unsupported_values_raise_not_implemented(rng):
    x = rng.standard_normal((4, 5))
    with pytest.raises(NotImplementedError, match="output"):
        tn.gaussian_filter(x, 1.0, output=np.empty_like(x))
    with pytest.raises(NotImplementedError, match="complex"):
        tn.gaussian_filter(x + 1j, 1.0)
    with pytest.raises(NotImplementedError, match="complex"):
        tn.correlate1d(x, [1j, 2.0])


def test_size_and_footprint_warns_as_scipy(rng):
    x = rng.standard_normal((4, 5))
    with pytest.warns(UserWarning, match="ignoring size"):
        tn.median_filter(x, size=3, footprint=np.ones((3, 3)))


# --- hypothesis: shapes, axes, modes, sizes (arrays smaller than the footprint) ---------------


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 6), min_size=1, max_size=3),
    size=st.integers(1, 9),
    mode=st.sampled_from(MODES),
    data=st.data(),
)
def test_hypothesis_filters(shape, size, mode, data):
    seed = data.draw(st.integers(0, 2**32 - 1))
    x = np.random.default_rng(seed).standard_normal(shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    origin = data.draw(st.integers(-(size // 2), (size - 1) // 2))
    w = np.random.default_rng(seed + 1).standard_normal(size)
    assert_same(
        tn.correlate1d(x, w, axis, mode=mode, origin=origin), sn.correlate1d(x, w, axis, mode=mode, origin=origin)
    )
    assert_same(
        tn.uniform_filter1d(x, size, axis, mode=mode, origin=origin),
        sn.uniform_filter1d(x, size, axis, mode=mode, origin=origin),
    )
    assert_same(
        tn.maximum_filter1d(x, size, axis, mode=mode, origin=origin),
        sn.maximum_filter1d(x, size, axis, mode=mode, origin=origin),
    )
    sigma = data.draw(st.floats(0.2, 4.0))
    assert_same(tn.gaussian_filter(x, sigma, mode=mode), sn.gaussian_filter(x, sigma, mode=mode))
    assert_same(tn.median_filter(x, size, mode=mode), scipy_rank("median_filter", x, size=size, mode=mode))
    assert_same(
        tn.correlate(x, np.ones([size] * len(shape)), mode=mode),
        sn.correlate(x, np.ones([size] * len(shape)), mode=mode),
    )
