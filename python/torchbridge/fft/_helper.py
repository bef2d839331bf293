"""`scipy.fft._helper`: frequencies, shifts and fast lengths.

The compiled functions of ``torchbridge._core.fft``; ``torchbridge.fft``
gives each its public face (see ``torchbridge._dispatch``).
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
