"""torchbridge.fft against scipy.fft: values, dtypes, types, parameters, edges, errors.

Tolerances. An FFT's round-off is bounded relative to the size of the whole
transform (about eps * log n * max|y|), not to each output element: terms that
cancel to nearly zero carry absolute, not relative, error in SciPy's pocketfft
as in libtorch's MKL/pocketfft kernels. So float64 results are compared with
``|got - want| <= 1e-13 * max|want|`` (the observed worst is about 1.2e-15,
at 1e5 points);
float32 with 1e-5 (observed about 4e-7). The cosine and sine transforms are
FFT composites (Makhoul's algorithm, symmetric extensions, twiddles computed
in float64) and meet the same bounds.
"""

from __future__ import annotations

import inspect
import os

import numpy as np
import pytest
import scipy.fft as sf
from conftest import LIBRARIES, library_type, to_library, to_numpy, with_device
from hypothesis import given, settings
from hypothesis import strategies as st

import torchbridge as tb
from torchbridge import fft as tf

F64_TOL = 1e-13
F32_TOL = 1e-5
NORMS = [None, "backward", "ortho", "forward"]
LENGTHS = [1, 2, 3, 4, 5, 7, 8, 12, 13, 16, 31, 64, 97, 100]  # odd, even, prime, powers of 2

C2C = ["fft", "ifft"]
R2C = ["rfft", "ihfft"]
C2R = ["irfft", "hfft"]
ONE_D = C2C + R2C + C2R
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
TWO_D = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"]
R2R = ["dct", "idct", "dst", "idst"]
R2RN = ["dctn", "idctn", "dstn", "idstn"]
REAL_INPUT = {"rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2"}


def assert_close(got, want, tol=F64_TOL):
    """Same type, dtype and shape as SciPy; values within `tol` of the largest."""
    assert type(got) is type(want), (type(got), type(want))
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if not np.issubdtype(want.dtype, np.inexact):
        np.testing.assert_array_equal(got, want)
    elif want.size:
        scale = max(np.abs(want).max(), np.finfo(want.dtype).tiny)
        err = np.abs(got.astype(np.complex128) - want).max()
        assert err <= tol * scale, f"error {err:.3g} vs scale {scale:.3g}"


def signal(rng, shape, complex_=False, dtype=np.float64):
    x = rng.standard_normal(shape)
    if complex_:
        x = x + 1j * rng.standard_normal(shape)
        dtype = {np.float64: np.complex128, np.float32: np.complex64}.get(dtype, dtype)
    return x.astype(dtype)


def input_for(name, rng, shape, dtype=np.float64):
    complex_ = name not in REAL_INPUT and not name.startswith(("dct", "idct", "dst", "idst"))
    if complex_:
        dtype = {np.float64: np.complex128, np.float32: np.complex64}.get(dtype, dtype)
    return signal(rng, shape, complex_, dtype)


# ---------------------------------------------------------------------------
# The family and its signatures
# ---------------------------------------------------------------------------


def test_exports_match_scipy_signatures():
    assert len(tf.__all__) == len(set(tf.__all__)) >= 24
    public = {n for n in dir(tf) if not n.startswith("_") and callable(getattr(tf, n))}
    assert public - {"annotations"} == set(tf.__all__)
    for name in tf.__all__:
        expected = inspect.signature(getattr(sf, name))
        if name not in ("next_fast_len", "prev_fast_len"):  # no arrays, nothing to place
            expected = with_device(expected)
        assert inspect.signature(getattr(tf, name)) == expected, name


# ---------------------------------------------------------------------------
# Fourier transforms
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ONE_D)
def test_1d_lengths_n_and_norms(name, rng):
    f, ref = getattr(tf, name), getattr(sf, name)
    for m in LENGTHS:
        x = input_for(name, rng, (3, m))
        ns = [None, 1, 2, m, m + 3, 2 * m + 1] if m > 1 or name not in C2R else [1, 2, 5]
        for n in ns:
            for norm in NORMS:
                assert_close(f(x, n=n, norm=norm), ref(x, n=n, norm=norm))


@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_1d_axes(name, axis, rng):
    x = input_for(name, rng, (4, 5, 6))
    assert_close(getattr(tf, name)(x, axis=axis), getattr(sf, name)(x, axis=axis))
    assert_close(getattr(tf, name)(x, 9, axis, "ortho"), getattr(sf, name)(x, 9, axis, "ortho"))


