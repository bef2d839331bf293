"""The chunking table's ``signal`` rows (see :mod:`._table`), and those of
its own family ``signal.windows``."""

from __future__ import annotations

from ._chunking import AlongAxis, Chunking, Elementwise, NoArrays, Unsupported

_FILTER = Unsupported(
    "a recurrence along `axis`: every output depends on all earlier samples, and with `zi` "
    "the result is a (y, zf) tuple; chunking along the other axes is not wired up yet "
    "(rechunk `axis` to one chunk and use map_blocks with the routine itself)"
)
_COEFFICIENTS = Unsupported("works on filter coefficients (a few numbers): pass numpy or torch arrays")

# A convolution couples neighbouring chunks: its dask path is the stencil class (``map_overlap`` with
# the kernel's depth) for a small in-memory kernel, which is not built yet.
_STENCIL = "a convolution couples neighbouring chunks; its map_overlap path (the stencil class) is not built yet"

_NEIGHBOURHOOD = (
    "every output reads a window of its neighbours, which couples neighbouring chunks; its map_overlap "
    "path (the stencil class) is not built yet"
)
_SPECTRAL = (
    "segments overlap across chunk borders along `axis`, and the result is a tuple (frequencies, "
    "[times,] spectra) of other shapes; not wired up yet (rechunk `axis` to one chunk and use "
    "map_blocks with the routine itself)"
)

#: ``name`` -> the chunking class of ``torchbridge.signal.{name}``.
ROWS: dict[str, Chunking] = {
    **{
        name: Unsupported(_STENCIL)
        for name in ("convolve", "correlate", "fftconvolve", "oaconvolve", "convolve2d", "correlate2d")
    },
    "choose_conv_method": Unsupported("its choice reads the data (the integer range), which would compute the graph"),
    "correlation_lags": NoArrays(),
    "lfilter": _FILTER,
    "sosfilt": _FILTER,
    "filtfilt": _FILTER,
    "sosfiltfilt": _FILTER,
    "lfilter_zi": _COEFFICIENTS,
    "sosfilt_zi": _COEFFICIENTS,
    "lfiltic": _COEFFICIENTS,
    # the order filters and wiener: stencils (a window around every sample, zero-padded at the edges)
    **{name: Unsupported(_NEIGHBOURHOOD) for name in ("order_filter", "medfilt", "medfilt2d")},
    "wiener": Unsupported(
        _NEIGHBOURHOOD + "; and its default noise is the mean local variance over the whole array"
    ),
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
    "savgol_filter": Unsupported(
        _NEIGHBOURHOOD + "; mode='interp' fits polynomials to the samples at either end of the axis"
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
