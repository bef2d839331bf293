"""scipy.linalg._decomp_ldl: the LDLt (Bunch-Kaufman) factorization (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

ldl = _compiled.ldl

__all__ = ["ldl"]
