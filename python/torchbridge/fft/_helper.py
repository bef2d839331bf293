"""`scipy.fft._helper`: frequencies, shifts and fast lengths, compiled (``torchbridge._core.fft``)."""

from __future__ import annotations

from .._core.fft import fftfreq, fftshift, ifftshift, next_fast_len, prev_fast_len, rfftfreq

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift", "next_fast_len", "prev_fast_len"]
