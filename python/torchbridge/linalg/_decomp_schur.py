"""scipy.linalg._decomp_schur: the Schur decomposition (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

schur = _compiled.schur
rsf2csf = _compiled.rsf2csf

__all__ = ["schur", "rsf2csf"]
