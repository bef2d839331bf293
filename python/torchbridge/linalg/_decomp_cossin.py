"""scipy.linalg._decomp_cossin: the cosine-sine decomposition (compiled, re-exported as it is)."""

from __future__ import annotations

from .._core import linalg as _compiled

cossin = _compiled.cossin

__all__ = ["cossin"]
