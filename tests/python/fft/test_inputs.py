"""Every transform over every kind of input: dtypes, float32, strided and
read-only arrays, extreme values, nan and inf, empty input, lists and 0-d,
every array library, torch's half precisions."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft as sf
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb
from torchbridge import fft as tf

from .cases import (
    F32_TOL,
    F64_TOL,
    INPUT_DTYPES,
    ONE_D,
    R2R,
    REAL_INPUT,
    TRANSFORMS,
    assert_close,
    input_for,
)


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


def test_torch_half_precisions_compute_as_scipy_would_convert_them():
    import torch

    x = torch.tensor([1.0, 2.0, 0.5, -1.0])
    # float16 -> float32 (SciPy's _asfarray); bfloat16, which NumPy lacks, -> float64
    assert tf.fft(x.half()).dtype == torch.complex64
    assert tf.dct(x.half()).dtype == torch.float32
    assert tf.fft(x.bfloat16()).dtype == torch.complex128
    assert tf.dst(x.bfloat16(), 4).dtype == torch.float64
    np.testing.assert_allclose(tf.dct(x.bfloat16()).numpy(), sf.dct(x.numpy().astype(np.float64)), rtol=1e-13)
