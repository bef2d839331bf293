"""`scipy.signal._signaltools`: convolution and correlation, the linear filters.

The compiled functions of ``torchbridge._core.signal``; ``torchbridge.signal``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.signal import (
    filtfilt,
    lfilter,
    lfilter_zi,
    lfiltic,
    sosfilt,
    sosfilt_zi,
    sosfiltfilt,
)

__all__: list[str] = [
    "filtfilt",
    "lfilter",
    "lfilter_zi",
    "lfiltic",
    "sosfilt",
    "sosfilt_zi",
    "sosfiltfilt",
]
