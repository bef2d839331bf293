"""The morphology of ``scipy.ndimage._morphology`` (src/ops/ndimage/morphology.rs), against SciPy.

Booleans and integers are compared exactly; the Euclidean distances within
1e-12 (they are SciPy's formula on the same feature indices). Where SciPy's
result depends on its own implementation rather than on the definition, the
cases are left out and named here:

- a NaN under a box (``size=``, an all-true footprint) of the grey routines:
  SciPy's 1-D pass is a monotone deque whose NaN handling depends on the
  order of the samples; torchbridge's separable minimum/maximum propagates the
  NaN. Non-box footprints and structures follow SciPy's C loop and match.
- boolean input of ``grey_closing``/``black_tophat`` with a ``structure``:
  SciPy's intermediate bool array holds the raw bytes of ``(npy_bool)value``
  (2, 3, ...), which its second pass reads back as numbers.
- ``distance_transform_edt`` on another device than the CPU with
  ``sampling`` and equidistant background elements: which index is returned
  depends on rounding in either algorithm; the distances agree. (On the CPU
  the transform is SciPy's algorithm in SciPy's order: indices are compared
  with ``sampling`` too.)
- an origin below ``-(size // 2)``: SciPy's ``_center_is_true`` wraps the
  negative index and computes a shifted result; torchbridge refuses it as it
  refuses origins beyond the other end (SciPy: ``IndexError``).
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
from torchbridge.errors import InvalidArgumentError, UnsupportedParameterError

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror", "grid-wrap"]
BINARY = ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"]
GREY = [
    "grey_erosion", "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
    "morphological_laplace", "white_tophat", "black_tophat",
]


def same(ours, ref):
    ours = to_numpy(ours)
    ref = np.asarray(ref)
    assert ours.dtype == ref.dtype, (ours.dtype, ref.dtype)
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    np.testing.assert_array_equal(ours, ref)


def scipy_call(name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sn, name)(*args, **kwargs)


def blobs(rng, shape, p=0.4):
    return rng.random(shape) > p


# --- every library ---------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", BINARY + ["binary_fill_holes", "binary_propagation", "binary_hit_or_miss"])
def test_binary_in_every_library(lib, name):
    x = blobs(np.random.default_rng(1), (9, 12))
    got = getattr(tn, name)(to_library(lib, x))
    assert isinstance(got, library_type(lib))
    same(got, getattr(sn, name)(x))


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", GREY)
def test_grey_in_every_library(lib, name):
    x = np.random.default_rng(2).integers(-50, 50, (8, 11)).astype(np.float64)
    fp = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]], bool)
    got = getattr(tn, name)(to_library(lib, x), footprint=fp)
    assert isinstance(got, library_type(lib))
    same(got, getattr(sn, name)(x, footprint=fp))


@pytest.mark.parametrize("lib", LIBRARIES)
def test_distance_transforms_in_every_library(lib):
    x = blobs(np.random.default_rng(3), (10, 13), 0.2)
    d, i = tn.distance_transform_edt(to_library(lib, x), return_indices=True)
    assert isinstance(d, library_type(lib)) and isinstance(i, library_type(lib))
    rd, ri = sn.distance_transform_edt(x, return_indices=True)
    np.testing.assert_allclose(to_numpy(d), rd, rtol=0, atol=1e-12)
    same(i, ri)
    same(tn.distance_transform_cdt(to_library(lib, x)), sn.distance_transform_cdt(x))


# --- the binary routines ------------------------------------------------------------------------


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("connectivity", [1, 2])
@pytest.mark.parametrize("iterations", [1, 2, 3, 0, -1])
@pytest.mark.parametrize("border_value", [0, 1])
@pytest.mark.parametrize("origin", [0, (1, -1), -1])
def test_binary_options(name, connectivity, iterations, border_value, origin):
    x = blobs(np.random.default_rng(4), (11, 13))
    s = sn.generate_binary_structure(2, connectivity)
    kw = {"structure": s, "iterations": iterations, "border_value": border_value, "origin": origin}
    same(getattr(tn, name)(x, **kw), getattr(sn, name)(x, **kw))


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("iterations", [1, 3, -1])
def test_binary_mask(name, iterations):
    rng = np.random.default_rng(5)
    x, mask = blobs(rng, (12, 10)), blobs(rng, (12, 10), 0.3)
    same(getattr(tn, name)(x, iterations=iterations, mask=mask), getattr(sn, name)(x, iterations=iterations, mask=mask))


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation"])
@pytest.mark.parametrize("origin", [0, (0, 1), (-1, -1), (-1, 0)])
def test_even_asymmetric_structures(name, origin):
    x = blobs(np.random.default_rng(6), (9, 9))
    s = np.array([[0, 1, 1, 0], [1, 0, 0, 1]], bool)
    same(getattr(tn, name)(x, structure=s, origin=origin, iterations=2),
         getattr(sn, name)(x, structure=s, origin=origin, iterations=2))


@pytest.mark.parametrize("name", BINARY)
def test_structure_larger_than_the_array_and_3d(name):
    rng = np.random.default_rng(7)
    x = blobs(rng, (2, 3))
    s = sn.iterate_structure(sn.generate_binary_structure(2, 1), 3)
    same(getattr(tn, name)(x, structure=s), getattr(sn, name)(x, structure=s))
    y = blobs(rng, (5, 6, 4))
    for c in (1, 2, 3):
        s3 = sn.generate_binary_structure(3, c)
        same(getattr(tn, name)(y, structure=s3, iterations=2), getattr(sn, name)(y, structure=s3, iterations=2))


def test_binary_axes_dtypes_and_empty():
    rng = np.random.default_rng(8)
    x = blobs(rng, (6, 7, 5))
    same(tn.binary_erosion(x, axes=(0, 2)), sn.binary_erosion(x, axes=(0, 2)))
    same(tn.binary_dilation(x, axes=1, iterations=2), sn.binary_dilation(x, axes=1, iterations=2))
    # nonzero is true, NaN included; the output dtype is ignored as SciPy ignores it
    v = np.array([0.0, np.nan, 2.0, -1.0, 0.0, 3.0])
    same(tn.binary_erosion(v), sn.binary_erosion(v))
    w = np.array([0, 5, -2, 0, 0, 1], np.int16)
    same(tn.binary_dilation(w, output=np.int32), sn.binary_dilation(w, output=np.int32))
    for name in BINARY + ["binary_fill_holes"]:
        same(getattr(tn, name)(np.zeros((0, 4), bool)), getattr(sn, name)(np.zeros((0, 4), bool)))


def test_fill_holes_propagation_hit_or_miss():
    h = np.zeros((12, 12), bool)
    h[2:9, 2:9] = True
    h[4:6, 4:6] = False
    h[10, :] = True
    for c in (1, 2):
        s = sn.generate_binary_structure(2, c)
        same(tn.binary_fill_holes(h, structure=s), sn.binary_fill_holes(h, structure=s))
    rng = np.random.default_rng(9)
    x, mask = blobs(rng, (15, 15), 0.8), blobs(rng, (15, 15), 0.3)
    same(tn.binary_propagation(x, mask=mask), sn.binary_propagation(x, mask=mask))
    same(tn.binary_propagation(x, mask=mask, border_value=1), sn.binary_propagation(x, mask=mask, border_value=1))
    y = blobs(rng, (10, 10))
    s1 = np.array([[0, 1, 0], [1, 1, 0], [0, 0, 0]], bool)
    same(tn.binary_hit_or_miss(y), sn.binary_hit_or_miss(y))
    same(tn.binary_hit_or_miss(y, s1, origin1=(0, 1)), sn.binary_hit_or_miss(y, s1, origin1=(0, 1)))
    same(tn.binary_hit_or_miss(y, s1, ~s1, origin2=(-1, 0)), sn.binary_hit_or_miss(y, s1, ~s1, origin2=(-1, 0)))


def test_structures():
    for rank in range(0, 4):
        for c in range(0, 4):
            same(tn.generate_binary_structure(rank, c), sn.generate_binary_structure(rank, c))
    s = sn.generate_binary_structure(2, 1)
    for it in (0, 1, 2, 3):
        same(tn.iterate_structure(s, it), sn.iterate_structure(s, it))
    got, origin = tn.iterate_structure(s, 3, origin=(1, -1))
    ref, ref_origin = sn.iterate_structure(s, 3, origin=(1, -1))
    same(got, ref)
    assert list(origin) == list(ref_origin)


def test_binary_errors():
    x = np.zeros((4, 4), bool)
    with pytest.raises(InvalidArgumentError, match="same dimensionality"):
        tn.binary_erosion(x, structure=np.ones(3))
    with pytest.raises(InvalidArgumentError, match="origin"):
        tn.binary_erosion(x, structure=np.ones((2, 2)), origin=1)
    with pytest.raises(InvalidArgumentError, match="mask"):
        tn.binary_dilation(x, mask=np.ones((3, 4)))
    with pytest.raises(TypeError, match="iterations"):
        tn.binary_erosion(x, iterations=1.5)
    with pytest.raises(TypeError):
        tn.binary_erosion(x.astype(np.complex128))
    with pytest.raises(UnsupportedParameterError):
        tn.binary_erosion(x, output=np.zeros((4, 4), bool))


# --- the grey routines -------------------------------------------------------------------------


@pytest.mark.parametrize("name", GREY)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.uint8, np.int16, np.int32])
def test_grey_modes_and_dtypes(name, mode, dtype):
    rng = np.random.default_rng(10)
    if np.dtype(dtype).kind == "f":
        x = (rng.standard_normal((9, 12)) * 10).astype(dtype)
    else:
        x = rng.integers(0, 120, (9, 12)).astype(dtype)
    fp = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]], bool)
    structure = rng.integers(-3, 4, (3, 3)).astype(np.float64)
    for kw in ({"size": 3}, {"size": (2, 4)}, {"footprint": fp}, {"structure": structure},
               {"footprint": fp, "structure": structure + 0.5}, {"size": 3, "origin": (1, -1)},
               {"footprint": fp, "origin": (-1, 0)}):
        kw = dict(kw, mode=mode, cval=2.5)
        same(getattr(tn, name)(x, **kw), scipy_call(name, x, **kw))


@pytest.mark.parametrize("name", ["grey_erosion", "grey_dilation", "white_tophat"])
def test_grey_bool_input_and_output_dtype(name):
    rng = np.random.default_rng(11)
    b = blobs(rng, (8, 9))
    fp = np.array([[1, 1, 0], [0, 1, 1]], bool)
    same(getattr(tn, name)(b, footprint=fp), scipy_call(name, b, footprint=fp))
    same(getattr(tn, name)(b, size=2), scipy_call(name, b, size=2))
    x = rng.integers(0, 100, (8, 9)).astype(np.int16)
    same(getattr(tn, name)(x, size=3, output=np.int32), scipy_call(name, x, size=3, output=np.int32))
    same(getattr(tn, name)(x, footprint=fp, output=np.float64), scipy_call(name, x, footprint=fp, output=np.float64))


@pytest.mark.parametrize("name", ["grey_erosion", "grey_dilation"])
def test_grey_structure_wraps_integers_as_c_does(name):
    x = np.arange(12, dtype=np.uint8).reshape(3, 4) + 248
    s = np.full((3, 3), 5.7)
    same(getattr(tn, name)(x, structure=s), scipy_call(name, x, structure=s))
    same(getattr(tn, name)(x, structure=-s, mode="constant", cval=300.5),
         scipy_call(name, x, structure=-s, mode="constant", cval=300.5))


@pytest.mark.parametrize("name", ["grey_erosion", "grey_dilation", "grey_opening"])
def test_nan_under_a_footprint_or_structure(name):
    x = np.random.default_rng(12).standard_normal((8, 10))
    x[0, 0] = x[3, 4] = x[7, 9] = np.nan
    fp = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]], bool)
    same(getattr(tn, name)(x, footprint=fp), scipy_call(name, x, footprint=fp))
    same(getattr(tn, name)(x, structure=np.ones((3, 3))), scipy_call(name, x, structure=np.ones((3, 3))))


def test_grey_small_arrays_axes_and_errors():
    rng = np.random.default_rng(13)
    x = rng.standard_normal((2, 3))
    for name in GREY:
        same(getattr(tn, name)(x, size=5), scipy_call(name, x, size=5))
        eye = np.eye(5, dtype=bool)
        same(getattr(tn, name)(x, footprint=eye), scipy_call(name, x, footprint=eye))
    y = rng.standard_normal((5, 6, 4))
    same(tn.grey_erosion(y, size=3, axes=(0, 2)), sn.grey_erosion(y, size=3, axes=(0, 2)))
    fp = np.array([[1, 0], [1, 1]], bool)
    same(tn.grey_dilation(y, footprint=fp, axes=(1, 2)), sn.grey_dilation(y, footprint=fp, axes=(1, 2)))
    same(tn.grey_erosion(np.zeros((0, 3)), size=2), sn.grey_erosion(np.zeros((0, 3)), size=2))
    with pytest.raises(ValueError, match="size, footprint, or structure"):
        tn.grey_erosion(x)
    with pytest.raises(ValueError, match="All-zero"):
        tn.grey_dilation(x, footprint=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="origin"):
        tn.grey_erosion(x, footprint=fp, origin=2)
    with pytest.raises(ValueError):
        tn.grey_erosion(x, structure=np.ones(3))
    with pytest.raises(TypeError):
        tn.morphological_gradient(x > 0, size=3)
    with pytest.warns(UserWarning, match="ignoring size"):
        tn.grey_erosion(x, size=3, footprint=fp)


# --- the distance transforms -------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(7,), (1,), (30, 41), (1, 9), (6, 7, 8)])
@pytest.mark.parametrize("p", [0.05, 0.5, 0.97])
def test_edt(shape, p):
    rng = np.random.default_rng(14)
    x = rng.random(shape) > p
    d, i = tn.distance_transform_edt(x, return_indices=True)
    rd, ri = sn.distance_transform_edt(x, return_indices=True)
    np.testing.assert_allclose(to_numpy(d), rd, rtol=0, atol=1e-12)
    same(i, ri)
    sampling = [1.5, 0.7, 2.25][: len(shape)]
    got = tn.distance_transform_edt(x, sampling=sampling)
    np.testing.assert_allclose(to_numpy(got), sn.distance_transform_edt(x, sampling=sampling), rtol=0, atol=1e-12)
    ind = to_numpy(tn.distance_transform_edt(x, sampling=sampling, return_distances=False, return_indices=True))
    assert ind.dtype == np.int32 and ind.shape == (len(shape),) + shape
    for metric in ("chessboard", "taxicab", sn.generate_binary_structure(len(shape), 1)):
        same(tn.distance_transform_cdt(x, metric=metric), sn.distance_transform_cdt(x, metric=metric))


def test_edt_far_background_and_edges():
    x = np.ones((64, 70), bool)
    x[40, 3] = False
    for args in ({}, {"sampling": (0.5, 2.0)}):
        np.testing.assert_allclose(to_numpy(tn.distance_transform_edt(x, **args)),
                                   sn.distance_transform_edt(x, **args), rtol=0, atol=1e-12)
    same(tn.distance_transform_edt(x, return_distances=False, return_indices=True),
         sn.distance_transform_edt(x, return_distances=False, return_indices=True))
    ones = np.ones((3, 4))
    np.testing.assert_allclose(to_numpy(tn.distance_transform_edt(ones)), sn.distance_transform_edt(ones), atol=1e-12)
    same(tn.distance_transform_edt(ones, return_indices=True)[1],
         sn.distance_transform_edt(ones, return_indices=True)[1])
    same(tn.distance_transform_cdt(ones), sn.distance_transform_cdt(ones))
    v = np.array([1.0, np.nan, 0.0, 2.0])
    np.testing.assert_allclose(to_numpy(tn.distance_transform_edt(v)), sn.distance_transform_edt(v), atol=1e-12)
    same(tn.distance_transform_cdt(np.zeros((0, 3))), sn.distance_transform_cdt(np.zeros((0, 3))))


EDT_CASES = [
    ("all foreground", np.ones((9, 11), bool)),
    ("all background", np.zeros((9, 11), bool)),
    ("single background", np.pad(np.zeros((1, 1), bool), ((5, 20), (33, 2)), constant_values=True)),
    ("1-D", np.random.default_rng(21).random(300) > 0.9),
    ("3-D", np.random.default_rng(22).random((13, 17, 19)) > 0.97),
    ("4-D", np.random.default_rng(23).random((5, 6, 4, 7)) > 0.9),
    ("large, threaded", np.random.default_rng(0).random((512, 512)) > 0.01),
    ("tall", np.random.default_rng(24).random((700, 60)) > 0.995),
    ("empty", np.ones((0, 4), bool)),
    ("one row", np.random.default_rng(25).random((1, 50)) > 0.8),
]


@pytest.mark.parametrize("name,x", EDT_CASES, ids=[c[0] for c in EDT_CASES])
@pytest.mark.parametrize("sampling", [None, "anisotropic"])
def test_edt_against_scipy_edge_cases(name, x, sampling):
    if sampling == "anisotropic":
        sampling = [1.5, 0.7, 2.25, 0.3][: x.ndim]
    for kw in ({}, {"return_indices": True}, {"return_distances": False, "return_indices": True}):
        got = tn.distance_transform_edt(x, sampling=sampling, **kw)
        want = sn.distance_transform_edt(x, sampling=sampling, **kw)
        got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            g = to_numpy(g)
            assert g.dtype == w.dtype and g.shape == w.shape
            if w.dtype == np.float64:
                np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)
            else:
                same(g, w)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.uint8, np.complex64])
def test_edt_any_dtype_and_layout(dtype):
    x = (np.random.default_rng(26).random((40, 70)) > 0.05).astype(dtype) * 3
    for arr in (x, x.T, x[::2, ::3]):
        d, i = tn.distance_transform_edt(arr, return_indices=True)
        rd, ri = sn.distance_transform_edt(arr, return_indices=True)
        np.testing.assert_allclose(to_numpy(d), rd, rtol=1e-12, atol=0)
        same(i, ri)


def test_distance_transform_errors():
    x = np.ones((3, 3))
    with pytest.raises(ValueError, match="at least one"):
        tn.distance_transform_edt(x, return_distances=False)
    with pytest.raises(ValueError, match="return_indices must be True"):
        tn.distance_transform_edt(x, indices=np.zeros((2, 3, 3), np.int32))
    with pytest.raises(UnsupportedParameterError):
        tn.distance_transform_edt(x, distances=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="sequence argument"):
        tn.distance_transform_edt(x, sampling=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="invalid metric"):
        tn.distance_transform_cdt(x, metric="euclidean")
    with pytest.raises(ValueError, match="equal to 3"):
        tn.distance_transform_cdt(x, metric=np.ones((3, 5)))
    with pytest.raises(UnsupportedParameterError):
        tn.distance_transform_cdt(x, return_indices=True)


# --- hypothesis --------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 7), min_size=1, max_size=3),
    connectivity=st.integers(1, 3),
    iterations=st.integers(-1, 4),
    border_value=st.integers(0, 1),
    seed=st.integers(0, 2**16),
    name=st.sampled_from(BINARY),
    use_mask=st.booleans(),
)
def test_binary_hypothesis(shape, connectivity, iterations, border_value, seed, name, use_mask):
    rng = np.random.default_rng(seed)
    x = rng.random(shape) > 0.4
    s = sn.generate_binary_structure(len(shape), min(connectivity, len(shape)))
    mask = rng.random(shape) > 0.3 if use_mask else None
    kw = {"structure": s, "iterations": iterations, "border_value": border_value, "mask": mask}
    same(getattr(tn, name)(x, **kw), getattr(sn, name)(x, **kw))


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 9), min_size=1, max_size=3),
    fshape=st.lists(st.integers(1, 4), min_size=3, max_size=3),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**16),
    name=st.sampled_from(GREY),
    with_structure=st.booleans(),
)
def test_grey_hypothesis(shape, fshape, mode, seed, name, with_structure):
    rng = np.random.default_rng(seed)
    x = rng.integers(-20, 20, shape).astype(np.float64)
    fshape = fshape[: len(shape)]
    fp = rng.random(fshape) > 0.3
    fp.flat[0] = True
    kw = {"footprint": fp, "mode": mode, "cval": 1.5}
    if with_structure:
        kw["structure"] = rng.integers(-2, 3, fshape).astype(np.float64)
    same(getattr(tn, name)(x, **kw), scipy_call(name, x, **kw))


@settings(max_examples=60, deadline=None)
@given(shape=st.lists(st.integers(1, 12), min_size=1, max_size=3), p=st.floats(0.0, 1.0), seed=st.integers(0, 2**16))
def test_edt_hypothesis(shape, p, seed):
    x = np.random.default_rng(seed).random(shape) > p
    d, i = tn.distance_transform_edt(x, return_indices=True)
    rd, ri = sn.distance_transform_edt(x, return_indices=True)
    np.testing.assert_allclose(to_numpy(d), rd, rtol=0, atol=1e-12)
    same(i, ri)
