"""scipy.linalg._decomp_svd: the singular value decomposition and its composites."""

from __future__ import annotations

from .._core import linalg as _legacy
from ._helpers import _batched, _check_driver, _placed

diagsvd = _legacy.diagsvd

__all__ = ["diagsvd", "svd", "svdvals", "null_space", "orth", "subspace_angles"]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.


def svd(
    a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True, lapack_driver="gesdd", *, device=None
):
    """Singular value decomposition ``a = U @ diag(s) @ Vh`` (``scipy.linalg.svd``).

    ``lapack_driver`` ``'gesdd'`` or ``'gesvd'`` (both compute the same
    decomposition; libtorch picks its own driver).
    """
    if device is not None:
        return _placed(device, svd, a, full_matrices, compute_uv, overwrite_a, check_finite, lapack_driver)
    _check_driver("svd", lapack_driver)
    batched = _batched("svd", (a, 2))
    result = _legacy.svd(a, bool(full_matrices), bool(compute_uv), bool(check_finite))
    if compute_uv and batched:
        return list(result)
    return result


def svdvals(a, overwrite_a=False, check_finite=True, *, device=None):
    """Singular values, descending (``scipy.linalg.svdvals``)."""
    if device is not None:
        return _placed(device, svdvals, a, overwrite_a, check_finite)
    return svd(a, compute_uv=False, check_finite=check_finite)


def null_space(A, rcond=None, *, overwrite_a=False, check_finite=True, lapack_driver="gesdd", device=None):
    """Orthonormal basis of the null space (``scipy.linalg.null_space``)."""
    if device is not None:
        return _placed(
            device,
            null_space,
            A,
            rcond,
            overwrite_a=overwrite_a,
            check_finite=check_finite,
            lapack_driver=lapack_driver,
        )
    _check_driver("null_space", lapack_driver)
    _batched("null_space", (A, 2))
    return _legacy.null_space(A, None if rcond is None else float(rcond), bool(check_finite))


def orth(A, rcond=None, *, device=None):
    """Orthonormal basis of the range (``scipy.linalg.orth``)."""
    if device is not None:
        return _placed(device, orth, A, rcond)
    _batched("orth", (A, 2))
    return _legacy.orth(A, None if rcond is None else float(rcond))


def subspace_angles(A, B, *, device=None):
    """Principal angles between two column spaces, descending (``scipy.linalg.subspace_angles``)."""
    if device is not None:
        return _placed(device, subspace_angles, A, B)
    _batched("subspace_angles", (A, 2), (B, 2))
    return _legacy.subspace_angles(A, B)
