"""`scipy.fft._realtransforms`: the cosine and sine transforms, compiled (``torchbridge._core.fft``)."""

from __future__ import annotations

from .._core.fft import dct, dctn, dst, dstn, idct, idctn, idst, idstn

__all__ = ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"]
