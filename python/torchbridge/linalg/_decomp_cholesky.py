"""scipy.linalg._decomp_cholesky: Cholesky factorizations and solves."""

from __future__ import annotations

import numpy as np

from .._core import linalg as _legacy
from ._helpers import _batch, _batched, _placed, _rhs_core, _unsupported

__all__ = ["cholesky", "cho_factor", "cho_solve", "cholesky_banded"]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.


def cholesky(a, lower=False, overwrite_a=False, check_finite=True, *, device=None):
    """Cholesky factor of a Hermitian positive definite matrix
    (``scipy.linalg.cholesky``); only the ``lower`` (or upper) triangle of
    ``a`` is read."""
    if device is not None:
        return _placed(device, cholesky, a, lower, overwrite_a, check_finite)
    _batched("cholesky", (a, 2))
    return _legacy.cholesky(a, bool(lower), True, bool(check_finite))


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True, *, device=None):
    """Cholesky factorization for :func:`cho_solve` (``scipy.linalg.cho_factor``).

    Returns ``(c, lower)``. The triangle of ``c`` that is not the factor
    holds ``a``'s own entries (cast to the result dtype), as LAPACK's
    ``?potrf`` leaves them in SciPy's result.
    """
    if device is not None:
        return _placed(device, cho_factor, a, lower, overwrite_a, check_finite)
    batched = _batched("cho_factor", (a, 2))
    c = _legacy.cholesky(a, bool(lower), False, bool(check_finite))
    if batched:
        return [c, np.full(_batch(a, 2), bool(lower))]
    return c, bool(lower)


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True, *, device=None):
    """Solve ``A x = b`` from :func:`cho_factor`'s ``(c, lower)`` (``scipy.linalg.cho_solve``)."""
    if device is not None:
        return _placed(device, cho_solve, c_and_lower, b, overwrite_b, check_finite)
    c, lower = c_and_lower
    if np.ndim(lower):
        values = np.unique(np.asarray(lower))
        if values.size != 1:
            raise _unsupported("cho_solve", "lower", "<mixed per-matrix flags>")
        lower = values[0]
    _batched("cho_solve", (c, 2), (b, _rhs_core(b)))
    return _legacy.cho_solve(c, bool(lower), b, bool(check_finite))


def cholesky_banded(ab, overwrite_ab=False, lower=False, check_finite=True, *, device=None):
    """Cholesky factor of a banded Hermitian positive definite matrix, in band
    storage (``scipy.linalg.cholesky_banded``)."""
    if device is not None:
        return _placed(device, cholesky_banded, ab, overwrite_ab, lower, check_finite)
    _batched("cholesky_banded", (ab, 2))
    return _legacy.cholesky_banded(ab, bool(lower), bool(check_finite))
