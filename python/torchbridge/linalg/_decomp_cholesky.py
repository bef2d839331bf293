"""scipy.linalg._decomp_cholesky: Cholesky factorizations and solves (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

cholesky = _compiled.cholesky
cho_factor = _compiled.cho_factor
cho_solve = _compiled.cho_solve
cholesky_banded = _compiled.cholesky_banded
cho_solve_banded = _compiled.cho_solve_banded

__all__ = ["cholesky", "cho_factor", "cho_solve", "cholesky_banded", "cho_solve_banded"]
