"""`scipy.fft._realtransforms`: the cosine and sine transforms.

The compiled functions of ``torchbridge._core.fft``, re-exported as they are
(each is the public routine itself: no Python frame, and it pickles by
reference as ``torchbridge._core.fft.<name>``).
"""

from __future__ import annotations

from .._core import fft as _compiled

dct = _compiled.dct
idct = _compiled.idct
dst = _compiled.dst
idst = _compiled.idst
dctn = _compiled.dctn
idctn = _compiled.idctn
dstn = _compiled.dstn
idstn = _compiled.idstn

__all__ = ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"]
