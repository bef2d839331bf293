"""The helpers (SciPy's ``_helper.py``; src/ops/fft/helper.rs): frequencies,
shifts, fast lengths."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft as sf
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb
from torchbridge import fft as tf

from .cases import (
    assert_close,
)


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
