"""torchbridge.signal's spectral estimators (periodogram, welch, csd,
coherence, spectrogram, stft, istft) against scipy.signal 1.17.1 over the
four CPU containers: values, result tuples and dtypes (float32 stays
float32, complex input two-sided, integers float64), odd/even nperseg and
nfft, one- and two-sided, every scaling, averages, modes, boundaries,
axis != -1, 2-D input, edge cases (len(x) < nperseg with SciPy's warning,
nperseg=1, empty input, nan), SciPy's errors, inputs left alone.

Tolerances: 1e-12 relative to the largest output in float64 (one batched
FFT against SciPy's per-segment FFTs; the sums differ in order), 2e-5 in
float32 (torchbridge computes float32 in float32, SciPy's csd in float64).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.signal as ss
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy

import torchbridge.signal as ts


def same(got, want, tol=1e-12, lib=None):
    """Each result of the tuple within ``tol`` of SciPy's largest value, same shapes and dtypes."""
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        if lib is not None:
            assert isinstance(g, library_type(lib))
        g = to_numpy(g)
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        scale = np.max(np.abs(w)) if w.size else 1.0
        np.testing.assert_allclose(g, w, rtol=0, atol=tol * max(scale, 1e-300))


def both(name, *args, tol=1e-12, lib=None, **kwargs):
    want = getattr(ss, name)(*args, **kwargs)
    targs = [to_library(lib, a) if isinstance(a, np.ndarray) and lib else a for a in args]
    got = getattr(ts, name)(*targs, **kwargs)
    same(got, want, tol, lib)
    return got


@pytest.fixture
def signal(rng):
    return rng.standard_normal(1000)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_welch_over_containers(lib, signal):
    t = to_library(lib, signal)
    got = ts.welch(t, fs=10.0, nperseg=128)
    same(got, ss.welch(signal, fs=10.0, nperseg=128), lib=lib)
    assert dtype_name(got[1]) == "float64"
    np.testing.assert_array_equal(to_numpy(t), signal)  # input untouched


@pytest.mark.parametrize("nperseg", [1, 2, 63, 64, 101, 1000])
@pytest.mark.parametrize("scaling", ["density", "spectrum"])
@pytest.mark.parametrize("onesided", [True, False])
def test_welch_segments(nperseg, scaling, onesided, signal):
    for nfft in (None, nperseg + 1, 2 * nperseg):
        for noverlap in (None, 0, nperseg - 1):
            both("welch", signal, nperseg=nperseg, nfft=nfft, noverlap=noverlap, scaling=scaling,
                 return_onesided=onesided)


@pytest.mark.parametrize("detrend", ["constant", "linear", False, None])
@pytest.mark.parametrize("average", ["mean", "median"])
def test_welch_detrend_and_average(detrend, average, signal):
    x = signal + np.linspace(0, 3, signal.size)
    both("welch", x, nperseg=100, detrend=detrend, average=average)
    both("welch", x, nperseg=64, noverlap=16, detrend=detrend, average=average)  # odd and even counts


@pytest.mark.parametrize("window", ["hann", "hamming", ("kaiser", 8.0), ("tukey", 0.3), "boxcar", "blackman"])
def test_welch_windows(window, signal):
    both("welch", signal, window=window, nperseg=77)
    both("welch", signal, window=ss.get_window(window, 50))
    both("welch", signal, window=list(ss.get_window(window, 50)))


def test_welch_dtypes_and_axes(rng, signal):
    x32 = signal.astype(np.float32)
    got = both("welch", x32, nperseg=64, tol=2e-5)
    assert got[1].dtype == np.float32 and got[0].dtype == np.float64
    z = signal + 1j * rng.standard_normal(signal.size)
    both("welch", z, nperseg=64)  # complex: two-sided
    both("welch", z.astype(np.complex64), nperseg=64, tol=2e-5)
    both("welch", np.arange(500) % 7, nperseg=64)  # integers: float64
    x = rng.standard_normal((3, 400, 2))
    both("welch", x, nperseg=50, axis=1)
    both("welch", x, nperseg=50, axis=-2, average="median")
    both("welch", x[:, :, 0], nperseg=50, axis=0 if x.shape[0] > 50 else -1)


def test_welch_edges(signal):
    with pytest.warns(UserWarning, match="nperseg=256 is greater than signal length"):
        both("welch", signal[:100])
    both("welch", np.zeros((3, 0)))
    both("welch", np.zeros(0))
    nan = signal.copy()
    nan[500] = np.nan
    f, p = ts.welch(nan, nperseg=100)
    _, want = ss.welch(nan, nperseg=100)
    np.testing.assert_array_equal(np.isnan(p), np.isnan(want))
    both("welch", signal[:1], nperseg=1)


