"""The cosine and sine transforms (SciPy's ``_realtransforms.py``;
src/ops/fft/realtransforms.rs): dct, idct, dst, idst and their n-D forms."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft as sf
from hypothesis import given, settings
from hypothesis import strategies as st

import torchbridge as tb
from torchbridge import fft as tf

from .cases import (
    F32_TOL,
    F64_TOL,
    LENGTHS,
    ND_CASES,
    NORMS,
    R2R,
    R2RN,
    assert_close,
    signal,
)


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
