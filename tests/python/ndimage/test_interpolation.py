"""The interpolation of ``scipy.ndimage._interpolation`` (src/ops/ndimage/interpolation.rs), against SciPy.

The prefilter's recursions and the interpolation's sums run in another order
than SciPy's C loops, so float64 values are compared to ``1e-12`` relative to
the array's scale (measured: a few ulps), float32 outputs to float32 rounding,
integer outputs exactly (SciPy's rounding half away from zero and clipping).

SciPy 1.17's ``_init_causal_reflect`` (the prefilter's start for ``reflect``,
``grid-mirror`` and ``nearest``) reads the value it is accumulating (gh-24550,
fixed upstream for 1.18): for lines shorter than about 20 samples its
coefficients are off by up to 1e-2. torchbridge computes the fixed formula, so
those cases are compared with SciPy's interpolation of coefficients from a
NumPy port of the fixed prefilter (``fixed_spline_filter``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy
import scipy.ndimage as sn
from conftest import LIBRARIES, library_type, to_library, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from torchbridge import ndimage as tn

MODES = ["constant", "grid-constant", "nearest", "mirror", "reflect", "grid-mirror", "wrap", "grid-wrap"]
REFLECTS = ("reflect", "grid-mirror", "nearest")
SCIPY_ALIASING = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)
POLES = {
    2: [np.sqrt(8.0) - 3.0],
    3: [np.sqrt(3.0) - 2.0],
    4: [np.sqrt(664.0 - np.sqrt(438976.0)) + np.sqrt(304.0) - 19.0,
        np.sqrt(664.0 + np.sqrt(438976.0)) - np.sqrt(304.0) - 19.0],
    5: [np.sqrt(67.5 - np.sqrt(4436.25)) + np.sqrt(26.25) - 6.5,
        np.sqrt(67.5 + np.sqrt(4436.25)) - np.sqrt(26.25) - 6.5],
}


def fixed_spline_filter1d(x, order, axis, mode):
    """SciPy's ``_ni_splines.c`` (with the gh-24550 fix), lines vectorised, in float64."""
    c = np.moveaxis(np.array(x, dtype=np.float64), axis, -1).copy()
    n = c.shape[-1]
    if order < 2 or n < 2:
        return np.moveaxis(c, -1, axis)
    starts = {"grid-wrap": "wrap", "nearest": "reflect", "reflect": "reflect", "grid-mirror": "reflect"}
    init = starts.get(mode, "mirror")
    for z in POLES[order]:
        c *= (1.0 - z) * (1.0 - 1.0 / z)
    for z in POLES[order]:
        if init == "mirror":
            zn1 = z ** (n - 1)
            c0 = c[..., 0] + zn1 * c[..., n - 1]
            zi = z
            for i in range(1, n - 1):
                c0 = c0 + zi * (c[..., i] + zn1 * c[..., n - 1 - i])
                zi *= z
            c[..., 0] = c0 / (1 - zn1 * zn1)
        elif init == "reflect":
            zn = z**n
            s = c[..., 0] + zn * c[..., n - 1]
            zi = z
            for i in range(1, n):
                s = s + zi * (c[..., i] + zn * c[..., n - 1 - i])
                zi *= z
            c[..., 0] = c[..., 0] + s * z / (1 - zn * zn)
        else:
            zi = z
            c0 = c[..., 0].copy()
            for i in range(1, n):
                c0 = c0 + zi * c[..., n - i]
                zi *= z
            c[..., 0] = c0 / (1 - zi)
        for i in range(1, n):
            c[..., i] += z * c[..., i - 1]
        if init == "mirror":
            c[..., n - 1] = (z * c[..., n - 2] + c[..., n - 1]) * z / (z * z - 1)
        elif init == "reflect":
            c[..., n - 1] *= z / (z - 1)
        else:
            zi = z
            last = c[..., n - 1].copy()
            for i in range(n - 1):
                last = last + zi * c[..., i]
                zi *= z
            c[..., n - 1] = last * z / (zi - 1)
        for i in range(n - 2, -1, -1):
            c[..., i] = z * (c[..., i + 1] - c[..., i])
    return np.moveaxis(c, -1, axis)


