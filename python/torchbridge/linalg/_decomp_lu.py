"""scipy.linalg._decomp_lu: LU factorizations and solves (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

lu = _compiled.lu
lu_factor = _compiled.lu_factor
lu_solve = _compiled.lu_solve

__all__ = ["lu", "lu_factor", "lu_solve"]