@pytest.mark.parametrize(
    ("kwargs", "exc", "message"),
    [
        ({"nperseg": 0}, ValueError, "nperseg=0 is not a positive integer"),
        ({"nperseg": 64, "nfft": 32}, ValueError, "nfft=32 must be greater than or equal to nperseg=64"),
        ({"nperseg": 64, "noverlap": 64}, ValueError, "noverlap=64 must be less than nperseg=64"),
        ({"nperseg": 64, "scaling": "power"}, ValueError, "scaling='power' not in"),
        ({"nperseg": 64, "average": "mode"}, ValueError, "average='mode' must be 'median' or 'mean'"),
        ({"window": np.ones(10), "nperseg": 20}, ValueError, "nperseg=20 does not equal len"),
        ({"nperseg": 64, "detrend": "quadratic"}, ValueError, "Trend type must be"),
        ({"nperseg": 64, "window": "nonesuch"}, ValueError, "Invalid window name"),
        ({"nperseg": 64, "detrend": lambda s: s}, NotImplementedError, "callable"),
    ],
)
def test_welch_refusals(kwargs, exc, message, signal):
    if exc is ValueError:
        with pytest.raises(ValueError):
            ss.welch(signal, **kwargs)
    with pytest.raises(exc, match=message):
        ts.welch(signal, **kwargs)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_csd_and_coherence(lib, rng, signal):
    y = np.convolve(signal, [0.5, 1.0, -0.3], mode="same") + 0.1 * rng.standard_normal(signal.size)
    got = both("csd", signal, y, nperseg=128, lib=lib)
    assert dtype_name(got[1]) == "complex128"
    both("coherence", signal, y, nperseg=128, lib=lib)


def test_csd_variants(rng, signal):
    y = rng.standard_normal(signal.size)
    for average in ("mean", "median"):
        for scaling in ("density", "spectrum"):
            both("csd", signal, y, nperseg=100, average=average, scaling=scaling)
            both("csd", signal, y, nperseg=64, noverlap=10, nfft=129, average=average, scaling=scaling,
                 return_onesided=False)
    both("csd", signal, y[:700], nperseg=128)  # the shorter zero-padded
    both("csd", signal.reshape(2, 500), y[:500], nperseg=64)  # outer axes broadcast
    both("csd", signal.astype(np.float32), y.astype(np.float32), nperseg=64, tol=2e-5)
    both("csd", signal + 1j * y, y, nperseg=64)
    both("csd", signal, signal.copy(), nperseg=64)  # not the same object: complex
    f, p = ts.csd(signal, signal.copy(), nperseg=64)
    assert p.dtype == np.complex128
    f, p = ts.csd(signal, signal, nperseg=64)  # y is x: welch, real
    assert p.dtype == np.float64
    with pytest.raises(ValueError, match="cannot be broadcast"):
        ts.csd(np.ones((2, 100)), np.ones((3, 100)))
    both("csd", np.zeros(0), signal)
    both("coherence", signal, y, nperseg=77, noverlap=7, nfft=100, detrend="linear")
    both("coherence", signal.reshape(4, 250), y.reshape(4, 250), nperseg=50, axis=-1)


def test_periodogram(signal, rng):
    for nfft in (None, 1000, 333, 1333):
        for scaling in ("density", "spectrum"):
            both("periodogram", signal, nfft=nfft, scaling=scaling)
    both("periodogram", signal, window="hann", detrend="linear", return_onesided=False)
    both("periodogram", signal, window=np.hanning(1000))
    both("periodogram", signal, window=None)
    both("periodogram", signal[:101], fs=3.0)
    both("periodogram", rng.standard_normal((3, 64)), axis=0)
    both("periodogram", signal.astype(np.float32), tol=2e-5)
    both("periodogram", np.zeros((2, 0)))
    with pytest.raises(ValueError, match="the size of the window"):
        ts.periodogram(signal, window=np.ones(10))


def same_angle(got, want, tol=1e-12):
    """Angles equal modulo 2 pi (a zero imaginary part's sign, +0.0 or -0.0 from
    the FFT, turns pi into -pi; unwrapping carries that on)."""
    for g, w in zip(got[:2], want[:2]):
        np.testing.assert_allclose(to_numpy(g), w, rtol=0, atol=tol)
    g, w = to_numpy(got[2]), want[2]
    assert g.shape == w.shape and g.dtype == w.dtype
    np.testing.assert_allclose(np.angle(np.exp(1j * (g - w))), 0, atol=tol * max(1.0, np.max(np.abs(w))))


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("mode", ["angle", "phase"])
def test_spectrogram_angles(lib, mode, signal):
    # detrend=False: a detrended segment's DC bin is rounding noise, its angle arbitrary
    for kwargs in ({"nperseg": 64}, {"nperseg": 63, "nfft": 100, "noverlap": 20}, {"return_onesided": False}):
        t = to_library(lib, signal)
        got = ts.spectrogram(t, mode=mode, detrend=False, **kwargs)
        assert isinstance(got[2], library_type(lib))
        same_angle(got, ss.spectrogram(signal, mode=mode, detrend=False, **kwargs))
    x = signal.reshape(100, 10)
    same_angle(ts.spectrogram(x, nperseg=32, axis=0, mode=mode, detrend=False),
               ss.spectrogram(x, nperseg=32, axis=0, mode=mode, detrend=False))


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("mode", ["psd", "complex", "magnitude"])
def test_spectrogram(lib, mode, signal):
    both("spectrogram", signal, nperseg=64, mode=mode, lib=lib)
    for scaling in ("density", "spectrum"):
        both("spectrogram", signal, fs=4.0, nperseg=63, nfft=100, noverlap=20, mode=mode, scaling=scaling)
    both("spectrogram", signal.reshape(100, 10), nperseg=32, axis=0, mode=mode)
    both("spectrogram", signal, nperseg=64, mode=mode, return_onesided=False, detrend=False)


