"""`scipy.fft._realtransforms`: the cosine and sine transforms.

The compiled functions of ``torchbridge._core.fft``; ``torchbridge.fft``
gives each its public face (see ``torchbridge._dispatch``).
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
