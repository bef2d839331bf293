"""scipy.linalg._procrustes: the orthogonal Procrustes problem (compiled, re-exported as it is)."""

from __future__ import annotations

from .._core import linalg as _compiled

orthogonal_procrustes = _compiled.orthogonal_procrustes

__all__ = ["orthogonal_procrustes"]
