"""`scipy.fft._helper`: frequencies, shifts and fast lengths.

The compiled functions of ``torchbridge._core.fft``, re-exported as they are
(each is the public routine itself: no Python frame, and it pickles by
reference as ``torchbridge._core.fft.<name>``).
"""

from __future__ import annotations

from .._core import fft as _compiled

fftfreq = _compiled.fftfreq
rfftfreq = _compiled.rfftfreq
fftshift = _compiled.fftshift
ifftshift = _compiled.ifftshift
next_fast_len = _compiled.next_fast_len
prev_fast_len = _compiled.prev_fast_len

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift", "next_fast_len", "prev_fast_len"]
