"""The statistics of labeled regions (SciPy's ``_measurements.py``:
sum_labels, mean, variance, standard_deviation, minimum, maximum, median,
their positions, extrema, center_of_mass, histogram), against scipy.ndimage
for each way ``labels`` and ``index`` choose the elements."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.ndimage as nd
from conftest import LIBRARIES, library_type, to_library, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from torchbridge import ndimage as tn
from torchbridge.errors import UnsupportedParameterError

VALUES = ["sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum", "maximum", "median"]
POSITIONS = ["minimum_position", "maximum_position"]
# Index choices: None (positive labels), a scalar, arrays (1-D, 2-D, with
# entries no label has, floats truncated on SciPy's integer path, 0-d).
INDICES = [None, 1, np.int64(2), [1, 2], [[1], [5]], [2.5], list(range(6)), [3, 1, 1]]


def scipy(name, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # SciPy's 0/0 for empty groups
        return getattr(nd, name)(*args)


def assert_same(got, want, rtol=1e-12):
    if isinstance(want, tuple | list):
        assert type(got) is type(want) and len(got) == len(want), (got, want)
        for g, w in zip(got, want, strict=True):
            assert_same(g, w, rtol)
        return
    got_array = to_numpy(got) if hasattr(got, "shape") and not np.isscalar(got) else np.asarray(got)
    want_array = np.asarray(want)
    assert got_array.shape == want_array.shape, (got, want)
    if want_array.dtype.kind in "iub":
        np.testing.assert_array_equal(got_array, want_array)
    else:
        np.testing.assert_allclose(got_array, want_array, rtol=rtol, atol=0, equal_nan=True)


@pytest.fixture
def image(rng):
    values = rng.normal(size=(9, 11))
    labels = rng.integers(0, 5, size=(9, 11))
    return values, labels


@pytest.mark.parametrize("name", VALUES + POSITIONS + ["extrema", "center_of_mass"])
@pytest.mark.parametrize("index", INDICES, ids=repr)
@pytest.mark.parametrize("labels_as", ["none", "int", "float", "shifted", "large"])
def test_matches_scipy_on_numpy(name, index, labels_as, image):
    values, labels = image
    labels = {
        "none": None,
        "int": labels,
        "float": labels.astype(float),  # SciPy's np.unique path: the index compared exactly
        "shifted": labels - 1,  # negative labels: the unique path too
        "large": labels * 1000,  # labels beyond labels.size: the unique path
    }[labels_as]
    if name == "center_of_mass" and labels is not None and index is not None and np.ndim(index) == 2:
        pytest.skip("SciPy's result for a 2-D index is its transposed list of arrays; ours raises (tested below)")
    try:
        want = scipy(name, values, labels, index)
    except ValueError as error:  # a group with no elements (labels * 1000 has no label 1 or 2)
        assert "zero-size" in str(error)
        with pytest.raises(ValueError, match="zero-size"):
            getattr(tn, name)(values, labels, index)
        return
    got = getattr(tn, name)(values, labels, index)
    assert_same(got, want)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "uint16", "bool"])
@pytest.mark.parametrize("name", VALUES + POSITIONS)
def test_dtypes_and_containers(lib, dtype, name, image):
    values, labels = image
    x = (values * 4).astype(dtype) if dtype != "bool" else values > 0
    for index in [None, 2, [1, 2, 4, 7]]:
        want = scipy(name, x, labels, index)
        got = getattr(tn, name)(to_library(lib, x), to_library(lib, labels), index)
        if name in POSITIONS:
            if dtype in ("uint8", "uint16", "bool", "int32"):
                continue  # ties: SciPy's index-array path picks by an unstable sort (see test_ties)
            assert got == want
            continue
        rtol = 1e-6 if dtype == "float32" and name not in ("minimum", "maximum", "median") else 1e-12
        if np.ndim(want) == 0 and lib == "numpy":
            assert np.isscalar(got) and np.asarray(got).dtype == np.asarray(want).dtype, (got, want)
        elif np.ndim(want) > 0:
            assert isinstance(got, library_type(lib))
            assert to_numpy(got).dtype == np.asarray(want).dtype, (got, want)
        assert_same(got, want, rtol)


def test_nan_rules_follow_scipy():
    x = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]])
    labels = np.array([[1, 1, 1], [2, 2, 3]])
    for name in ["minimum", "maximum", "median", "mean", "sum_labels"]:
        for index in [None, 1, 2, [1, 2, 3]]:
            assert_same(getattr(tn, name)(x, labels, index), scipy(name, x, labels, index))
    # An index array: a group's minimum is NaN only when all its values are, its maximum when any is.
    np.testing.assert_array_equal(tn.minimum(x, labels, [1, 2]), [1.0, np.nan])
    np.testing.assert_array_equal(tn.maximum(x, labels, [1, 2]), [np.nan, np.nan])


def test_ties_take_the_first_position_in_raster_order():
    x = np.array([[5, 1, 1], [9, 9, 1]])
    labels = np.array([[1, 1, 1], [1, 1, 2]])
    assert tn.minimum_position(x) == nd.minimum_position(x) == (0, 1)
    assert tn.maximum_position(x) == nd.maximum_position(x) == (1, 0)
    assert tn.minimum_position(x, labels, [1, 2]) == [(0, 1), (1, 2)]
    assert tn.maximum_position(x, labels, [1, 2]) == [(1, 0), (1, 2)]


def test_missing_entries_get_scipys_values():
    x = np.array([4.0, 2.0, 7.0, 5.0])
    labels = np.array([3, 3, 5, 5])
    index = [3, 4, 5, 99]  # 4 and 99: no elements
    for name in VALUES + POSITIONS:
        assert_same(getattr(tn, name)(x, labels, index), scipy(name, x, labels, index))
    # SciPy's median of a missing entry: the smallest value of the smallest label.
    assert tn.median(x, labels, index)[1] == 2.0


def test_broadcast_labels(image):
    values, labels = image
    row_labels = labels[:1]  # broadcast down the rows
    for name in ["sum_labels", "mean", "maximum", "median"]:
        assert_same(tn.__dict__[name](values, row_labels, [0, 1, 3]), scipy(name, values, row_labels, [0, 1, 3]))
    with pytest.raises(ValueError, match="same shape"):
        tn.mean(values, labels[:, :3], [1])


def test_empty_groups_raise_where_scipy_raises():
    x = np.arange(6.0)
    labels = np.zeros(6, int)
    for name in ["minimum", "maximum"]:
        with pytest.raises(ValueError, match="zero-size"):
            scipy(name, x, labels)
        with pytest.raises(ValueError, match="zero-size"):
            getattr(tn, name)(x, labels)
    assert np.isnan(tn.median(x, labels)) and np.isnan(scipy("median", x, labels))
    assert tn.sum_labels(x, labels) == 0
    with pytest.raises(ValueError, match="zero-size"):
        tn.mean(np.zeros(0), np.zeros(0, int), [1])


def test_complex_input():
    z = np.array([1 + 2j, 3 - 1j, -2j, 4])
    labels = np.array([1, 1, 2, 2])
    for name in ["sum_labels", "mean", "variance"]:
        for index in [None, 1]:
            assert_same(getattr(tn, name)(z, labels, index), scipy(name, z, labels, index))
    with pytest.raises(TypeError, match="real input"):
        tn.mean(z, labels, [1, 2])  # SciPy's bincount refuses complex weights too
    with pytest.raises(TypeError, match="real input"):
        tn.minimum(z)


def test_center_of_mass_of_a_2d_index_is_refused(image):
    values, labels = image
    with pytest.raises(UnsupportedParameterError, match="not 1-D"):
        tn.center_of_mass(values, labels, [[1], [2]])


@pytest.mark.parametrize("lib", LIBRARIES)
def test_histogram(lib, image):
    values, labels = image
    x, lab = to_library(lib, values), to_library(lib, labels)
    for lo, hi, bins in [(-1, 1, 4), (-3.0, 3.0, 10), (0, 0, 3), (-0.5, 2.5, 1)]:
        want = nd.histogram(values, lo, hi, bins)
        got = tn.histogram(x, lo, hi, bins)
        assert isinstance(got, library_type(lib))
        assert to_numpy(got).dtype == want.dtype
        np.testing.assert_array_equal(to_numpy(got), want)
        for index in [(), (2,)]:
            np.testing.assert_array_equal(
                to_numpy(tn.histogram(x, lo, hi, bins, lab, *index)), nd.histogram(values, lo, hi, bins, labels, *index)
            )
        want = nd.histogram(values, lo, hi, bins, labels, [1, 9, 3])
        got = tn.histogram(x, lo, hi, bins, lab, [1, 9, 3])
        assert got.dtype == object and got.shape == want.shape == (3,)
        assert got[1] is None and want[1] is None
        for g, w in zip(got[[0, 2]], want[[0, 2]], strict=True):
            assert isinstance(g, library_type(lib))
            np.testing.assert_array_equal(to_numpy(g), w)
    assert tn.histogram(values, 0, 1, 3, labels, 9) is None is nd.histogram(values, 0, 1, 3, labels, 9)


def test_histogram_edges_and_errors():
    # Values on the edges, the last edge counted in the last bin, NaN and values outside not counted.
    x = np.array([0.0, 0.1, 0.2, 0.3, 1.0, 1.0000001, -1e-300, np.nan, np.inf])
    for bins in [1, 3, 10, 7]:
        np.testing.assert_array_equal(tn.histogram(x, 0, 1, bins), nd.histogram(x, 0, 1, bins))
    single = x.astype(np.float32)
    np.testing.assert_array_equal(tn.histogram(single, 0, 1, 7), nd.histogram(single, 0, 1, 7))
    with pytest.raises(ValueError, match="monotonically"):
        tn.histogram(x, 1, 0, 3)
    with pytest.raises(ValueError, match="index without defined labels"):
        tn.histogram(x, 0, 1, 3, None, [1])
    with pytest.raises(ValueError, match="without loss of precision"):
        tn.histogram(x, 0, 1, 3, np.ones(9, int), [1.5])


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 6), min_size=1, max_size=3),
    n_labels=st.integers(1, 5),
    seed=st.integers(0, 2**32 - 1),
    ints=st.booleans(),
)
def test_hypothesis_against_scipy(shape, n_labels, seed, ints):
    rng = np.random.default_rng(seed)
    values = rng.integers(-5, 5, size=shape) if ints else rng.normal(size=shape)
    labels = rng.integers(0, n_labels + 1, size=shape)
    index = list(range(n_labels + 2))
    for name in VALUES + ["center_of_mass"]:
        assert_same(getattr(tn, name)(values, labels, index), scipy(name, values, labels, index))
    if not ints:  # no ties, so SciPy's positions are defined
        for name in POSITIONS + ["extrema"]:
            assert_same(getattr(tn, name)(values, labels, index), scipy(name, values, labels, index))
