"""`scipy.fft._helper`: frequencies, shifts and fast lengths.

The compiled functions of ``torchbridge._core.fft``, re-exported as they are
(each is the public routine itself: no Python frame, and it pickles by
reference as ``torchbridge._core.fft.<name>``).
"""

from __future__ import annotations

from .._core.fft import (
    fftfreq,
    fftshift,
    ifftshift,
    next_fast_len,
    prev_fast_len,
    rfftfreq,
)

__all__ = [
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
    "next_fast_len",
    "prev_fast_len",
]