def test_spectrogram_edges(signal):
    with pytest.warns(UserWarning, match="is greater than input length"):
        both("spectrogram", signal[:100])
    z = signal + 1j * signal[::-1]
    with pytest.warns(UserWarning, match="Input data is complex, switching to return_onesided=False"):
        both("spectrogram", z, nperseg=64)
    both("spectrogram", signal.astype(np.float32), nperseg=64, tol=2e-5)
    with pytest.raises(ValueError, match="unknown value for mode"):
        ts.spectrogram(signal, mode="power")
    with pytest.raises(ValueError, match="window is longer than input signal"):
        ts.spectrogram(signal[:10], window=np.ones(20))
    with pytest.raises(ValueError, match="different from length of window"):
        ts.spectrogram(signal, window=np.ones(20), nperseg=30)
    with pytest.raises(ValueError, match="noverlap must be less than nperseg"):
        ts.spectrogram(signal, nperseg=20, noverlap=20)
    with pytest.raises(ValueError, match="Unknown scaling"):
        ts.spectrogram(signal, nperseg=20, scaling="psd")


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("boundary", ["zeros", "even", "odd", "constant", None])
@pytest.mark.parametrize("padded", [True, False])
def test_stft(lib, boundary, padded, signal):
    both("stft", signal, nperseg=64, boundary=boundary, padded=padded, lib=lib)
    both("stft", signal, fs=2.0, nperseg=63, noverlap=40, nfft=70, boundary=boundary, padded=padded,
         scaling="psd", detrend="constant")


def test_stft_variants(signal, rng):
    both("stft", signal, nperseg=64, return_onesided=False)
    both("stft", signal.reshape(50, 20), nperseg=32, axis=0)
    both("stft", rng.standard_normal((2, 200, 3)), nperseg=32, axis=1)
    both("stft", signal.astype(np.float32), nperseg=64, tol=2e-5)
    both("stft", signal, nperseg=1, noverlap=0)
    both("stft", np.zeros(0))
    with pytest.warns(UserWarning, match="is greater than input length"):
        both("stft", signal[:100])
    with pytest.raises(ValueError, match="not in \\['spectrum', 'psd'\\]"):
        ts.stft(signal, scaling="density")
    with pytest.raises(ValueError, match="Unknown boundary option"):
        ts.stft(signal, boundary="wrap")


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("nperseg", [32, 63, 64])
def test_istft_round_trip(lib, nperseg, signal):
    for scaling in ("spectrum", "psd"):
        _, _, z = ss.stft(signal, nperseg=nperseg, scaling=scaling)
        got = both("istft", z, nperseg=nperseg, scaling=scaling, lib=lib)
        np.testing.assert_allclose(to_numpy(got[1])[: signal.size], signal, atol=1e-12)


def test_istft_variants(signal, rng):
    _, _, z = ss.stft(signal, nperseg=64, return_onesided=False)
    both("istft", z, input_onesided=False)
    _, _, z3 = ss.stft(rng.standard_normal((2, 500)), nperseg=32)
    both("istft", z3)
    both("istft", np.moveaxis(z3, -1, 0), time_axis=0, freq_axis=-1)
    both("istft", np.moveaxis(z3, 0, -1), time_axis=1, freq_axis=0)
    _, _, zb = ss.stft(signal, nperseg=64, boundary=None)
    with pytest.warns(UserWarning, match="NOLA condition failed"):  # the periodic Hann window's zero
        want = ss.istft(zb, boundary=False)
    with pytest.warns(UserWarning, match="NOLA condition failed, STFT may not be invertible. Possibly"):
        got = ts.istft(zb, boundary=False)
    same(got, want)
    both("istft", z3.astype(np.complex64), tol=2e-5)
    both("istft", z3, window=ss.get_window("hamming", 32), noverlap=24, nfft=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ss.istft(np.ones((5, 4)), window="boxcar", nperseg=8, noverlap=0, boundary=False)
    with pytest.warns(UserWarning, match="NOLA condition failed"):
        got = ts.istft(np.ones((5, 4)), window=("tukey", 1.0), nperseg=8, noverlap=0, boundary=False)
    assert got[1].shape == want[1].shape
    with pytest.raises(ValueError, match="at least 2d"):
        ts.istft(np.ones(5))
    with pytest.raises(ValueError, match="differing time and frequency"):
        ts.istft(np.ones((5, 5)), time_axis=0, freq_axis=0)
    with pytest.raises(ValueError, match="window must have length of 8"):
        ts.istft(np.ones((5, 5)), window=np.ones(7))
    with pytest.raises(ValueError, match="noverlap must be less than nperseg"):
        ts.istft(np.ones((5, 5)), noverlap=8)