def test_c2r_length_quirks_follow_scipy(rng):
    # n == 0 reads one input point and gives one output point (pocketfft's
    # 2*1 - 1); negative n and a single input point without n are errors.
    x = signal(rng, 5, True)
    for name in C2R:
        f, ref = getattr(tf, name), getattr(sf, name)
        assert_close(f(x, n=0), ref(x, n=0))
        for n in (-1, -2, -5):
            with pytest.raises(ValueError, match="invalid number of data points"):
                ref(x, n=n)
            with pytest.raises(tb.InvalidArgumentError, match="invalid number of data points"):
                f(x, n=n)
        with pytest.raises(ValueError, match=r"Invalid number of data points \(0\)"):
            ref(x[:1])
        with pytest.raises(tb.InvalidArgumentError, match=r"Invalid number of data points \(0\)"):
            f(x[:1])
        # a single point per row along the last n-D axis: SciPy gives one output point
        y = signal(rng, (3, 1), True)
        nd = {"irfft": "irfftn", "hfft": "hfftn"}[name]
        assert_close(getattr(tf, nd)(y), getattr(sf, nd)(y))


def test_c2r_ignores_imaginary_dc_and_nyquist_like_scipy(rng):
    x = signal(rng, 9, True)  # n = 16: x[0] and x[8] have imaginary parts
    for name in C2R:
        assert_close(getattr(tf, name)(x), getattr(sf, name)(x))
        assert_close(getattr(tf, name)(x, n=17), getattr(sf, name)(x, n=17))


ND_CASES = [
    dict(),
    dict(axes=(0,)),
    dict(axes=(-1, 0)),
    dict(axes=(2, 0, 1)),
    dict(axes=1),
    dict(s=(4, 6)),
    dict(s=(3, 9, 8)),
    dict(s=(-1, 7), axes=(0, 2)),
    dict(s=5),
    dict(s=(2, 3), axes=(-3, -2)),
    dict(s=(7,), axes=(1,)),
]


@pytest.mark.parametrize("name", N_D)
@pytest.mark.parametrize("case", ND_CASES, ids=str)
def test_nd_shapes_and_axes(name, case, rng):
    x = input_for(name, rng, (5, 4, 6))
    for norm in NORMS:
        assert_close(getattr(tf, name)(x, norm=norm, **case), getattr(sf, name)(x, norm=norm, **case))


@pytest.mark.parametrize("name", TWO_D)
def test_2d_transforms(name, rng):
    x = input_for(name, rng, (3, 6, 5))
    ref = getattr(sf, name)
    for kwargs in [dict(), dict(s=(4, 8)), dict(axes=(0, 2)), dict(axes=(-1, -3), s=(5, 3)),
                   dict(norm="ortho"), dict(norm="forward")]:
        assert_close(getattr(tf, name)(x, **kwargs), ref(x, **kwargs))
    assert_close(getattr(tf, name)(x, None, (-2, -1), "ortho", True, 1),
                 ref(x, None, (-2, -1), "ortho", True, 1))


def test_transforms_over_no_axes_return_the_input_as_scipy(rng):
    x = np.arange(6).reshape(2, 3)
    for name in ["fftn", "ifftn", "dctn", "idctn", "dstn", "idstn"]:
        assert getattr(sf, name)(x, axes=()) is x
        assert getattr(tf, name)(x, axes=()) is x  # unconverted, as SciPy
        assert getattr(tf, name)(x, s=[3], axes=[]) is x
    zero_d = np.float64(2.5)
    want = sf.fftn(zero_d)
    got = tf.fftn(zero_d)
    assert type(got) is type(want) and got.shape == () and got.dtype == want.dtype == np.float64
    for name in ["rfftn", "irfftn", "hfftn", "ihfftn"]:
        with pytest.raises(ValueError, match="at least 1 axis must be transformed"):
            getattr(sf, name)(x, axes=())
        with pytest.raises(tb.InvalidArgumentError, match="at least 1 axis must be transformed"):
            getattr(tf, name)(x, axes=())


# ---------------------------------------------------------------------------
# Cosine and sine transforms
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", R2R)
@pytest.mark.parametrize("type_", [1, 2, 3, 4])
def test_r2r_every_type_norm_and_orthogonalize(name, type_, rng):
    f, ref = getattr(tf, name), getattr(sf, name)
    for m in LENGTHS:
        if type_ == 1 and name in ("dct", "idct") and m == 1:
            continue  # DCT-I needs 2 points (test_dct1_needs_two_points)
        x = signal(rng, (2, m))
        for norm in NORMS:
            for orth in (None, True, False):
                assert_close(f(x, type_, norm=norm, orthogonalize=orth),
                             ref(x, type_, norm=norm, orthogonalize=orth))


