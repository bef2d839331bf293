"""scipy.linalg._procrustes: the orthogonal Procrustes problem."""

from __future__ import annotations

from .._core import linalg as _legacy
from ._helpers import _batched, _placed

__all__ = ["orthogonal_procrustes"]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.


def orthogonal_procrustes(A, B, check_finite=True, *, device=None):
    """The unitary ``R`` minimizing ``||A @ R - B||_F`` and the sum of the
    singular values of ``A^H B`` (``scipy.linalg.orthogonal_procrustes``)."""
    if device is not None:
        return _placed(device, orthogonal_procrustes, A, B, check_finite)
    batched = _batched("orthogonal_procrustes", (A, 2), (B, 2))
    result = _legacy.orthogonal_procrustes(A, B, bool(check_finite))
    return list(result) if batched else result
