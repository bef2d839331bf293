"""lombscargle (SciPy's ``_spectral_py.py``; src/ops/signal/spectral_py.rs, its
last section), against scipy.signal: every ``normalize`` with and without
``floating_mean`` and ``weights``, over the CPU containers; the chunking over
frequencies; SciPy's validation and its ``precenter`` deprecation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.signal as ss
import torch
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy

from torchbridge import signal as ts

NORMALIZE = [False, True, "power", "normalize", "amplitude"]


def rel(ours, ref) -> float:
    """The largest difference over the largest magnitude of SciPy's result."""
    ours, ref = to_numpy(ours), np.asarray(ref)
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    scale = max(np.abs(ref).max(initial=0.0), 1e-300)
    return float(np.abs(ours - ref).max(initial=0.0) / scale)


def signal(rng, n=150, offset=2.0):
    """Uneven sample times over 10 pi, a harmonic of amplitude 2 at 1 rad/s plus ``offset`` and noise."""
    x = np.sort(rng.uniform(0, 10 * np.pi, n))
    y = 2.0 * np.cos(x) + offset + 0.1 * rng.standard_normal(n)
    return x, y


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("normalize", NORMALIZE)
@pytest.mark.parametrize("floating_mean", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_lombscargle_matches_scipy(rng, lib, normalize, floating_mean, weighted):
    x, y = signal(rng)
    freqs = np.linspace(0.25, 10, 1002)
    weights = rng.uniform(0.2, 3.0, x.size) if weighted else None
    want = ss.lombscargle(x, y, freqs, normalize=normalize, floating_mean=floating_mean, weights=weights)
    args = [to_library(lib, a) for a in (x, y, freqs)]
    kw = {"weights": to_library(lib, weights)} if weighted else {}
    got = ts.lombscargle(*args, normalize=normalize, floating_mean=floating_mean, **kw)
    assert isinstance(got, library_type(lib))
    assert dtype_name(got) == want.dtype.name  # float64, complex128 for "amplitude"
    assert rel(got, want) < 1e-12


def test_lombscargle_finds_the_harmonic(rng):
    """The documented scales: power ~ A**2 N/4 at the peak, amplitude ~ A, normalized in [0, 1]."""
    x, y = signal(rng, n=400, offset=0.0)
    freqs = np.linspace(0.25, 10, 2000)
    power = to_numpy(ts.lombscargle(x, y, freqs))
    peak = int(np.argmax(power))
    assert abs(freqs[peak] - 1.0) < 0.01
    assert power[peak] == pytest.approx(4.0 * 400 / 4, rel=0.05)
    amp = to_numpy(ts.lombscargle(x, y, freqs, normalize="amplitude", floating_mean=True))
    assert abs(amp[peak]) == pytest.approx(2.0, rel=0.02)
    norm = to_numpy(ts.lombscargle(x, y, freqs, normalize=True))
    assert norm.min() >= 0 and norm.max() <= 1 + 1e-12 and norm[peak] > 0.9


def test_lombscargle_chunks_over_many_frequencies(rng):
    """len(x) * len(freqs) far above one chunk (2**22): the chunks join seamlessly."""
    x = np.sort(rng.uniform(0, 100, 3000))
    y = np.sin(2.5 * x) + rng.standard_normal(3000)
    freqs = np.linspace(0.01, 20, 3001)  # 9e6 elements: three chunks, the last one short
    for options in ({}, {"floating_mean": True, "normalize": "amplitude"}):
        want = ss.lombscargle(x, y, freqs, **options)
        got = ts.lombscargle(x, y, freqs, **options)
        assert rel(got, want) < 1e-11, options


@pytest.mark.parametrize("normalize", NORMALIZE)
def test_lombscargle_one_frequency_is_0d(rng, normalize):
    x, y = signal(rng, n=40)
    want = ss.lombscargle(x, y, np.array([1.0]), normalize=normalize)
    got = ts.lombscargle(x, y, np.array([1.0]), normalize=normalize)
    assert np.ndim(want) == 0 and to_numpy(got).shape == ()
    assert abs(complex(to_numpy(got)) - complex(want)) <= 1e-12 * abs(want)


def test_lombscargle_zero_frequency_and_one_sample(rng):
    x, y = signal(rng, n=30)
    freqs = np.array([0.0, 0.5, 1.0])
    for normalize in NORMALIZE:
        want = ss.lombscargle(x, y, freqs, normalize=normalize)
        assert rel(ts.lombscargle(x, y, freqs, normalize=normalize), want) < 1e-12, normalize
    # floating_mean at frequency 0: CC, SS and YC all cancel to rounding noise; power stays ~0
    got = to_numpy(ts.lombscargle(x, y, freqs, floating_mean=True))
    want = ss.lombscargle(x, y, freqs, floating_mean=True)
    assert abs(got[0]) < 1e-12 * np.abs(want).max()
    assert rel(got[1:], want[1:]) < 1e-12
    # one sample
    want = ss.lombscargle(np.array([0.3]), np.array([1.5]), freqs)
    assert rel(ts.lombscargle(np.array([0.3]), np.array([1.5]), freqs), want) < 1e-12


def test_lombscargle_input_dtypes_compute_in_float64(rng):
    """float32, integers and lists are cast to float64 first, as SciPy's np.asarray(_, float64)."""
    x = np.arange(50)
    y = (rng.standard_normal(50) * 10).astype(np.int32)
    freqs = np.linspace(0.1, 3, 40).astype(np.float32)
    want = ss.lombscargle(x, y, freqs, floating_mean=True)
    got = ts.lombscargle(x, y, freqs, floating_mean=True)
    assert got.dtype == np.float64 and rel(got, want) < 1e-12
    got = ts.lombscargle(torch.from_numpy(x.astype(np.float32)), torch.from_numpy(y), torch.from_numpy(freqs))
    assert got.dtype == torch.float64
    assert rel(got, ss.lombscargle(x.astype(np.float32), y, freqs)) < 1e-12
    got = ts.lombscargle(list(x), list(y.astype(float)), list(freqs.astype(float)))
    assert rel(got, ss.lombscargle(x, y, freqs)) < 1e-12


def test_lombscargle_nan_propagates_as_scipy(rng):
    x, y = signal(rng, n=20)
    y[3] = np.nan
    freqs = np.linspace(0.5, 2, 5)
    with np.errstate(invalid="ignore"):
        want = ss.lombscargle(x, y, freqs)
    got = to_numpy(ts.lombscargle(x, y, freqs))
    assert np.isnan(want).all() and np.isnan(got).all()


def test_lombscargle_zero_weights_drop_samples(rng):
    """A zero weight removes the sample (SciPy's weights are normalised to sum 1)."""
    x, y = signal(rng, n=60)
    weights = np.ones(60)
    weights[::3] = 0.0
    freqs = np.linspace(0.3, 4, 50)
    got = ts.lombscargle(x, y, freqs, weights=weights, floating_mean=True, normalize=True)
    kept = weights > 0
    want = ss.lombscargle(x[kept], y[kept], freqs, floating_mean=True, normalize=True)
    assert rel(got, want) < 1e-12
    assert rel(got, ss.lombscargle(x, y, freqs, weights=weights, floating_mean=True, normalize=True)) < 1e-12


def test_lombscargle_precenter_is_deprecated_as_scipy(rng):
    x, y = signal(rng, n=50)
    freqs = np.linspace(0.3, 4, 30)
    for precenter in (True, False):
        with pytest.warns(DeprecationWarning, match="precenter"):
            want = ss.lombscargle(x, y, freqs, precenter=precenter)
        with pytest.warns(DeprecationWarning, match="precenter"):
            got = ts.lombscargle(x, y, freqs, precenter=precenter)
        assert rel(got, want) < 1e-12
    with pytest.warns(DeprecationWarning):
        centred = ss.lombscargle(x, y, freqs, precenter=True)
    assert rel(ts.lombscargle(x, y - y.mean(), freqs), centred) < 1e-12
    with pytest.warns(DeprecationWarning):  # passed as None: SciPy warns too (only "not passed" is silent)
        assert rel(ts.lombscargle(x, y, freqs, precenter=None), ss.lombscargle(x, y, freqs)) < 1e-12
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ts.lombscargle(x, y, freqs)  # not passed: no warning


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((np.ones(5), np.ones(4), np.ones(3)), {}, "equal non-zero length"),
        ((np.ones((2, 3)), np.ones((2, 3)), np.ones(3)), {}, "equal non-zero length"),
        ((np.ones(0), np.ones(0), np.ones(3)), {}, "equal non-zero length"),
        ((np.array(1.0), np.array(1.0), np.ones(3)), {}, "equal non-zero length"),
        ((np.ones(5), np.ones(5), np.ones(3)), {"weights": np.ones(4)}, "equal non-zero length"),
        ((np.ones(5), np.ones(5), np.ones(0)), {}, "freqs must be a 1-D array"),
        ((np.ones(5), np.ones(5), np.ones((1, 3))), {}, "freqs must be a 1-D array"),
        ((np.ones(5), np.ones(5), np.ones(3)), {"weights": np.array([1.0, -1, 1, 1, 1])}, "non-negative"),
        ((np.ones(5), np.ones(5), np.ones(3)), {"weights": np.zeros(5)}, "non-negative"),
        ((np.ones(5), np.ones(5), np.ones(3)), {"weights": np.full(5, np.nan)}, "non-negative"),
        ((np.ones(5), np.ones(5), np.ones(3)), {"normalize": "psd"}, "Normalize must be"),
        ((np.ones(5), np.ones(5), np.ones(3)), {"normalize": 1}, "Normalize must be"),
    ],
)
def test_lombscargle_rejects_as_scipy(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        ss.lombscargle(*args, **kwargs)
    with pytest.raises(ValueError, match=match):
        ts.lombscargle(*args, **kwargs)


def test_lombscargle_refusals():
    from torchbridge.errors import UnsupportedParameterError

    with pytest.raises(UnsupportedParameterError, match="complex"):
        ts.lombscargle(np.ones(5), np.ones(5, complex), np.ones(3))
    with pytest.raises(TypeError):
        ts.lombscargle(np.ones(5), np.ones(5), np.ones(3), False)  # keyword-only (SciPy: deprecated positional)