@pytest.mark.parametrize("name", R2R)
def test_r2r_n_axis_and_longer_signals(name, rng):
    f, ref = getattr(tf, name), getattr(sf, name)
    x = signal(rng, (3, 4, 1001))
    for type_ in (1, 2, 3, 4):
        assert_close(f(x, type_), ref(x, type_))
        assert_close(f(x, type_, n=5, axis=0, norm="ortho"), ref(x, type_, n=5, axis=0, norm="ortho"))
        assert_close(f(x, type_, n=2, axis=-2), ref(x, type_, n=2, axis=-2))
        assert_close(f(x, type_, 4096, -1, "forward"), ref(x, type_, 4096, -1, "forward"))


@pytest.mark.parametrize("name", R2R)
def test_r2r_complex_input_transforms_parts_like_scipy(name, rng):
    # SciPy transforms real and imaginary parts separately and, for complex
    # input, never passes `orthogonalize` on: it keeps its default.
    f, ref = getattr(tf, name), getattr(sf, name)
    for dtype in (np.complex128, np.complex64):
        x = signal(rng, (3, 10), True, dtype)
        tol = F64_TOL if dtype == np.complex128 else F32_TOL
        for type_ in (1, 2, 3, 4):
            for norm, orth in [(None, None), ("ortho", None), ("ortho", False), ("backward", True)]:
                assert_close(f(x, type_, norm=norm, orthogonalize=orth),
                             ref(x, type_, norm=norm, orthogonalize=orth), tol)


@pytest.mark.parametrize("name", R2RN)
@pytest.mark.parametrize("case", ND_CASES, ids=str)
def test_r2rn_shapes_and_axes(name, case, rng):
    x = signal(rng, (5, 4, 6))
    for type_ in (1, 2, 3, 4):
        for norm in ("backward", "ortho"):
            assert_close(getattr(tf, name)(x, type_, norm=norm, **case),
                         getattr(sf, name)(x, type_, norm=norm, **case))
    assert_close(getattr(tf, name)(x + 2j * x, 2, **case), getattr(sf, name)(x + 2j * x, 2, **case))
    assert_close(getattr(tf, name)(x, 3, norm="ortho", orthogonalize=False, **case),
                 getattr(sf, name)(x, 3, norm="ortho", orthogonalize=False, **case))


def test_dct1_needs_two_points():
    # SciPy raises RuntimeError('zero-length FFT requested') from pocketfft;
    # torchbridge raises InvalidArgumentError (a ValueError) saying why.
    for name, kwargs in [("dct", {}), ("idct", {}), ("dct", {"n": 1}), ("dctn", {"s": (1, 3)})]:
        x = np.ones((2, 3))
        with pytest.raises(RuntimeError, match="zero-length FFT"):
            getattr(sf, name)(x[:, :1] if not kwargs else x, 1, **kwargs)
        with pytest.raises(tb.InvalidArgumentError, match="DCT-I needs at least 2"):
            getattr(tf, name)(x[:, :1] if not kwargs else x, 1, **kwargs)
    assert_close(tf.dst(np.ones(1), 1), sf.dst(np.ones(1), 1))  # DST-I of 1 point is fine


@settings(max_examples=40, deadline=None)
@given(
    shape=st.lists(st.integers(1, 9), min_size=1, max_size=3),
    type_=st.integers(1, 4),
    name=st.sampled_from(R2R),
    norm=st.sampled_from(NORMS),
    orth=st.sampled_from([None, True, False]),
    seed=st.integers(0, 2**32 - 1),
)
def test_r2r_any_shape(shape, type_, name, norm, orth, seed):
    x = np.random.default_rng(seed).standard_normal(shape) * 10.0 ** np.random.default_rng(seed).integers(-100, 100)
    axis = seed % len(shape) - len(shape)
    if type_ == 1 and name in ("dct", "idct") and shape[axis] < 2:
        return
    assert_close(getattr(tf, name)(x, type_, axis=axis, norm=norm, orthogonalize=orth),
                 getattr(sf, name)(x, type_, axis=axis, norm=norm, orthogonalize=orth))


@settings(max_examples=40, deadline=None)
@given(
    shape=st.lists(st.integers(1, 9), min_size=1, max_size=3),
    name=st.sampled_from(ONE_D + N_D),
    n=st.one_of(st.none(), st.integers(1, 20)),
    seed=st.integers(0, 2**32 - 1),
)
def test_fourier_any_shape(shape, name, n, seed):
    x = input_for(name, np.random.default_rng(seed), shape)
    if name in N_D:
        kwargs = {} if n is None else {"s": [n] * len(shape)}
    else:
        kwargs = {"n": n}
        if name in C2R and n is None and shape[-1] == 1:
            return
    assert_close(getattr(tf, name)(x, **kwargs), getattr(sf, name)(x, **kwargs))


