"""`scipy.fft._realtransforms`: the cosine and sine transforms.

The compiled functions of ``torchbridge._core.fft``, re-exported as they are
(each is the public routine itself: no Python frame, and it pickles by
reference as ``torchbridge._core.fft.<name>``).
"""

from __future__ import annotations

from .._core.fft import (
    dct,
    dctn,
    dst,
    dstn,
    idct,
    idctn,
    idst,
    idstn,
)

__all__ = [
    "dct",
    "idct",
    "dst",
    "idst",
    "dctn",
    "idctn",
    "dstn",
    "idstn",
]
