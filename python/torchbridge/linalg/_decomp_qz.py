"""scipy.linalg._decomp_qz: the QZ (generalized Schur) decomposition (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

qz = _compiled.qz
ordqz = _compiled.ordqz

__all__ = ["qz", "ordqz"]