# ---------------------------------------------------------------------------
# dtypes, types, layouts, edges
# ---------------------------------------------------------------------------

INPUT_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                "float16", "float32", "float64", "complex64", "complex128"]
TRANSFORMS = ONE_D + N_D + TWO_D + R2R + R2RN


@pytest.mark.parametrize("name", TRANSFORMS)
@pytest.mark.parametrize("dtype", INPUT_DTYPES)
def test_result_dtype_matches_scipy_for_every_input_dtype(name, dtype):
    x = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    try:
        want = getattr(sf, name)(x)
    except TypeError:  # complex input to a real-input transform
        with pytest.raises(tb.DtypeError, match="real sequence"):
            getattr(tf, name)(x)
        return
    got = getattr(tf, name)(x)
    assert_close(got, want, F32_TOL if want.dtype in (np.float32, np.complex64) else F64_TOL)


@pytest.mark.parametrize("name", TRANSFORMS)
def test_float32_stays_single_precision(name, rng):
    x = input_for(name, rng, (4, 33), np.float32)
    want = getattr(sf, name)(x)
    assert want.dtype in (np.float32, np.complex64)
    assert_close(getattr(tf, name)(x), want, F32_TOL)


@pytest.mark.parametrize("name", TRANSFORMS)
def test_strided_transposed_and_reversed_inputs(name, rng):
    base = input_for(name, rng, (6, 10, 8))
    for x in (base.transpose(2, 0, 1), base[::2, 1::3], base[:, ::-1, ::-2], np.asfortranarray(base)):
        assert_close(getattr(tf, name)(x), getattr(sf, name)(x))


@pytest.mark.parametrize("name", TRANSFORMS)
def test_read_only_input_is_never_written(name, rng):
    x = input_for(name, rng, (4, 9))
    x.flags.writeable = False
    snapshot = x.copy()
    getattr(tf, name)(x)
    getattr(tf, name)(x[:, ::-1])
    np.testing.assert_array_equal(x, snapshot)


@pytest.mark.parametrize("name", TRANSFORMS)
@pytest.mark.parametrize("scale", [1e-150, 1e150, 5e-324 * 2**60])
def test_very_large_and_very_small_inputs(name, scale, rng):
    x = input_for(name, rng, (2, 16)) * scale
    got, want = getattr(tf, name)(x), getattr(sf, name)(x)
    assert np.isfinite(want).all()
    assert_close(got, want)


@pytest.mark.parametrize("name", TRANSFORMS)
def test_nan_and_inf(name, rng):
    # nan spreads to every output of its transform in both libraries. An inf
    # gives inf or nan depending on the order of the butterflies (inf - inf),
    # which neither library promises: outputs are non-finite in the same
    # places, and equal where finite.
    x = input_for(name, rng, (3, 8))
    x[0, 3] = np.nan
    x[1, 5] = np.inf
    x[2, 2] = -np.inf
    with np.errstate(invalid="ignore"):
        want = getattr(sf, name)(x, axis=-1) if name in ONE_D + R2R else getattr(sf, name)(x, axes=-1)
        got = getattr(tf, name)(x, axis=-1) if name in ONE_D + R2R else getattr(tf, name)(x, axes=-1)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.isnan(got[0]).all() and np.isnan(want[0]).all()
    np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want))


@pytest.mark.parametrize("name", TRANSFORMS)
def test_empty_inputs(name):
    one_d = name in ONE_D + R2R
    # nothing along the transformed axis: ValueError in both
    x = np.zeros((3, 0))
    with pytest.raises(ValueError):
        getattr(sf, name)(x)
    with pytest.raises(tb.InvalidArgumentError, match="(?i)invalid number of data points"):
        getattr(tf, name)(x)
    # nothing along the transformed axis but a length given: zero padding
    length = {"n": 4} if one_d else {"s": (4,), "axes": (-1,)}
    if name in ("dctn", "idctn", "dstn", "idstn"):
        length["type"] = 3
    assert_close(getattr(tf, name)(x, **length), getattr(sf, name)(x, **length))
    # empty batch: an empty result of SciPy's shape and dtype
    x = np.zeros((0, 4), dtype=np.complex128 if name not in REAL_INPUT else np.float64)
    kwargs = {"axis": -1} if one_d else {"axes": (-1,)}
    assert_close(getattr(tf, name)(x, **kwargs), getattr(sf, name)(x, **kwargs))


