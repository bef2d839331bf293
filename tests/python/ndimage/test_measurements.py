"""The measurements (SciPy's ``_measurements.py``; src/ops/ndimage/measurements.rs):
label and find_objects, against scipy.ndimage."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as nd
from conftest import LIBRARIES, library_type, to_library, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from torchbridge import ndimage as tn


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("shape", [(1,), (7,), (40, 50), (9, 10, 11), (3, 4, 5, 6)])
@pytest.mark.parametrize("density", [0.3, 0.6])
def test_label_matches_scipy_for_every_connectivity(lib, shape, density, rng):
    a = rng.random(shape) < density
    for connectivity in range(1, len(shape) + 1):
        structure = nd.generate_binary_structure(len(shape), connectivity)
        want, count = nd.label(a, structure)
        got, n = tn.label(to_library(lib, a), to_library(lib, structure))
        assert isinstance(got, library_type(lib))
        assert n == count
        assert to_numpy(got).dtype == want.dtype == np.int32
        np.testing.assert_array_equal(to_numpy(got), want)
        assert tn.find_objects(got) == nd.find_objects(want)


def test_label_numbers_values_as_scipy():
    a = np.array([[0.5, 0, np.nan], [0, -0.0, 2], [3, 0, 0]])  # nan is nonzero, -0.0 is zero
    want, count = nd.label(a)
    got, n = tn.label(a)
    assert n == count == 3
    np.testing.assert_array_equal(got, want)


def test_long_winding_components_take_few_rounds():
    """A snake through the whole image (one component 45,000 pixels long) and
    percolation-like noise: hooking plus pointer compression, not one round per pixel."""
    snake = np.zeros((301, 301), bool)
    snake[::2, :] = True
    snake[1::4, -1] = True
    snake[3::4, 0] = True
    got, n = tn.label(snake)
    assert n == 1
    np.testing.assert_array_equal(got, nd.label(snake)[0])
    noise = np.random.default_rng(3).random((600, 600)) < 0.5
    np.testing.assert_array_equal(tn.label(noise)[0], nd.label(noise)[0])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int64, np.float64])
def test_label_output_dtype_and_bit_depth(dtype):
    a = np.zeros(600, bool)
    a[::2] = True  # 300 components
    if np.iinfo(dtype).max < 300 if np.issubdtype(dtype, np.integer) else False:
        with pytest.raises(RuntimeError):
            nd.label(a, output=dtype)
        with pytest.raises(ValueError, match="insufficient bit-depth"):
            tn.label(a, output=dtype)
        return
    got, n = tn.label(a, output=dtype)
    want, count = nd.label(a, output=dtype)
    assert n == count == 300 and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_label_edge_shapes():
    for a in (np.array(3.0), np.array(0), np.zeros((0, 4)), np.zeros((2, 0, 3))):
        got, n = tn.label(a)
        want, count = nd.label(a)
        assert n == count and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: tn.label(np.ones(3, complex)), TypeError, "Complex"),
        (lambda: tn.label(np.ones((3, 3)), np.ones(3, bool)), ValueError, "equal rank"),
        (lambda: tn.label(np.ones((3, 3)), np.ones((3, 5), bool)), ValueError, "equal to 3"),
        (lambda: tn.label(np.ones((2, 2)), [[0, 0, 1], [0, 1, 0], [0, 0, 0]]), ValueError, "not symmetric"),
        (lambda: tn.label(np.ones(3), output=np.zeros(3, np.int32)), NotImplementedError, "output"),
        (lambda: tn.find_objects(np.ones(3)), TypeError, "integer"),
        (lambda: tn.find_objects(np.array([True, False])), TypeError, "integer"),
    ],
)
def test_bad_input_raises_clearly(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_find_objects_edges_as_scipy():
    labels = np.array([[0, 2, 2], [-1, 0, 5], [2, 0, 5]])
    for max_label in (0, 1, 3, 7):
        assert tn.find_objects(labels, max_label) == nd.find_objects(labels, max_label)
    assert tn.find_objects(np.array(3)) == nd.find_objects(np.array(3))
    # empty: SciPy's max of nothing raises; no labels means no objects here
    with pytest.raises(ValueError):
        nd.find_objects(np.zeros((0, 2), int))
    assert tn.find_objects(np.zeros((0, 2), int)) == []
    small = labels.clip(0).astype(np.uint8)
    assert tn.find_objects(small) == nd.find_objects(small)


def test_inputs_are_not_modified(rng):
    a = rng.random((20, 20)) < 0.5
    before = a.copy()
    labels, _ = tn.label(a)
    kept = labels.copy()
    tn.find_objects(labels)
    np.testing.assert_array_equal(a, before)
    np.testing.assert_array_equal(labels, kept)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(1, 12), min_size=1, max_size=3),
    st.floats(0.1, 0.9),
    st.integers(1, 3),
    st.integers(0, 2**32 - 1),
)
def test_random_shapes_and_structures(shape, density, connectivity, seed):
    a = np.random.default_rng(seed).random(shape) < density
    structure = nd.generate_binary_structure(len(shape), min(connectivity, len(shape)))
    want, count = nd.label(a, structure)
    got, n = tn.label(a, structure)
    assert n == count
    np.testing.assert_array_equal(got, want)
    assert tn.find_objects(got) == nd.find_objects(want)