def fixed_spline_filter(x, order, mode):
    c = np.asarray(x, dtype=np.float64)
    for axis in range(c.ndim):
        c = fixed_spline_filter1d(c, order, axis, mode)
    return c


def aliased(x, order, mode, prefilter=True):
    """Whether SciPy's aliasing bug changes this case beyond 1e-13."""
    return SCIPY_ALIASING and prefilter and order > 1 and mode in REFLECTS and any(1 < n < 24 for n in x.shape)


def scipy_map(x, coords, *, order=3, mode="constant", cval=0.0, prefilter=True, output=None):
    """SciPy's map_coordinates, with the fixed prefilter where SciPy 1.17 aliases."""
    if not aliased(x, order, mode, prefilter):
        return sn.map_coordinates(x, coords, output=output, order=order, mode=mode, cval=cval, prefilter=prefilter)
    coords = np.asarray(coords, dtype=np.float64)
    if mode == "nearest":
        x, coords = np.pad(x, 12, mode="edge"), coords + 12
    coefficients = fixed_spline_filter(x, order, mode)
    out = output if output is not None else x.dtype
    return sn.map_coordinates(coefficients, coords, output=out, order=order, mode=mode, cval=cval, prefilter=False)


def close(ours, ref, rtol=1e-12):
    ours = to_numpy(ours)
    ref = np.asarray(ref)
    assert ours.dtype == ref.dtype, (ours.dtype, ref.dtype)
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    if ref.dtype.kind in "iub":
        np.testing.assert_array_equal(ours, ref)
        return
    if ref.dtype == np.float32 or ref.dtype == np.complex64:
        rtol = max(rtol, 2e-6)
    scale = max(1.0, float(np.max(np.abs(ref), initial=0.0)))
    np.testing.assert_allclose(ours, ref, rtol=rtol, atol=rtol * scale)


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# --- every library, the main routines ---------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("spline_filter1d", (), {"order": 3, "axis": 0}),
        ("spline_filter", (), {"order": 4, "mode": "grid-wrap"}),
        ("map_coordinates", (np.array([[0.5, 3.2, -1.0, 9.7], [1.5, 0.1, 2.0, 4.4]]),), {"order": 1}),
        ("map_coordinates", (np.array([[0.5, 3.2, -1.0, 9.7], [1.5, 0.1, 2.0, 4.4]]),), {"mode": "mirror"}),
        ("affine_transform", (np.array([[0.9, 0.2], [-0.1, 1.1]]), 0.5), {"order": 3}),
        ("shift", ([1.5, -0.25],), {"mode": "wrap"}),
        ("zoom", (1.7,), {"order": 2}),
        ("rotate", (30.0,), {"order": 1}),
    ],
)
def test_every_library(lib, name, args, kwargs):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((26, 30))
    ref = getattr(sn, name)(x, *args, **kwargs)
    if name == "map_coordinates":
        args = (to_library(lib, args[0]),)
    ours = getattr(tn, name)(to_library(lib, x), *args, **kwargs)
    assert isinstance(ours, library_type(lib))
    close(ours, ref)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_coordinates_from_the_library(lib):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((6, 7))
    coords = rng.uniform(-3, 9, (2, 5, 3))
    ours = tn.map_coordinates(to_library(lib, x), to_library(lib, coords), order=3, mode="grid-wrap")
    assert isinstance(ours, library_type(lib))
    close(ours, sn.map_coordinates(x, coords, order=3, mode="grid-wrap"))


# --- map_coordinates: every order x mode x dtype x shape --------------------------------------


SHAPES = [(1,), (2,), (7,), (1, 5), (4, 1), (5, 6), (3, 2, 4)]


@pytest.mark.parametrize("order", range(6))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_map_coordinates(order, mode, dtype, shape):
    rng = np.random.default_rng(order * 100 + len(shape))
    x = rng.standard_normal(shape).astype(dtype)
    # inside, at the edges, and far outside (many periods away)
    coords = np.concatenate(
        [
            rng.uniform(-2, max(shape) + 2, (len(shape), 30)),
            np.array([[0.0, -0.5, n - 1.0, n - 0.5, n, -n - 0.3, 3 * n + 0.7, -57.25, 91.5] for n in shape]),
        ],
        axis=1,
    )
    for prefilter in (True, False):
        ref = scipy_map(x, coords, order=order, mode=mode, cval=-1.25, prefilter=prefilter)
        ours = tn.map_coordinates(x, coords, order=order, mode=mode, cval=-1.25, prefilter=prefilter)
        close(ours, ref)