@pytest.mark.parametrize("name", ONE_D + R2R)
def test_lists_and_zero_d(name):
    x = [1.0, 2.0, 0.5, -1.0]
    assert_close(getattr(tf, name)(x), getattr(sf, name)(x))
    with pytest.raises(IndexError):
        getattr(sf, name)(3.0)
    with pytest.raises(IndexError):
        getattr(tf, name)(3.0)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", TRANSFORMS)
def test_every_library(lib, name, rng):
    x = input_for(name, rng, (4, 6))
    got = getattr(tf, name)(to_library(lib, x))
    assert isinstance(got, library_type(lib))
    assert_close(to_numpy(got), getattr(sf, name)(x))


# ---------------------------------------------------------------------------
# Errors: the same exception classes as SciPy
# ---------------------------------------------------------------------------

X = np.ones((2, 3))
ERRORS = [
    # (call, SciPy's exception class, torchbridge's class, message)
    (lambda m: m.fft(X, norm="bad"), ValueError, tb.InvalidArgumentError, "Invalid norm value 'bad'"),
    (lambda m: m.dctn(X, norm=1), ValueError, tb.InvalidArgumentError, "Invalid norm value 1"),
    (lambda m: m.fft(X, plan=object()), NotImplementedError, tb.UnsupportedParameterError, "plan"),
    (lambda m: m.rfftn(X, plan="p"), NotImplementedError, tb.UnsupportedParameterError, "plan"),
    (lambda m: m.fft(X, workers=0), ValueError, tb.InvalidArgumentError, "workers must not be zero"),
    (lambda m: m.fft(X, workers=-10**6), ValueError, tb.InvalidArgumentError, "out of range"),
    (lambda m: m.fft(X, n=0), ValueError, tb.InvalidArgumentError, r"\(0\)"),
    (lambda m: m.fft(X, n=2.0), TypeError, TypeError, "integer"),
    (lambda m: m.fft(X, axis=2), IndexError, IndexError, "axis 2 is out of bounds"),
    (lambda m: m.rfft(X, axis=-3), IndexError, IndexError, "out of bounds"),
    (lambda m: m.dct(X, axis=5), IndexError, IndexError, "out of bounds"),
    (lambda m: m.fft(X, axis=1.0), TypeError, TypeError, "integer"),
    (lambda m: m.rfft(X + 1j), TypeError, tb.DtypeError, "real sequence"),
    (lambda m: m.ihfftn(X + 1j), TypeError, tb.DtypeError, "real sequence"),
    (lambda m: m.fftn(X, axes=(0, 0)), ValueError, tb.InvalidArgumentError, "all axes must be unique"),
    (lambda m: m.fftn(X, axes=(0, -2)), ValueError, tb.InvalidArgumentError, "unique"),
    (lambda m: m.fftn(X, axes=(2,)), ValueError, tb.InvalidArgumentError, "exceeds dimensionality"),
    (lambda m: m.dctn(X, s=(2, 3, 4)), ValueError, tb.InvalidArgumentError, "more axes than are present"),
    (lambda m: m.fftn(X, s=(4,), axes=(0, 1)), ValueError, tb.InvalidArgumentError, "same length"),
    (lambda m: m.fftn(X, s=(0, 4)), ValueError, tb.InvalidArgumentError, r"\(\[0, 4\]\)"),
    (lambda m: m.fftn(X, s=(2.0, 3)), ValueError, tb.InvalidArgumentError, "shape must be a scalar"),
    (lambda m: m.fftn(X, axes="a"), ValueError, tb.InvalidArgumentError, "axes must be a scalar"),
    (lambda m: m.dct(X, type=5), ValueError, tb.InvalidArgumentError, "invalid DCT type"),
    (lambda m: m.idst(X, type=0), ValueError, tb.InvalidArgumentError, "invalid DST type"),
    (lambda m: m.dct(X, type=2.0), TypeError, TypeError, "integer"),
    (lambda m: m.fftshift(X, axes=2), IndexError, IndexError, "out of bounds"),
    (lambda m: m.ifftshift(X, axes=(1.0,)), TypeError, TypeError, "integer"),
    (lambda m: m.fftshift(np.float64(1.0)), ValueError, tb.InvalidArgumentError, "at least one dimension"),
]


