"""The routines of ``scipy.ndimage`` that take a user callable or brute force,
against SciPy: ``generic_gradient_magnitude``, ``generic_laplace``,
``generic_filter1d``, ``generic_filter`` and ``distance_transform_bf``.

The derivative composites call the derivative on the caller's own arrays
(NumPy stays NumPy, torch stays torch) and compute the squares, sums and
square root in libtorch: compared bit for bit, but the float64 square root
(libtorch's is within 1 ulp of NumPy's, see test_filters.py). The generic
filters hand the callable the same float64 values in the same order as
SciPy, so their results are compared bit for bit; so are the brute-force
distances and their indices (ties included).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.ndimage as sn
import torch
from conftest import LIBRARIES, library_type, to_library, to_numpy

from torchbridge import ndimage as tn
from torchbridge.errors import InvalidArgumentError, UnsupportedParameterError

from .test_filters import sample

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror", "grid-wrap"]
DTYPES = [np.float64, np.float32, np.int32, np.uint8, np.int16]


def assert_same(ours, ref, ulps=0):
    ours = to_numpy(ours)
    ref = np.asarray(ref)
    assert ours.dtype == ref.dtype, (ours.dtype, ref.dtype)
    assert ours.shape == ref.shape
    if ulps == 0 or ref.dtype.kind not in "fc":
        np.testing.assert_array_equal(ours, ref)
    else:
        np.testing.assert_array_max_ulp(ours, ref, maxulp=ulps)


def scipy_call(name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sn, name)(*args, **kwargs)


# ---------------------------------------------------------------------------
# generic_gradient_magnitude, generic_laplace
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", ["sobel", "prewitt"])
def test_gradient_magnitude_of_torchbridge_derivatives(rng, lib, name):
    x = sample(rng, (9, 11), np.float64)
    ours = tn.generic_gradient_magnitude(to_library(lib, x), getattr(tn, name))
    assert isinstance(ours, library_type(lib))
    assert_same(ours, sn.generic_gradient_magnitude(x, getattr(sn, name)), ulps=1)


@pytest.mark.parametrize("mode", MODES)
def test_gradient_magnitude_every_mode(rng, mode):
    x = sample(rng, (7, 6, 5), np.float64)
    ref = sn.generic_gradient_magnitude(x, sn.sobel, mode=mode, cval=1.5)
    assert_same(tn.generic_gradient_magnitude(x, tn.sobel, mode=mode, cval=1.5), ref, ulps=1)
    # SciPy's own sobel on NumPy input: the derivative fills the output array it is given
    assert_same(tn.generic_gradient_magnitude(x, sn.sobel, mode=mode, cval=1.5), ref, ulps=1)


def test_gradient_magnitude_mode_per_axis_and_axes(rng):
    x = sample(rng, (6, 7, 8), np.float64)
    modes = ["wrap", "constant"]
    ref = sn.generic_gradient_magnitude(x, sn.sobel, mode=modes, cval=2.0, axes=(2, 0))
    ours = tn.generic_gradient_magnitude(torch.from_numpy(x), tn.sobel, mode=modes, cval=2.0, axes=(2, 0))
    assert_same(ours, ref, ulps=1)
    ref = sn.generic_gradient_magnitude(x, sn.sobel, axes=-1)
    assert_same(tn.generic_gradient_magnitude(x, tn.sobel, axes=-1), ref, ulps=1)
    with pytest.raises(InvalidArgumentError):
        tn.generic_gradient_magnitude(x, tn.sobel, mode=["wrap", "constant"])
    with pytest.raises(InvalidArgumentError):
        tn.generic_gradient_magnitude(x, tn.sobel, axes=(0, 0))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("output", [None, np.float64, "float32", np.int32])
def test_gradient_magnitude_dtypes(rng, dtype, output):
    x = sample(rng, (8, 9), dtype)
    if output is None and np.dtype(dtype).itemsize < 4:
        x //= 16  # the squares wrap around in 8 and 16 bits (negative sums have no square root)
    ref = sn.generic_gradient_magnitude(x, sn.sobel, output=output)
    ours = tn.generic_gradient_magnitude(x, tn.sobel, output=output)
    assert_same(ours, ref, ulps=1)
    ours = tn.generic_gradient_magnitude(torch.from_numpy(x), tn.sobel, output=output)
    assert isinstance(ours, torch.Tensor)
    assert_same(ours, ref, ulps=1)


def test_gradient_magnitude_gaussian_derivative_with_extra_arguments(rng):
    x = sample(rng, (10, 12), np.float64)

    def derivative(module):
        def d(input, axis, output, mode, cval, sigma, **kwargs):
            return module.gaussian_filter1d(input, sigma, axis, 1, output, mode, cval, **kwargs)

        return d

    ref = sn.generic_gradient_magnitude(
        x, derivative(sn), mode="nearest", extra_arguments=(1.5,), extra_keywords={"truncate": 3.0}
    )
    for lib in LIBRARIES:
        # the torchbridge derivative refuses the output array: it is called again with the dtype
        ours = tn.generic_gradient_magnitude(
            to_library(lib, x), derivative(tn), mode="nearest", extra_arguments=(1.5,), extra_keywords={"truncate": 3.0}
        )
        assert isinstance(ours, library_type(lib))
        assert_same(ours, ref, ulps=1)
    # lambdas, as the SciPy tutorial writes them
    ref = sn.generic_gradient_magnitude(x, lambda i, a, o, m, c: sn.gaussian_filter1d(i, 2.0, a, 1, o, m, c))
    ours = tn.generic_gradient_magnitude(x, lambda i, a, o, m, c: tn.gaussian_filter1d(i, 2.0, a, 1, o, m, c))
    assert_same(ours, ref, ulps=1)


def test_gradient_magnitude_derivative_that_fills_output(rng):
    x = sample(rng, (7, 8), np.float64)
    ref = sn.generic_gradient_magnitude(x, sn.sobel)

    def numpy_derivative(input, axis, output, mode, cval):
        result = sn.sobel(input, axis, output, mode, cval)
        return None if isinstance(output, np.ndarray) else result

    assert_same(tn.generic_gradient_magnitude(x, numpy_derivative), ref, ulps=1)

    seen = []

    def torch_derivative(input, axis, output, mode, cval):
        assert isinstance(input, torch.Tensor)
        seen.append(type(output))
        result = tn.sobel(input, axis, mode=mode, cval=cval)
        if isinstance(output, torch.Tensor):
            output.copy_(result)
            return None
        return result

    ours = tn.generic_gradient_magnitude(torch.from_numpy(x), torch_derivative)
    assert_same(ours, ref, ulps=1)
    assert seen[0] is torch.Tensor and issubclass(seen[1], np.dtype)
    # 1-d input: one call only, into the output array (SciPy's contract for it)
    line = x[0]
    def fill_only(i, a, o, m, c):
        sn.correlate1d(i, [-1, 0, 1], a, o, m, c)

    assert_same(tn.generic_gradient_magnitude(line, fill_only), sn.generic_gradient_magnitude(line, fill_only))


def test_gradient_magnitude_empty_0d_and_output_array(rng):
    empty = np.zeros((0, 4))
    assert_same(tn.generic_gradient_magnitude(empty, tn.sobel), sn.generic_gradient_magnitude(empty, sn.sobel))
    scalar = np.array(2.5)
    assert_same(
        tn.generic_gradient_magnitude(scalar, tn.sobel, output=np.int32),
        sn.generic_gradient_magnitude(scalar, sn.sobel, output=np.int32),
    )
    with pytest.raises(UnsupportedParameterError, match="output= as an array"):
        tn.generic_gradient_magnitude(np.ones((3, 3)), tn.sobel, output=np.zeros((3, 3)))


@pytest.mark.parametrize("lib", LIBRARIES)
def test_laplace_of_correlate1d(rng, lib):
    x = sample(rng, (9, 10), np.float64)
    ref = sn.generic_laplace(x, lambda i, a, o, m, c: sn.correlate1d(i, [1, -2, 1], a, o, m, c))
    ours = tn.generic_laplace(to_library(lib, x), lambda i, a, o, m, c: tn.correlate1d(i, [1, -2, 1], a, o, m, c))
    assert isinstance(ours, library_type(lib))
    assert_same(ours, ref)
    assert_same(ours, sn.laplace(x))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_laplace_gaussian_modes_and_dtypes(rng, mode, dtype):
    x = sample(rng, (7, 8, 3), dtype)

    def d2(module):
        def d(input, axis, output, mode, cval, sigma, order=2):
            return module.gaussian_filter1d(input, sigma, axis, order, output, mode, cval)

        return d

    # (sigma 1.5: torchbridge's gaussian_filter1d with sigma 1.2, order 2 is
    # itself 1 ulp off SciPy's in a few elements, a difference of its own)
    kw = dict(mode=mode, cval=0.5, extra_arguments=(1.5,), extra_keywords={"order": 2})
    ref = sn.generic_laplace(x, d2(sn), **kw)
    assert_same(tn.generic_laplace(x, d2(sn), **kw), ref)
    assert_same(tn.generic_laplace(x, d2(tn), **kw), ref)
    assert_same(tn.generic_laplace(torch.from_numpy(x), d2(tn), output=np.float64, **kw),
                sn.generic_laplace(x, d2(sn), output=np.float64, **kw))


def test_laplace_axes_empty_and_0d(rng):
    x = sample(rng, (5, 6, 7), np.float32)
    ref = sn.generic_laplace(x, sn.sobel, axes=(0, 2), mode=["wrap", "mirror"])
    assert_same(tn.generic_laplace(x, tn.sobel, axes=(0, 2), mode=["wrap", "mirror"]), ref)
    empty = np.zeros((3, 0), np.float32)
    assert_same(tn.generic_laplace(empty, tn.sobel), sn.generic_laplace(empty, sn.sobel))
    assert_same(tn.generic_laplace(np.array(3.0), tn.sobel), sn.generic_laplace(np.array(3.0), sn.sobel))


# ---------------------------------------------------------------------------
# generic_filter1d
# ---------------------------------------------------------------------------


def weighted(iline, oline, *weights, scale=1.0):
    """A 1-D correlation written as a generic_filter1d function."""
    n = len(oline)
    acc = np.zeros(n)
    for k, w in enumerate(weights):
        acc += w * iline[k:k + n]
    oline[...] = acc * scale


def line_max_minus_first(iline, oline):
    size = len(iline) - len(oline) + 1
    windows = np.lib.stride_tricks.sliding_window_view(iline, size)
    oline[...] = windows.max(axis=1) - windows[:, 0]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("size", [1, 2, 3, 4, 7, 12])
def test_filter1d_modes_and_sizes(rng, mode, size):
    x = sample(rng, (5, 6), np.float64)
    for origin in {0, -(size // 2), (size - 1) // 2}:
        for axis in (0, 1, -1):
            kw = dict(axis=axis, mode=mode, cval=-3.5, origin=origin)
            ref = sn.generic_filter1d(x, line_max_minus_first, size, **kw)
            assert_same(tn.generic_filter1d(x, line_max_minus_first, size, **kw), ref)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_filter1d_containers_dtypes_and_extra_arguments(rng, lib, dtype):
    x = sample(rng, (4, 5, 9), dtype)
    kw = dict(extra_arguments=(0.5, -1.0, 2.0), extra_keywords={"scale": 0.25})
    ref = sn.generic_filter1d(x, weighted, 3, axis=1, **kw)
    ours = tn.generic_filter1d(to_library(lib, x), weighted, 3, axis=1, **kw)
    assert isinstance(ours, library_type(lib))
    assert_same(ours, ref)
    ref = sn.generic_filter1d(x, weighted, 3, output=np.float32, **kw)
    assert_same(tn.generic_filter1d(to_library(lib, x), weighted, 3, output=np.float32, **kw), ref)


def test_filter1d_lines_in_scipys_order_and_edge_cases(rng):
    x = sample(rng, (3, 4, 2), np.float64)
    seen_ours, seen_ref = [], []

    def record(seen):
        def f(iline, oline):
            assert iline.dtype == np.float64 and oline.dtype == np.float64
            seen.append(iline.copy())
            oline[...] = iline[1:-1]

        return f

    sn.generic_filter1d(x, record(seen_ref), 3, axis=1, mode="wrap")
    tn.generic_filter1d(x, record(seen_ours), 3, axis=1, mode="wrap")
    np.testing.assert_array_equal(np.array(seen_ours), np.array(seen_ref))
    # lines shorter than the filter, one-sample lines, empty input
    for shape in [(2, 1), (1, 3), (0, 4), (4, 0)]:
        y = sample(rng, shape, np.float64)
        for mode in MODES:
            ref = sn.generic_filter1d(y, line_max_minus_first, 5, mode=mode)
            assert_same(tn.generic_filter1d(y, line_max_minus_first, 5, mode=mode), ref)


def test_filter1d_refusals():
    x = np.ones((3, 4))
    with pytest.raises(InvalidArgumentError, match="invalid origin"):
        tn.generic_filter1d(x, weighted, 3, origin=2)
    with pytest.raises(InvalidArgumentError, match="invalid filter size"):
        tn.generic_filter1d(x, weighted, 0)
    with pytest.raises(InvalidArgumentError, match="extra_arguments must be a tuple"):
        tn.generic_filter1d(x, weighted, 3, extra_arguments=[1.0])
    with pytest.raises(InvalidArgumentError, match="invalid callable"):
        tn.generic_filter1d(x, 5, 3)
    with pytest.raises(TypeError):
        tn.generic_filter1d(x.astype(complex), weighted, 3)
    with pytest.raises(ZeroDivisionError):
        tn.generic_filter1d(x, lambda i, o: 1 / 0, 3)


def test_low_level_callable_is_refused():
    import ctypes

    from scipy import LowLevelCallable

    callback = ctypes.CFUNCTYPE(ctypes.c_int)(lambda: 1)
    low = LowLevelCallable(callback)
    with pytest.raises(UnsupportedParameterError, match="LowLevelCallable"):
        tn.generic_filter1d(np.ones(4), low, 3)
    with pytest.raises(UnsupportedParameterError, match="LowLevelCallable"):
        tn.generic_filter(np.ones(4), low, 3)
    with pytest.raises(NotImplementedError):
        tn.generic_filter(np.ones(4), low, 3)


# ---------------------------------------------------------------------------
# generic_filter
# ---------------------------------------------------------------------------


def spread(values):
    return values.max() - values.min() + 0.25 * values[0]


@pytest.mark.parametrize("mode", MODES)
def test_filter_modes_sizes_and_origins(rng, mode):
    x = sample(rng, (6, 7), np.float64)
    for size in [(1, 1), (2, 3), (3, 3), (4, 2), (5, 8)]:
        for origin in {(0, 0), (-(size[0] // 2), (size[1] - 1) // 2)}:
            kw = dict(size=size, mode=mode, cval=2.5, origin=origin)
            assert_same(tn.generic_filter(x, spread, **kw), sn.generic_filter(x, spread, **kw))


@pytest.mark.parametrize("mode", MODES)
def test_filter_footprints_larger_than_the_array(rng, mode):
    x = sample(rng, (3, 2), np.float64)
    footprint = rng.random((7, 5)) < 0.5
    footprint[3, 2] = True
    kw = dict(footprint=footprint, mode=mode, cval=-1.0)
    assert_same(tn.generic_filter(x, spread, **kw), sn.generic_filter(x, spread, **kw))
    assert_same(tn.generic_filter(x, np.median, size=6, mode=mode), sn.generic_filter(x, np.median, size=6, mode=mode))


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_filter_containers_dtypes_and_extra_arguments(rng, lib, dtype):
    x = sample(rng, (5, 6, 4), dtype)

    def f(values, a, b=0.0):
        return values @ np.arange(len(values)) * a + b

    footprint = np.array([[1, 0, 1], [0, 1, 1]], bool)
    kw = dict(footprint=footprint, extra_arguments=(0.3,), extra_keywords={"b": -1.25}, axes=(0, 2))
    ref = sn.generic_filter(x, f, **kw)
    ours = tn.generic_filter(to_library(lib, x), f, **kw)
    assert isinstance(ours, library_type(lib))
    assert_same(ours, ref)
    for output in (np.float32, np.uint8, np.int16):
        assert_same(tn.generic_filter(to_library(lib, x), f, output=output, **kw),
                    sn.generic_filter(x, f, output=output, **kw))


def test_filter_points_in_scipys_order_and_edge_cases(rng):
    x = sample(rng, (3, 4), np.float64)
    seen_ours, seen_ref = [], []

    def record(seen):
        def f(values):
            assert values.dtype == np.float64 and values.ndim == 1
            seen.append(values.copy())
            return values.sum()

        return f

    footprint = np.array([[0, 1, 1], [1, 0, 1]], bool)
    sn.generic_filter(x, record(seen_ref), footprint=footprint, mode="mirror")
    tn.generic_filter(x, record(seen_ours), footprint=footprint, mode="mirror")
    np.testing.assert_array_equal(np.array(seen_ours), np.array(seen_ref))
    # 0-d input, empty input, an all-false footprint, size 1, a numpy scalar result
    assert_same(tn.generic_filter(np.array(3.0), lambda w: w.sum() + len(w), 3),
                sn.generic_filter(np.array(3.0), lambda w: w.sum() + len(w), 3))
    assert_same(tn.generic_filter(np.zeros((0, 3)), spread, 3), sn.generic_filter(np.zeros((0, 3)), spread, 3))
    empty_footprint = np.zeros((3, 3), bool)
    assert_same(tn.generic_filter(x, lambda w: 5.0 + len(w), footprint=empty_footprint),
                sn.generic_filter(x, lambda w: 5.0 + len(w), footprint=empty_footprint))
    assert_same(tn.generic_filter(x, np.sum, size=1), sn.generic_filter(x, np.sum, size=1))
    assert_same(tn.generic_filter(x.astype(np.int32), lambda w: -2.7, 3),
                sn.generic_filter(x.astype(np.int32), lambda w: -2.7, 3))


def test_filter_refusals_and_warnings():
    x = np.ones((4, 4))
    with pytest.warns(UserWarning, match="ignoring size"):
        tn.generic_filter(x, np.sum, size=3, footprint=np.ones((2, 2)))
    with pytest.raises(InvalidArgumentError, match="no footprint"):
        tn.generic_filter(x, np.sum)
    with pytest.raises(InvalidArgumentError, match="invalid origin"):
        tn.generic_filter(x, np.sum, size=3, origin=2)
    with pytest.raises(InvalidArgumentError):
        tn.generic_filter(x, np.sum, size=(3, 3, 3))
    with pytest.raises(TypeError):
        tn.generic_filter(x, lambda w: np.array([1.0, 2.0]), 3)
    with pytest.raises(UnsupportedParameterError, match="output= as an array"):
        tn.generic_filter(x, np.sum, 3, output=np.zeros((4, 4)))


# ---------------------------------------------------------------------------
# distance_transform_bf
# ---------------------------------------------------------------------------

METRICS = ["euclidean", "taxicab", "cityblock", "manhattan", "chessboard", "Chessboard"]


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("shape", [(17,), (9, 11), (5, 6, 7)])
def test_distance_bf(rng, metric, shape):
    x = (rng.random(shape) < 0.7).astype(np.int16)
    dt, ft = scipy_call("distance_transform_bf", x, metric=metric, return_indices=True)
    ours_dt, ours_ft = tn.distance_transform_bf(x, metric=metric, return_indices=True)
    assert_same(ours_dt, dt)
    assert_same(ours_ft, ft)
    assert_same(tn.distance_transform_bf(x, metric=metric), dt)
    assert_same(tn.distance_transform_bf(x, metric=metric, return_distances=False, return_indices=True), ft)


@pytest.mark.parametrize("metric", ["euclidean", "taxicab", "chessboard"])
def test_distance_bf_ties_sampling_and_containers(rng, metric):
    # a few background points on a grid: many foreground points are equally near several of them
    x = np.ones((12, 13), np.uint8)
    x[::4, ::3] = 0
    x[5, 7] = 0
    for sampling in (None, 1.0, (2.0, 0.5), (1.0, 1.0)):
        dt, ft = scipy_call("distance_transform_bf", x, metric=metric, sampling=sampling, return_indices=True)
        for lib in LIBRARIES:
            ours_dt, ours_ft = tn.distance_transform_bf(
                to_library(lib, x), metric=metric, sampling=sampling, return_indices=True
            )
            assert isinstance(ours_dt, library_type(lib))
            assert_same(ours_dt, dt)
            assert_same(ours_ft, ft)


@pytest.mark.parametrize("metric", ["euclidean", "taxicab", "chessboard"])
def test_distance_bf_edge_cases(metric):
    cases = [
        np.ones((3, 4)),  # no background
        np.zeros((3, 4)),  # no foreground
        np.zeros((0, 4)),  # empty
        np.array([0.0, 2.0, 0.0, -1.0, 0.5]),
        np.array([[True, False], [True, True]]),
        np.array([1.0 + 0j, 0, 1j]),
    ]
    for x in cases:
        dt, ft = scipy_call("distance_transform_bf", x, metric=metric, return_indices=True)
        ours_dt, ours_ft = tn.distance_transform_bf(x, metric=metric, return_indices=True)
        assert_same(ours_dt, dt)
        assert_same(ours_ft, ft)


def test_distance_bf_chunks_bound_memory(rng):
    # more foreground-candidate pairs than one chunk holds (2^18), and a chunk of one row
    x = (rng.random((180, 190)) < 0.97).astype(np.uint8)
    dt, ft = scipy_call("distance_transform_bf", x, return_indices=True)
    ours_dt, ours_ft = tn.distance_transform_bf(x, return_indices=True)
    assert_same(ours_dt, dt)
    assert_same(ours_ft, ft)


def test_distance_bf_refusals():
    x = np.ones((3, 3))
    with pytest.raises(InvalidArgumentError, match="distance metric not supported"):
        tn.distance_transform_bf(x, metric="minkowski")
    with pytest.raises(InvalidArgumentError, match="at least one of"):
        tn.distance_transform_bf(x, return_distances=False)
    with pytest.raises(InvalidArgumentError):
        tn.distance_transform_bf(x, sampling=(1.0, 2.0, 3.0))
    with pytest.raises(UnsupportedParameterError):
        tn.distance_transform_bf(x, distances=np.zeros((3, 3)))


def test_generic_filters_take_cval_uncast_and_every_input_dtype():
    # SciPy's buffers are float64: cval is not truncated to an integer input's type
    x = np.arange(12, dtype=np.int16).reshape(3, 4)

    def line(iline, oline):
        oline[...] = iline[:-2] + iline[2:]

    kw = dict(mode="constant", cval=2.5)
    assert_same(tn.generic_filter(x, np.sum, 3, **kw), sn.generic_filter(x, np.sum, 3, **kw))
    assert_same(tn.generic_filter1d(x, line, 3, **kw), sn.generic_filter1d(x, line, 3, **kw))
    for y in (np.arange(12, dtype=np.uint64).reshape(3, 4) * 1000, np.eye(4, dtype=bool)):
        assert_same(tn.generic_filter(y, np.sum, 3), sn.generic_filter(y, np.sum, 3))
        assert_same(tn.generic_filter1d(y, line, 3), sn.generic_filter1d(y, line, 3))
