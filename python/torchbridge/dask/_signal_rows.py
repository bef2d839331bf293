"""The chunking table's ``signal`` rows (see :mod:`._table`), and those of
its own family ``signal.windows``."""

from __future__ import annotations

from typing import Any

from ._chunking import AlongAxis, Chunking, Elementwise, NoArrays, Unsupported
from ._recurrence import ForwardBackward, Recurrence
from ._stencil import Stencil, domain_reach, kernel_size_reach, line_reach, one_axis

_COEFFICIENTS = Unsupported("works on filter coefficients (a few numbers): pass numpy or torch arrays")

# A convolution couples neighbouring chunks: its dask path is the stencil class (``map_overlap`` with
# the kernel's depth) for a small in-memory kernel, which is not built yet.
_STENCIL = "a convolution couples neighbouring chunks; its map_overlap path (the stencil class) is not built yet"

_SPECTRAL = (
    "segments overlap across chunk borders along `axis`, and the result is a tuple (frequencies, "
    "[times,] spectra) of other shapes; not wired up yet (rechunk `axis` to one chunk and use "
    "map_blocks with the routine itself)"
)


def _global_noise(call: Any) -> str | None:
    """``wiener(noise=None)``: SciPy's noise is the mean of the local variance over the whole array. A
    chunked mean rounds differently, and the filter compares every local variance with it, so an element
    whose variance lies within those ulps of the noise would take the other branch: refused, not approximated."""
    if call.get("noise") is None:
        return (
            "noise=None estimates the noise as the mean of the local variance over the whole array, a "
            "reduction before the filter; pass noise= (e.g. the mean of the local variance computed first) "
            "or compute it eagerly"
        )
    return None


_medfilt_reach = kernel_size_reach("kernel_size")


def _medfilt_least(call: Any, ndim: int) -> list[int]:
    return [r + 1 for r in _medfilt_reach(call, ndim)]


def _interp_window(call: Any, ndim: int) -> list[int]:
    """``mode='interp'`` fits a polynomial to the ``window_length`` samples at each end of the axis:
    chunks along it at least that long, so that the end chunks (widened) hold them all."""
    least = [0] * ndim
    if call.get("mode") == "interp":
        least[one_axis(call, ndim)[0]] = int(call.get("window_length"))
    return least


#: ``name`` -> the chunking class of ``torchbridge.signal.{name}``.
ROWS: dict[str, Chunking] = {
    **{
        name: Unsupported(_STENCIL)
        for name in ("convolve", "correlate", "fftconvolve", "oaconvolve", "convolve2d", "correlate2d")
    },
    "choose_conv_method": Unsupported("its choice reads the data (the integer range), which would compute the graph"),
    "correlation_lags": NoArrays(),
    "lfilter": Recurrence(),
    "sosfilt": Recurrence(sections=True),
    "filtfilt": ForwardBackward(),
    "sosfiltfilt": ForwardBackward(sections=True),
    "lfilter_zi": _COEFFICIENTS,
    "sosfilt_zi": _COEFFICIENTS,
    "lfiltic": _COEFFICIENTS,
    # the order filters and wiener: stencils (a window around every sample, zero-padded at the edges)
    "order_filter": Stencil(domain_reach, mode="", arrays=("a",)),
    # medfilt warns when a (widened) block is smaller than its kernel: chunks of at least half a kernel more
    "medfilt": Stencil(_medfilt_reach, mode="", arrays=("volume",), min_chunk=_medfilt_least),
    "medfilt2d": Stencil(kernel_size_reach("kernel_size"), mode="", arrays=("input",)),
    "wiener": Stencil(kernel_size_reach("mysize"), mode="", arrays=("im",), refuse=_global_noise),
    "deconvolve": Unsupported("polynomial division of two 1-d arrays: a recurrence over the whole signal"),
    **{
        name: NoArrays()
        for name in ("bessel", "butter", "cheby1", "cheby2", "iirfilter", "besselap", "buttap", "cheb1ap", "cheb2ap")
    },
    **{name: _COEFFICIENTS for name in ("zpk2tf", "tf2zpk", "zpk2sos", "tf2sos", "sos2tf", "sos2zpk")},
    **{
        name: Unsupported("a frequency response of a filter's few coefficients: pass numpy or torch arrays")
        for name in ("freqz", "freqz_zpk", "freqz_sos", "sosfreqz")
    },
    "savgol_coeffs": NoArrays(),
    "savgol_filter": Stencil(
        line_reach(lambda call: call.get("window_length")),
        arrays=("x",),
        modes_on=one_axis,
        min_chunk=_interp_window,
    ),
    # waveforms: elementwise in t (and their array-valued shape parameters)
    "chirp": Elementwise(("t", "phi")),
    "sawtooth": Elementwise(("t", "width")),
    "square": Elementwise(("t", "duty")),
    "gausspulse": Elementwise(("t",), probe=1e-4),
    "sweep_poly": Elementwise(("t", "phi")),
    "unit_impulse": NoArrays(),
    "get_window": NoArrays(),
    # transforms along one axis (two for hilbert2), that axis in one chunk
    "hilbert": AlongAxis("axis", "N"),
    "hilbert2": AlongAxis("axes", "N"),
    "detrend": AlongAxis("axis", "", array="data"),
    # spectral estimators: segments along `axis` and a tuple of results (frequencies, times, spectra)
    **{name: Unsupported(_SPECTRAL) for name in ("periodogram", "welch", "csd", "coherence", "spectrogram", "stft")},
    "istft": Unsupported("an overlap-add along the time axis returning a (t, x) tuple; rechunk and use map_blocks"),
    "lombscargle": Unsupported(
        "every frequency reduces over all samples of x, y and weights: pass those whole and map_blocks over freqs"
    ),
    # FIR design (_fir_filter_design), upfirdn and the resamplers
    **{name: NoArrays() for name in ("kaiser_beta", "kaiser_atten", "kaiserord", "firwin", "firwin2")},
    "upfirdn": Unsupported(
        "a polyphase convolution along `axis` changes its length (up/down) and couples neighbouring chunks; "
        "not wired up yet (rechunk `axis` to one chunk and use map_blocks with the routine itself)"
    ),
    "resample": Unsupported(
        "an FFT of the whole axis to `num` samples, and a (x, t) tuple with `t`; not wired up yet (rechunk "
        "`axis` to one chunk and use map_blocks with the routine itself)"
    ),
    "decimate": Unsupported(
        "an IIR filter (sosfiltfilt) or polyphase FIR along `axis`, coupling every chunk, then every q-th "
        "sample; rechunk `axis` to one chunk and use map_blocks"
    ),
    "resample_poly": Unsupported(
        "a polyphase filter along `axis` to ceil(n up / down) samples, coupling neighbouring chunks "
        "(and padtype='mean' etc. read the whole axis); rechunk `axis` to one chunk and use map_blocks"
    ),
}

#: ``name`` -> the chunking class of ``torchbridge.signal.windows.{name}``:
#: windows take sizes and options only, but for ``general_cosine``'s coefficients.
WINDOW_ROWS: dict[str, Chunking] = {
    **{
        name: NoArrays()
        for name in (
            "boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris", "flattop",
            "bartlett", "barthann", "hamming", "kaiser", "kaiser_bessel_derived", "gaussian",
            "general_gaussian", "general_hamming", "chebwin", "cosine", "hann", "exponential", "tukey",
            "taylor", "dpss", "get_window", "lanczos",
        )
    },
    "general_cosine": Unsupported("its coefficients are a handful of numbers: pass them as a numpy array or a list"),
}