@pytest.mark.parametrize(("call", "scipy_class", "tb_class", "message"), ERRORS)
def test_errors_match_scipy(call, scipy_class, tb_class, message):
    with pytest.raises(scipy_class):
        call(sf)
    with pytest.raises(tb_class, match=message) as info:
        call(tf)
    assert isinstance(info.value, scipy_class)
    assert isinstance(info.value, tb.TorchbridgeError) or tb_class is TypeError


def test_performance_hints_are_accepted_and_change_nothing(rng):
    x = signal(rng, (4, 10))
    want = sf.dct(x)
    for kwargs in [dict(overwrite_x=True), dict(workers=2), dict(workers=-1), dict(workers=os.cpu_count())]:
        assert_close(tf.dct(x, **kwargs), want)
        assert_close(tf.fftn(x, **kwargs), sf.fftn(x))
    assert tb.errors.UnsupportedParameterError  # the class plan=... raises


# ---------------------------------------------------------------------------
# Frequencies, shifts, fast lengths
# ---------------------------------------------------------------------------


def test_fftfreq_and_rfftfreq_are_bit_identical_to_scipy():
    for n in list(range(1, 40)) + [1000, 1001]:
        for d in (1.0, 0.1, 3, 2.5e-7, -0.5, True):
            for name in ("fftfreq", "rfftfreq"):
                got, want = getattr(tf, name)(n, d), getattr(sf, name)(n, d)
                assert type(got) is np.ndarray and got.dtype == want.dtype == np.float64
                np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(tf.fftfreq(np.int64(8), d=np.array(0.5)), sf.fftfreq(8, 0.5))
    # NumPy rounds 1 / (n d) to the precision of d: so does torchbridge
    for d in (np.float32(0.1), np.array(0.3, np.float32), np.float16(3.3)):
        np.testing.assert_array_equal(tf.fftfreq(7, d), sf.fftfreq(7, d))
        np.testing.assert_array_equal(tf.rfftfreq(7, d), sf.rfftfreq(7, d))
    with np.errstate(divide="ignore", invalid="ignore"):  # numpy zero spacing: inf and nan
        np.testing.assert_array_equal(tf.fftfreq(4, np.float64(0)), sf.fftfreq(4, np.float64(0)))
    np.testing.assert_array_equal(tf.rfftfreq(-3), sf.rfftfreq(-3))  # NumPy: empty
    np.testing.assert_array_equal(tf.rfftfreq(True), sf.rfftfreq(True))


@pytest.mark.parametrize(
    ("args", "scipy_class", "tb_class"),
    [
        ((0,), ZeroDivisionError, ZeroDivisionError),
        ((4, 0.0), ZeroDivisionError, ZeroDivisionError),
        ((-1,), ValueError, tb.InvalidArgumentError),
        ((5.0,), ValueError, tb.InvalidArgumentError),
        ((True,), TypeError, TypeError),
    ],
)
def test_fftfreq_errors(args, scipy_class, tb_class):
    with pytest.raises(scipy_class):
        sf.fftfreq(*args)
    with pytest.raises(tb_class):
        tf.fftfreq(*args)