@pytest.mark.parametrize("output", [np.int32, np.uint8, np.int16, np.float32, "float64", np.int64])
@pytest.mark.parametrize("order", [0, 1, 3])
def test_integer_and_other_outputs(output, order):
    rng = np.random.default_rng(3)
    x = rng.uniform(-20, 300, (9, 8))
    coords = rng.uniform(-1, 9, (2, 50))
    ref = sn.map_coordinates(x, coords, output=output, order=order, mode="nearest")
    close(tn.map_coordinates(x, coords, output=output, order=order, mode="nearest"), ref)
    # integer input, integer output (SciPy's default output is the input's dtype)
    xi = rng.integers(0, 255, (9, 8)).astype(np.uint8)
    close(tn.map_coordinates(xi, coords, order=order), sn.map_coordinates(xi, coords, order=order))


def test_integer_coordinates_and_bool_input():
    x = np.arange(12.0).reshape(3, 4) ** 2
    coords = np.array([[0, 1, 2, 5], [3, 0, 1, -2]], dtype=np.int32)
    close(tn.map_coordinates(x, coords, order=1), sn.map_coordinates(x, coords, order=1))
    b = x > 20
    close(tn.map_coordinates(b, coords, order=0), sn.map_coordinates(b, coords, order=0))


def test_complex_input():
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((6, 7)) + 1j * rng.standard_normal((6, 7))).astype(np.complex128)
    coords = rng.uniform(-1, 7, (2, 20))
    close(tn.map_coordinates(x, coords, order=3, mode="mirror"), sn.map_coordinates(x, coords, order=3, mode="mirror"))
    close(tn.shift(x, 0.3, order=1), sn.shift(x, 0.3, order=1))
    close(tn.spline_filter(x, output=np.complex128), sn.spline_filter(x, output=np.complex128))


def test_empty_and_nan():
    x = np.arange(5.0)
    assert to_numpy(tn.map_coordinates(x, np.zeros((1, 0)))).shape == (0,)
    coords = np.array([[np.nan, 1.5]])
    ours = to_numpy(tn.map_coordinates(x, coords, order=1, cval=7.0))
    np.testing.assert_array_equal(ours, sn.map_coordinates(x, coords, order=1, cval=7.0))


# --- spline filters ---------------------------------------------------------------------------


@pytest.mark.parametrize("order", range(6))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [(1,), (2,), (3,), (9,), (40,), (5, 1, 6), (30, 70)], ids=str)
def test_spline_filter1d(order, mode, shape):
    rng = np.random.default_rng(order + len(shape))
    x = rng.standard_normal(shape)
    for axis in range(-len(shape), len(shape)):
        ours = tn.spline_filter1d(x, order, axis=axis, mode=mode)
        close(ours, fixed_spline_filter1d(x, order, axis, mode))
        if not aliased(x, order, mode):
            close(ours, sn.spline_filter1d(x, order, axis=axis, mode=mode))


@pytest.mark.parametrize("order", range(2, 6))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
def test_spline_filter(order, mode, dtype):
    rng = np.random.default_rng(order)
    x = (rng.standard_normal((7, 5, 30)) * 50).astype(dtype)
    close(tn.spline_filter(x, order, mode=mode), fixed_spline_filter(x, order, mode))
    # SciPy casts each axis' pass to the output dtype
    ref = np.asarray(x)
    for axis in range(x.ndim):
        ref = fixed_spline_filter1d(ref, order, axis, mode).astype(np.float32)
    close(tn.spline_filter(x, order, output=np.float32, mode=mode), ref)


def test_spline_filter_default_output_is_float64():
    x = np.arange(20, dtype=np.int32).reshape(4, 5) ** 2
    ours = tn.spline_filter(x)
    assert to_numpy(ours).dtype == np.float64
    close(ours, sn.spline_filter(x))
    close(tn.spline_filter1d(x, 1), sn.spline_filter1d(x, 1))


