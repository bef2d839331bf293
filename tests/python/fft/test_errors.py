"""Errors: the same exception classes as SciPy (torchbridge's own subclass
them), and the performance hints that are accepted."""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.fft as sf

import torchbridge as tb
from torchbridge import fft as tf

from .cases import (
    assert_close,
    signal,
)

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
