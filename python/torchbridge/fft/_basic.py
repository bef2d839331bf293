"""`scipy.fft._basic`: the Fourier transforms.

The compiled functions of ``torchbridge._core.fft``, re-exported as they are
(each is the public routine itself: no Python frame, and it pickles by
reference as ``torchbridge._core.fft.<name>``).
"""

from __future__ import annotations

from .._core import fft as _compiled

fft = _compiled.fft
ifft = _compiled.ifft
fft2 = _compiled.fft2
ifft2 = _compiled.ifft2
fftn = _compiled.fftn
ifftn = _compiled.ifftn
rfft = _compiled.rfft
irfft = _compiled.irfft
rfft2 = _compiled.rfft2
irfft2 = _compiled.irfft2
rfftn = _compiled.rfftn
irfftn = _compiled.irfftn
hfft = _compiled.hfft
ihfft = _compiled.ihfft
hfft2 = _compiled.hfft2
ihfft2 = _compiled.ihfft2
hfftn = _compiled.hfftn
ihfftn = _compiled.ihfftn

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn"]
