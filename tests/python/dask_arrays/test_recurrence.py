"""lfilter and sosfilt on dask arrays along a chunked time axis: each time chunk
starts from the previous chunk's final state (zf -> zi), batch chunks in
parallel; lazy, and the eager result to 1e-12 relative (in fact bit for bit),
with ``(y, zf)`` when ``zi`` is given, as SciPy returns. filtfilt and
sosfiltfilt: SciPy's steps (extension, forward chain, backward chain, trim)."""

from __future__ import annotations

import dask.array as da
import numpy as np
import pytest
import scipy.signal as ss

import torchbridge as tb

from .cases import no_compute

RNG = np.random.default_rng(5)
X = RNG.standard_normal((3, 61))
BA = ss.butter(4, 0.2)
SOS = ss.butter(6, 0.15, output="sos")
FIR = (np.array([0.25, 0.5, 0.25]), np.array([1.0]))

#: Chunkings of a (3, 61) signal along time (and batch): one chunk, even, ragged, one sample.
CHUNKS = {
    "one-chunk": (3, 61),
    "even": (1, 16),
    "ragged": ((2, 1), (1, 2, 3, 5, 8, 13, 29)),
    "one-sample": (3, 1),
}


def _check(got, eager):
    got = da.compute(*got) if isinstance(got, tuple) else (got.compute(),)
    eager = eager if isinstance(eager, tuple) else (eager,)
    assert len(got) == len(eager)
    for g, e in zip(got, eager):
        assert type(g) is np.ndarray and g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("how", CHUNKS)
@pytest.mark.parametrize("filt", ["iir", "fir"])
def test_lfilter_along_chunked_time(filt, how):
    b, a = BA if filt == "iir" else FIR
    eager = tb.signal.lfilter(b, a, X)
    with no_compute():
        lazy = tb.signal.lfilter(b, a, da.from_array(X, chunks=CHUNKS[how]))
    assert isinstance(lazy, da.Array) and lazy.chunks == da.from_array(X, chunks=CHUNKS[how]).chunks
    _check(lazy, eager)
    np.testing.assert_allclose(eager, ss.lfilter(b, a, X), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("how", CHUNKS)
def test_lfilter_with_zi_returns_y_and_zf(how):
    b, a = BA
    zi = ss.lfilter_zi(b, a)[None, :] * X[:, :1]  # (3, 4): the steady state of each line's first sample
    eager = tb.signal.lfilter(b, a, X, zi=zi)
    with no_compute():
        lazy = tb.signal.lfilter(b, a, da.from_array(X, chunks=CHUNKS[how]), zi=zi)
    assert isinstance(lazy, tuple) and len(lazy) == 2
    _check(lazy, eager)
    with no_compute():  # zi as a dask array too, and time along axis 0
        lazy0 = tb.signal.lfilter(b, a, da.from_array(X.T, chunks=CHUNKS[how][::-1]), axis=0, zi=da.from_array(zi.T))
    _check(lazy0, tb.signal.lfilter(b, a, X.T, axis=0, zi=zi.T))


@pytest.mark.parametrize("how", CHUNKS)
def test_sosfilt_with_and_without_zi(how):
    eager = tb.signal.sosfilt(SOS, X)
    with no_compute():
        lazy = tb.signal.sosfilt(SOS, da.from_array(X, chunks=CHUNKS[how]))
    _check(lazy, eager)
    zi = ss.sosfilt_zi(SOS)[:, None, :] * X[None, :, :1]  # (sections, 3, 2)
    with no_compute():
        lazy = tb.signal.sosfilt(SOS, da.from_array(X, chunks=CHUNKS[how]), zi=zi)
    _check(lazy, tb.signal.sosfilt(SOS, X, zi=zi))
    np.testing.assert_allclose(tb.signal.sosfilt(SOS, X, zi=zi)[0], ss.sosfilt(SOS, X, zi=zi)[0], rtol=1e-12)


def test_float32_and_complex_inputs_keep_the_eager_dtype():
    b, a = BA
    for x in (X.astype(np.float32), X + 1j * X[::-1]):
        eager = tb.signal.lfilter(b, a, x)
        lazy = tb.signal.lfilter(b, a, da.from_array(x, chunks=(2, 9)))
        assert lazy.dtype == eager.dtype
        _check(lazy, eager)


def test_a_broadcast_zi():
    b, a = BA
    zi = np.ones((1, 4))
    _check(tb.signal.lfilter(b, a, da.from_array(X, chunks=(1, 10)), zi=zi), tb.signal.lfilter(b, a, X, zi=zi))


def test_coefficients_as_dask_arrays_are_refused():
    with pytest.raises(NotImplementedError, match="option"):
        tb.signal.lfilter(da.from_array(BA[0]), BA[1], da.from_array(X, chunks=(3, 10)))


PADS = {
    "odd": {},
    "even": {"padtype": "even"},
    "constant": {"padtype": "constant", "padlen": 20},
    "none": {"padtype": None},
}


@pytest.mark.parametrize("pad", PADS)
@pytest.mark.parametrize("how", CHUNKS)
def test_filtfilt_and_sosfiltfilt(how, pad):
    """The extension from the end chunks, a forward chain, a backward chain, the trim."""
    b, a = BA
    with no_compute():
        lazy = tb.signal.filtfilt(b, a, da.from_array(X, chunks=CHUNKS[how]), **PADS[pad])
        lazy_sos = tb.signal.sosfiltfilt(SOS, da.from_array(X.T, chunks=CHUNKS[how][::-1]), axis=0, **PADS[pad])
    assert isinstance(lazy, da.Array) and lazy.shape == X.shape
    _check(lazy, tb.signal.filtfilt(b, a, X, **PADS[pad]))
    _check(lazy_sos, tb.signal.sosfiltfilt(SOS, X.T, axis=0, **PADS[pad]))
    np.testing.assert_allclose(tb.signal.filtfilt(b, a, X, **PADS[pad]), ss.filtfilt(b, a, X, **PADS[pad]),
                               rtol=1e-10, atol=1e-13)


def test_filtfilt_refusals():
    x = da.from_array(X, chunks=(3, 10))
    with pytest.raises(NotImplementedError, match="gust"):
        tb.signal.filtfilt(*BA, x, method="gust")
    with pytest.raises(ValueError, match="greater than padlen"):
        tb.signal.filtfilt(*BA, x, padlen=61)
    with pytest.raises(ValueError):  # a bad option is reported at once, as eagerly
        tb.signal.sosfiltfilt(SOS, x, padtype="nope")
