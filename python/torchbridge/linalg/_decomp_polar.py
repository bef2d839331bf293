"""scipy.linalg._decomp_polar: the polar decomposition (compiled, re-exported as it is)."""

from __future__ import annotations

from .._core import linalg as _compiled

polar = _compiled.polar

__all__ = ["polar"]
