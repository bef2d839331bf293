"""scipy.linalg._decomp_lu: LU factorizations and solves."""

from __future__ import annotations

import warnings

import numpy as np

from .._core import linalg as _legacy
from ._helpers import _batched, _placed, _rhs_core

LinAlgWarning = _legacy.LinAlgWarning

__all__ = ["lu", "lu_factor", "lu_solve"]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False, *, device=None):
    """LU decomposition with partial pivoting, ``a = P @ L @ U`` (``scipy.linalg.lu``).

    Returns ``(P, L, U)``, ``(p, L, U)`` with ``p_indices`` (``a = L[p] @ U``)
    or ``(P @ L, U)`` with ``permute_l``; stacks of matrices are accepted.
    """
    if device is not None:
        return _placed(device, lu, a, permute_l, overwrite_a, check_finite, p_indices)
    return _legacy.lu(a, bool(permute_l), bool(p_indices), bool(check_finite))


def lu_factor(a, overwrite_a=False, check_finite=True, *, device=None):
    """Compact LU factorization for :func:`lu_solve` (``scipy.linalg.lu_factor``).

    Returns ``(lu, piv)`` with LAPACK's 0-based pivot indices (int32). An
    exactly zero pivot warns ``LinAlgWarning`` as SciPy does.
    """
    if device is not None:
        return _placed(device, lu_factor, a, overwrite_a, check_finite)
    batched = _batched("lu_factor", (a, 2))
    lu_, piv, info = _legacy.lu_factor(a, bool(check_finite))
    if info > 0:
        warnings.warn(f"Diagonal number {info} is exactly zero. Singular matrix.", LinAlgWarning, stacklevel=2)
    return [lu_, piv] if batched else (lu_, piv)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True, *, device=None):
    """Solve ``A x = b`` (``trans`` 0), ``A^T x = b`` (1) or ``A^H x = b`` (2)
    from :func:`lu_factor`'s ``(lu, piv)`` (``scipy.linalg.lu_solve``)."""
    if device is not None:
        return _placed(device, lu_solve, lu_and_piv, b, trans, overwrite_b, check_finite)
    lu_, piv = lu_and_piv
    if trans not in (0, 1, 2):
        raise ValueError(f"trans must be 0, 1 or 2, got {trans!r}")
    _batched("lu_solve", (lu_, 2), (piv, 1), (b, _rhs_core(b)))
    if not hasattr(piv, "__dlpack__"):
        piv = np.asarray(piv)
    return _legacy.lu_solve(lu_, piv, b, int(trans), bool(check_finite))