# --- affine_transform, shift, zoom, rotate --------------------------------------------------------


def shape_for(mode, order):
    # lines of 24 samples or more keep SciPy 1.17's aliasing below 1e-17
    return (24, 27) if mode in REFLECTS and order > 1 else (6, 9)


@pytest.mark.parametrize("order", range(6))
@pytest.mark.parametrize("mode", MODES)
def test_affine_transform_matrix_forms(order, mode):
    rng = np.random.default_rng(order)
    x = rng.standard_normal(shape_for(mode, order))
    m = np.array([[0.8, -0.3], [0.25, 1.2]])
    offset = np.array([1.5, -2.25])
    homogeneous = np.eye(3)
    homogeneous[:2, :2], homogeneous[:2, 2] = m, offset
    kw = {"order": order, "mode": mode, "cval": 0.5}
    ref = sn.affine_transform(x, m, offset, **kw)
    close(tn.affine_transform(x, m, offset, **kw), ref)
    close(tn.affine_transform(x, homogeneous, **kw), ref)
    close(tn.affine_transform(x, homogeneous[:2], **kw), ref)
    close(tn.affine_transform(x, [1.3, 0.7], 0.4, **kw), sn.affine_transform(x, [1.3, 0.7], 0.4, **kw))
    shape = (x.shape[0] + 3, x.shape[1] - 2)
    close(tn.affine_transform(x, m, offset, output_shape=shape, **kw),
          sn.affine_transform(x, m, offset, output_shape=shape, **kw))
    # a 3x2 matrix maps a 2-d output onto a 3-d input
    x3 = rng.standard_normal((4, 5, 6)) if not (mode in REFLECTS and order > 1) else rng.standard_normal((24, 25, 26))
    m3 = np.array([[1.0, 0.2], [0.1, 0.9], [0.3, -0.2]])
    close(tn.affine_transform(x3, m3, 0.5, output_shape=(5, 4), **kw),
          sn.affine_transform(x3, m3, 0.5, output_shape=(5, 4), **kw))


@pytest.mark.parametrize("order", range(6))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
def test_shift(order, mode, dtype):
    rng = np.random.default_rng(order)
    x = (rng.standard_normal(shape_for(mode, order)) * 100).astype(dtype)
    for s in (0.3, [1.5, -2.7], [-40.2, 17.0]):
        close(tn.shift(x, s, order=order, mode=mode, cval=3.0), sn.shift(x, s, order=order, mode=mode, cval=3.0))
    close(tn.shift(x, 1.25, order=order, mode=mode, prefilter=False),
          sn.shift(x, 1.25, order=order, mode=mode, prefilter=False))


@pytest.mark.parametrize("order", range(6))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("grid_mode", [False, True])
def test_zoom(order, mode, grid_mode):
    rng = np.random.default_rng(order)
    x = rng.standard_normal(shape_for(mode, order))
    for z in (1.5, [0.5, 2.25], [1.0, 0.37], 1):
        ref = quiet(sn.zoom, x, z, order=order, mode=mode, grid_mode=grid_mode)
        close(quiet(tn.zoom, x, z, order=order, mode=mode, grid_mode=grid_mode), ref)
    f32 = x.astype(np.float32)
    close(quiet(tn.zoom, f32, 1.3, order=order, mode=mode, grid_mode=grid_mode),
          quiet(sn.zoom, f32, 1.3, order=order, mode=mode, grid_mode=grid_mode))


def test_zoom_grid_mode_warns_as_scipy():
    x = np.ones((4, 4))
    for mode in ("constant", "wrap"):
        with pytest.warns(UserWarning, match=f"grid-{mode}"):
            tn.zoom(x, 2, mode=mode, grid_mode=True)


@pytest.mark.parametrize("order", [0, 1, 3, 5])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("reshape", [True, False])
def test_rotate(order, mode, reshape):
    rng = np.random.default_rng(order)
    x = rng.standard_normal(shape_for(mode, order))
    for angle in (30.0, 90.0, -135.0, 200.5):
        kw = {"order": order, "mode": mode, "reshape": reshape}
        close(tn.rotate(x, angle, **kw), sn.rotate(x, angle, **kw))


