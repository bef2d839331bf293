"""The Fourier transforms (SciPy's ``_basic.py``; src/ops/fft/basic.rs): fft,
ifft, rfft, irfft, hfft, ihfft and their 2-D and n-D forms, against scipy.fft."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft as sf
from hypothesis import given, settings
from hypothesis import strategies as st

import torchbridge as tb
from torchbridge import fft as tf

from .cases import (
    C2R,
    LENGTHS,
    N_D,
    ND_CASES,
    NORMS,
    ONE_D,
    TWO_D,
    assert_close,
    input_for,
    signal,
)


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
