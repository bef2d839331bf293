"""`scipy.signal._signaltools`: convolution and correlation, the linear filters,
the order filters, ``wiener``, ``deconvolve``, ``detrend``, ``hilbert``, ``hilbert2``,
``resample``, ``resample_poly`` and ``decimate``.

The compiled functions of ``torchbridge._core.signal``; ``torchbridge.signal``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.signal import (
    choose_conv_method,
    convolve,
    convolve2d,
    correlate,
    correlate2d,
    correlation_lags,
    decimate,
    deconvolve,
    detrend,
    fftconvolve,
    filtfilt,
    hilbert,
    hilbert2,
    lfilter,
    lfilter_zi,
    lfiltic,
    medfilt,
    medfilt2d,
    oaconvolve,
    order_filter,
    resample,
    resample_poly,
    sosfilt,
    sosfilt_zi,
    sosfiltfilt,
    wiener,
)

__all__: list[str] = [
    "convolve",
    "correlate",
    "fftconvolve",
    "oaconvolve",
    "convolve2d",
    "correlate2d",
    "choose_conv_method",
    "correlation_lags",
    "filtfilt",
    "lfilter",
    "lfilter_zi",
    "lfiltic",
    "sosfilt",
    "sosfilt_zi",
    "sosfiltfilt",
    "order_filter",
    "medfilt",
    "medfilt2d",
    "wiener",
    "deconvolve",
    "detrend",
    "hilbert",
    "hilbert2",
    "resample",
    "resample_poly",
    "decimate",
]