def test_frequencies_unsupported_values_are_named():
    with pytest.raises(tb.UnsupportedParameterError, match="d="):
        tf.fftfreq(4, d=1j)  # NumPy returns complex frequencies
    with pytest.raises(tb.UnsupportedParameterError, match="d="):
        tf.rfftfreq(4, d=np.array([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError):
        sf.fftfreq(4, d="a")
    with pytest.raises(TypeError):
        tf.fftfreq(4, d="a")
    with pytest.raises(ValueError, match="device parameter is not supported"):
        sf.fftfreq(4, device="cpu")
    with pytest.raises(ValueError, match="device parameter is not supported"):
        tf.fftfreq(4, device="cpu")


@pytest.mark.parametrize("lib", ["torch", "jax", "array_api_strict", "numpy"])
def test_frequencies_in_the_namespace_xp(lib):
    import array_api_strict
    import jax.numpy as jnp
    import torch

    xp = {"torch": torch, "jax": jnp, "array_api_strict": array_api_strict, "numpy": np}[lib]
    for name in ("fftfreq", "rfftfreq"):
        for n in (1, 6, 7):
            want = getattr(sf, name)(n, 0.25, xp=xp)
            got = getattr(tf, name)(n, 0.25, xp=xp)
            assert type(got) is type(want)
            assert got.dtype == want.dtype  # torch: its default float32
            np.testing.assert_allclose(to_numpy(got), to_numpy(want), rtol=1e-7 if lib == "torch" else 0)
    if lib == "array_api_strict":
        device = array_api_strict.Device("device1")
        got = tf.fftfreq(5, xp=xp, device=device)
        assert got.device == sf.fftfreq(5, xp=xp, device=device).device == device
    if lib == "torch":
        got = tf.rfftfreq(5, xp=xp, device="cpu")
        assert got.device == torch.device("cpu")


SHIFT_DTYPES = ["bool", "int8", "uint8", "uint16", "uint32", "uint64", "int64", "float16", "float32",
                "float64", "complex64"]


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("dtype", SHIFT_DTYPES)
def test_shifts_every_dtype_and_axes(name, dtype):
    x = (np.arange(5 * 6 * 7).reshape(5, 6, 7) % 11).astype(dtype)
    for axes in [None, 0, -1, (0, 2), [1, 1], (2, 0, 2), (), np.int64(1)]:
        got, want = getattr(tf, name)(x, axes=axes), getattr(sf, name)(x, axes=axes)
        assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    z = np.array([-0.0, 1.0, -0.0])
    assert np.array_equal(np.signbit(getattr(tf, name)(z)), np.signbit(getattr(sf, name)(z)))
    e = np.zeros((0, 3))
    assert getattr(tf, name)(e).shape == (0, 3)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_shifts_every_library(lib):
    x = np.arange(12.0).reshape(3, 4)
    for name in ("fftshift", "ifftshift"):
        got = getattr(tf, name)(to_library(lib, x), axes=(0,))
        assert isinstance(got, library_type(lib))
        np.testing.assert_array_equal(to_numpy(got), getattr(sf, name)(x, axes=(0,)))
    assert_close(tf.fftshift([[1, 2], [3, 4]], 0), sf.fftshift([[1, 2], [3, 4]], 0))


def test_fast_lengths_equal_scipy_exhaustively():
    for real in (False, True):
        got = [tf.next_fast_len(t, real) for t in range(0, 3000)]
        assert got == [sf.next_fast_len(t, real) for t in range(0, 3000)]
        got = [tf.prev_fast_len(t, real) for t in range(0, 3000)]
        assert got == [sf.prev_fast_len(t, real) for t in range(0, 3000)]
    rng = np.random.default_rng(7)
    big = [int(v) for v in rng.integers(3000, 2**60, 300)] + [
        93059, 2**40 + 1, 1676976733973595602, 10**18, 3**37 + 1]
    for t in big:
        for real in (False, True):
            assert tf.next_fast_len(t, real) == sf.next_fast_len(t, real), t
            assert tf.prev_fast_len(t, real) == sf.prev_fast_len(t, real), t
    assert tf.next_fast_len(np.int64(13), real=np.bool_(True)) == 15
    assert tf.next_fast_len(target=13, real="yes") == sf.next_fast_len(13, "yes") == 15
    assert type(tf.next_fast_len(7)) is int


@pytest.mark.parametrize(
    ("target", "scipy_class", "tb_class", "message"),
    [
        (-1, ValueError, tb.InvalidArgumentError, "Target length must be positive"),
        (1676976733973595603, ValueError, tb.InvalidArgumentError, "too large to perform an FFT"),
        (2**63, OverflowError, OverflowError, "too large to convert"),
        (-(2**64), OverflowError, OverflowError, "too large to convert"),
        (2.0, TypeError, TypeError, "cannot be interpreted as an integer"),
        (np.float64(9.0), TypeError, TypeError, "cannot be interpreted as an integer"),
    ],
)
def test_fast_length_errors(target, scipy_class, tb_class, message):
    for name in ("next_fast_len", "prev_fast_len"):
        with pytest.raises(scipy_class, match=message):
            getattr(sf, name)(target)
        with pytest.raises(tb_class, match=message):
            getattr(tf, name)(target)


def test_torch_half_precisions_compute_as_scipy_would_convert_them():
    import torch

    x = torch.tensor([1.0, 2.0, 0.5, -1.0])
    # float16 -> float32 (SciPy's _asfarray); bfloat16, which NumPy lacks, -> float64
    assert tf.fft(x.half()).dtype == torch.complex64
    assert tf.dct(x.half()).dtype == torch.float32
    assert tf.fft(x.bfloat16()).dtype == torch.complex128
    assert tf.dst(x.bfloat16(), 4).dtype == torch.float64
    np.testing.assert_allclose(tf.dct(x.bfloat16()).numpy(), sf.dct(x.numpy().astype(np.float64)), rtol=1e-13)


# ---------------------------------------------------------------------------
# Pickling and huge sizes
# ---------------------------------------------------------------------------


def test_every_routine_pickles_by_reference():
    import importlib
    import pickle

    for name in tf.__all__:
        routine = getattr(tf, name)
        assert pickle.loads(pickle.dumps(routine)) is routine, name
        module = importlib.import_module(routine.__module__)
        assert getattr(module, routine.__qualname__) is routine, name


# (call, the exception class it must raise): sizes, lengths and axes far
# beyond memory or int64 end in a clean Python exception naming the problem,
# never a signal, an abort or a PanicException.
HUGE = [
    ("tf.fft(x, n=2**62)", MemoryError),
    ("tf.ifft(x, n=2**62)", MemoryError),
    ("tf.rfft(x, n=2**40)", MemoryError),
    ("tf.ihfft(x, n=2**40)", MemoryError),
    ("tf.irfft(x, n=2**62)", MemoryError),
    ("tf.hfft(x, n=2**40)", MemoryError),
    ("tf.fft(np.zeros((0, 4)), n=2**62)", MemoryError),
    ("tf.fft(x, n=2**63)", OverflowError),
    ("tf.fft(x, n=-2**63)", ValueError),
    ("tf.fft(x, axis=2**62)", IndexError),
    ("tf.rfft(x, axis=-2**63)", IndexError),
    ("tf.fft(x, axis=2**70)", OverflowError),
    ("tf.fft2(x2, s=[2**40, 2**40])", MemoryError),
    ("tf.fftn(x3, s=[2**31] * 3)", MemoryError),
    ("tf.ifftn(x3, s=[2**63 - 1] * 3)", MemoryError),
    ("tf.rfftn(x3, s=[2**31] * 3)", MemoryError),
    ("tf.irfftn(x3, s=[2**31] * 3)", MemoryError),
    ("tf.hfftn(x3, s=[2**62, -1, -1])", MemoryError),
    ("tf.ihfft2(x2, s=[2**40, 2**40])", MemoryError),
    ("tf.fftn(x3, axes=[2**62])", ValueError),
    ("tf.fftn(x3, s=[2**70])", OverflowError),
    ("tf.dct(x, n=2**62)", MemoryError),
    ("tf.idct(x, 4, n=2**61)", MemoryError),
    ("tf.dst(x, 1, n=2**40)", MemoryError),
    ("tf.idst(np.zeros((0, 4)), n=2**40)", MemoryError),
    ("tf.dct(x, axis=2**62)", IndexError),
    ("tf.dct(x, type=2**62)", ValueError),
    ("tf.dctn(x3, s=[2**31] * 3)", MemoryError),
    ("tf.idctn(x3, s=[2**40] * 3)", MemoryError),
    ("tf.dstn(x3, axes=[-2**63])", ValueError),
    ("tf.idstn(x3, s=[2**62], axes=[0])", MemoryError),
    ("tf.fftfreq(2**62)", MemoryError),
    ("tf.fftfreq(2**40)", MemoryError),
    ("tf.rfftfreq(2**62)", MemoryError),
    ("tf.rfftfreq(2**41)", MemoryError),
    ("tf.fftfreq(2**70)", OverflowError),
    ("tf.next_fast_len(2**70)", OverflowError),
    ("tf.prev_fast_len(2**70)", OverflowError),
    ("tf.next_fast_len(2**62)", ValueError),
    ("tf.prev_fast_len(2**62, True)", ValueError),
    ("tf.fftshift(x, axes=2**62)", IndexError),
    ("tf.ifftshift(x, axes=[2**70])", OverflowError),
    ("tf.fft(x, workers=2**70)", OverflowError),
    ("tf.fft(x, workers=-2**62)", ValueError),
]


def test_huge_sizes_raise_clean_exceptions():
    import subprocess
    import sys

    lines = ["import numpy as np", "import torchbridge.fft as tf",
             "x, x2, x3 = np.ones(8), np.ones((4, 4)), np.ones((2, 2, 2))"]
    for call, _ in HUGE:
        lines += ["try:", f"    {call}", "    print('returned')",
                  "except Exception as e:", "    print(type(e).__mro__.__repr__(), str(e)[:200].replace(chr(10), ' '))"]
    done = subprocess.run([sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True, timeout=600)
    outcomes = done.stdout.splitlines()
    assert done.returncode == 0 and len(outcomes) == len(HUGE), (done.returncode, outcomes, done.stderr[-3000:])
    for (call, expected), outcome in zip(HUGE, outcomes):
        assert f"'{expected.__name__}'" in outcome and "Panic" not in outcome, (call, outcome)
