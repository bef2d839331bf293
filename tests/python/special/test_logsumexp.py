"""logsumexp, softmax and log_softmax (SciPy's ``_logsumexp.py``) against SciPy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import ours


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1), (1,), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_matches_scipy(axis, keepdims, rng):
    a = rng.normal(size=(3, 4)) * 50
    got = tb.special.logsumexp(a, axis=axis, keepdims=keepdims)
    want = sc.logsumexp(a, axis=axis, keepdims=keepdims)
    assert type(got) is type(want) and np.shape(got) == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-15)


def test_logsumexp_weights_signs_and_infinities(rng):
    a = rng.normal(size=(4, 5))
    b = rng.normal(size=(4, 5))
    for axis in (None, 0, 1):
        got, sign = tb.special.logsumexp(a, axis=axis, b=b, return_sign=True)
        want, want_sign = sc.logsumexp(a, axis=axis, b=b, return_sign=True)
        np.testing.assert_allclose(got, want, rtol=1e-13)
        np.testing.assert_array_equal(sign, want_sign)
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(tb.special.logsumexp(a, axis=axis, b=b),
                                       sc.logsumexp(a, axis=axis, b=b), rtol=1e-13)
    cases = [
        (np.array([1.0, 2.0, np.inf]), None),
        (np.array([-np.inf, -np.inf]), None),
        (np.array([np.inf, -np.inf]), None),
        (np.array([1.0, np.nan]), None),
        (np.array([1.0, np.inf]), np.array([1.0, 0.0])),
        (np.array([1.0, 2.0]), np.array([1.0, -1.0])),
        (np.array([1.0, 1.0]), np.array([1.0, -1.0])),
        (np.array([1000.0, 1000.0]), np.array([2.0, -1.0])),
        (np.array([5.0]), np.array([0.0])),
    ]
    for a, b in cases:
        with np.errstate(all="ignore"):
            want = sc.logsumexp(a, b=b)
            want_rs = sc.logsumexp(a, b=b, return_sign=True)
        got = tb.special.logsumexp(a, b=b)
        np.testing.assert_allclose(got, want, rtol=1e-15, equal_nan=True, err_msg=f"{a} {b}")
        got_rs = tb.special.logsumexp(a, b=b, return_sign=True)
        np.testing.assert_allclose(got_rs, want_rs, rtol=1e-15, equal_nan=True, err_msg=f"{a} {b}")


def test_logsumexp_types_dtypes_and_empty():
    for value in [1.0, [1.0, 2.0], np.float32(1.0), np.arange(3), np.array([True, False]),
                  np.ones(2, np.float16)]:
        got = tb.special.logsumexp(value)
        want = sc.logsumexp(value)
        assert type(got) is type(want) and got.dtype == want.dtype, value
        np.testing.assert_allclose(got, want, rtol=1e-3 if want.dtype == np.float16 else 1e-7)
    f32 = np.ones(3, np.float32)
    assert tb.special.logsumexp(f32, b=2).dtype == sc.logsumexp(f32, b=2).dtype == np.float32
    assert tb.special.logsumexp(np.ones(3), b=f32).dtype == np.float64
    for shape, axis in [((0,), None), ((0, 3), 0), ((3, 0), 1), ((3, 0), 0)]:
        got = tb.special.logsumexp(np.ones(shape), axis=axis)
        want = sc.logsumexp(np.ones(shape), axis=axis)
        assert np.shape(got) == np.shape(want)
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="out of bounds"):
        tb.special.logsumexp(np.ones((2, 2)), axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        tb.special.logsumexp(np.ones((2, 2)), axis=(0, 0))
    # complex input: SciPy's complex semantics (tests/python/special/test_complex_xsf.py)
    got = tb.special.logsumexp(np.ones(2, complex))
    assert got == sc.logsumexp(np.ones(2, complex)) and got.dtype == np.complex128


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
def test_softmax_matches_scipy(name, axis, rng):
    x = rng.normal(size=(3, 4)) * 30
    x[1, 2] = -np.inf
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(x, axis=axis)
    got = ours(name)(x, axis=axis)
    assert type(got) is type(want) and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-300)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_dtypes_and_types(name):
    for dtype in ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "float16",
                  "float32", "float64"]:
        x = np.array([[1, 2, 3], [3, 5, 4], [-100, 100, 0]]).astype(dtype)
        # x - max(x) is computed in x's dtype, so unsigned integers wrap around (and
        # float16 exp overflows): SciPy's results, garbage included
        with np.errstate(all="ignore"):
            want = getattr(sc, name)(x, axis=1)
        got = ours(name)(x, axis=1)
        assert got.dtype == want.dtype, dtype
        np.testing.assert_allclose(got, want, rtol=2e-3 if want.dtype == np.float16 else 1e-6,
                                   equal_nan=True, err_msg=dtype)
    assert type(ours(name)(1.0)) is type(getattr(sc, name)(1.0))
    with pytest.raises(TypeError):
        ours(name)(np.array([True, False]))  # NumPy has no boolean subtract
    with np.errstate(all="ignore"):
        inf_case = np.array([np.inf, 1.0, -np.inf])
        np.testing.assert_array_equal(ours(name)(inf_case), getattr(sc, name)(inf_case))