@pytest.mark.parametrize("axes", [(1, 0), (0, 2), (-1, -2), (2, 1)])
def test_rotate_planes_of_a_volume(axes):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 6, 7))
    close(tn.rotate(x, 25.0, axes=axes, order=3), sn.rotate(x, 25.0, axes=axes, order=3))
    close(tn.rotate(x, 25.0, axes=axes, order=1, reshape=False, output=np.float32),
          sn.rotate(x, 25.0, axes=axes, order=1, reshape=False, output=np.float32))


# --- errors ------------------------------------------------------------------------------------


def test_errors():
    x = np.ones((4, 5))
    coords = np.zeros((2, 3))
    for order in (-1, 6):
        for fn, args in [
            (tn.map_coordinates, (coords,)), (tn.shift, (1.0,)), (tn.zoom, (2.0,)), (tn.rotate, (10.0,)),
            (tn.affine_transform, (np.eye(2),)), (tn.spline_filter1d, ()), (tn.spline_filter, ()),
        ]:
            with pytest.raises(ValueError, match="spline order"):
                fn(x, *args, order=order)
            with pytest.raises(RuntimeError, match="spline order"):
                getattr(sn, fn.__name__)(x, *args, order=order)
    with pytest.raises(ValueError, match="spline order"):
        tn.spline_filter(x, order=1)
    with pytest.raises(ValueError, match="boundary mode"):
        tn.map_coordinates(x, coords, mode="symmetric")
    with pytest.raises(ValueError, match="invalid shape for coordinate array"):
        tn.map_coordinates(x, np.zeros((3, 4)))
    with pytest.raises(ValueError, match="rank must be > 0"):
        tn.map_coordinates(x, np.zeros(2))
    with pytest.raises(ValueError, match="Complex type not supported"):
        tn.map_coordinates(x, np.zeros((2, 2), dtype=complex))
    with pytest.raises(ValueError, match="wrong number of rows"):
        tn.affine_transform(x, np.ones((3, 2)))
    with pytest.raises(ValueError, match="wrong number of columns"):
        tn.affine_transform(x, np.ones((2, 4)))
    with pytest.raises(ValueError, match="no proper affine matrix"):
        tn.affine_transform(x, np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="homogeneous"):
        tn.affine_transform(x, np.ones((3, 3)))
    with pytest.raises(ValueError, match="sequence argument"):
        tn.shift(x, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="at least 2D"):
        tn.rotate(np.ones(4), 10.0)
    with pytest.raises(ValueError, match="rotation plane"):
        tn.rotate(x, 10.0, axes=(0, 2))
    with pytest.raises(ValueError, match="exactly two"):
        tn.rotate(x, 10.0, axes=(0, 1, 2))
    with pytest.raises(NotImplementedError, match="output"):
        tn.map_coordinates(x, coords, output=np.zeros(3))
    with pytest.raises(TypeError):
        tn.map_coordinates(x.astype(np.float16), coords)


# --- hypothesis --------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 7), min_size=1, max_size=3),
    order=st.integers(0, 5),
    mode=st.sampled_from(MODES),
    prefilter=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_hypothesis_map_coordinates(shape, order, mode, prefilter, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    coords = rng.uniform(-2 * max(shape) - 3, 3 * max(shape) + 3, (len(shape), 12))
    ref = scipy_map(x, coords, order=order, mode=mode, cval=0.75, prefilter=prefilter)
    close(tn.map_coordinates(x, coords, order=order, mode=mode, cval=0.75, prefilter=prefilter), ref)


@settings(max_examples=40, deadline=None)
@given(
    shape=st.lists(st.integers(1, 6), min_size=1, max_size=3),
    order=st.integers(0, 5),
    mode=st.sampled_from([m for m in MODES if m not in REFLECTS]),
    seed=st.integers(0, 2**16),
)
def test_hypothesis_shift_zoom(shape, order, mode, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    s = list(rng.uniform(-3, 3, len(shape)))
    z = list(rng.uniform(0.4, 2.5, len(shape)))
    close(tn.shift(x, s, order=order, mode=mode), sn.shift(x, s, order=order, mode=mode))
    close(tn.zoom(x, z, order=order, mode=mode), sn.zoom(x, z, order=order, mode=mode))
