"""scipy.linalg._basic: linear systems, inverse, determinant, least squares, pseudo-inverses, balancing."""

from __future__ import annotations

import operator

from .._core import linalg as _legacy
from ._helpers import _batched, _placed, _rhs_core, _shape, _unsupported, _warn_ill_conditioned

__all__ = [
    "solve",
    "solve_triangular",
    "inv",
    "det",
    "lstsq",
    "pinv",
    "pinvh",
    "solve_banded",
    "solveh_banded",
    "solve_toeplitz",
    "matmul_toeplitz",
    "solve_circulant",
    "matrix_balance",
]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.
_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}

_INV_STRUCTURES = {None, "general", "gen", "diagonal", "upper triangular", "lower triangular", "pos", "sym", "her"}


def solve(
    a,
    b,
    lower=False,
    overwrite_a=False,
    overwrite_b=False,
    check_finite=True,
    assume_a=None,
    transposed=False,
    *,
    device=None,
):
    """Solve ``a @ x = b`` for square ``a`` (``scipy.linalg.solve``).

    ``assume_a``: ``None`` (general), ``'general'``/``'gen'`` (LU),
    ``'diagonal'``, ``'tridiagonal'`` (only the three central diagonals are
    read), ``'banded'``, ``'upper triangular'``, ``'lower triangular'``,
    ``'symmetric'``/``'sym'`` and ``'hermitian'``/``'her'`` (Bunch-Kaufman
    LDL, one triangle read), ``'positive definite'``/``'pos'`` (Cholesky, one
    triangle read). ``a`` is ``(..., N, N)``; ``b`` is ``(N,)`` (broadcast to
    every matrix) or ``(..., N, K)``. Exactly singular input raises
    ``LinAlgError``; an estimated reciprocal condition number below the
    dtype's eps warns ``LinAlgWarning``. Unlike SciPy, ``'banded'`` also
    accepts batches.
    """
    if device is not None:
        return _placed(device, solve, a, b, lower, overwrite_a, overwrite_b, check_finite, assume_a, transposed)
    x, rcond = _legacy.solve(a, b, bool(lower), assume_a, bool(transposed), bool(check_finite))
    _warn_ill_conditioned(rcond, x)
    return x


def solve_triangular(
    a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True, *, device=None
):
    """Solve ``a x = b`` with triangular ``a`` (``scipy.linalg.solve_triangular``).

    ``trans``: 0/'N' (``a x = b``), 1/'T' (``a^T x = b``), 2/'C' (``a^H x = b``).
    Only the ``lower`` (or upper) triangle is read; ``unit_diagonal`` takes
    the diagonal as ones. A zero on the diagonal raises ``LinAlgError``.
    """
    if device is not None:
        return _placed(device, solve_triangular, a, b, trans, lower, unit_diagonal, overwrite_b, check_finite)
    _batched("solve_triangular", (a, 2), (b, _rhs_core(b)))
    try:
        t = _TRANS[trans]
    except (KeyError, TypeError):
        raise ValueError(f"trans must be one of 0, 1, 2, 'N', 'T', 'C'; got {trans!r}") from None
    return _legacy.solve_triangular(a, b, t, bool(lower), bool(unit_diagonal), bool(check_finite))


def inv(a, overwrite_a=False, check_finite=True, *, assume_a=None, lower=False, device=None):
    """The inverse of square matrices ``(..., N, N)`` (``scipy.linalg.inv``).

    ``assume_a`` as SciPy's: ``None``/``'general'``/``'gen'``, ``'diagonal'``,
    ``'upper triangular'``, ``'lower triangular'``, ``'pos'`` (Cholesky),
    ``'sym'``, ``'her'`` (``lower`` picks the triangle read by the last three).
    """
    if device is not None:
        return _placed(device, inv, a, overwrite_a, check_finite, assume_a=assume_a, lower=lower)
    if assume_a not in _INV_STRUCTURES:
        raise KeyError(assume_a)
    x, rcond = _legacy.inv(a, assume_a, bool(lower), bool(check_finite))
    _warn_ill_conditioned(rcond, x)
    return x


def det(a, overwrite_a=False, check_finite=True, *, device=None):
    """Determinant of square matrices ``(..., N, N)`` (``scipy.linalg.det``).

    float64 (complex128 for complex input) always, a numpy scalar for one
    numpy matrix, as SciPy returns it.
    """
    if device is not None:
        return _placed(device, det, a, overwrite_a, check_finite)
    return _legacy.det(a, bool(check_finite))


def lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True, lapack_driver=None, *, device=None):
    """Least-squares solution of ``a @ x = b`` (``scipy.linalg.lstsq``).

    Returns ``(x, residues, rank, s)``. ``lapack_driver``: ``None`` (gelsd),
    ``'gelsd'``, ``'gelss'``, ``'gelsy'`` (``s`` is then ``None``); on CUDA an
    SVD composite computes what gelsd computes.
    """
    if device is not None:
        return _placed(device, lstsq, a, b, cond, overwrite_a, overwrite_b, check_finite, lapack_driver)
    driver = "gelsd" if lapack_driver is None else lapack_driver
    if driver not in ("gelsd", "gelsy", "gelss"):
        raise ValueError(f'LAPACK driver "{driver}" is not found')
    batched = _batched("lstsq", (a, 2), (b, _rhs_core(b)))
    if len(_shape(a)) != 2 and not batched:
        raise ValueError("Input array a should be 2D")
    x, residues, rank, s = _legacy.lstsq(a, b, None if cond is None else float(cond), driver, bool(check_finite))
    if batched:
        return [x, residues, rank, s]
    return x, residues, int(rank), s


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True, device=None):
    """Moore-Penrose pseudo-inverse (``scipy.linalg.pinv``), from the SVD;
    singular values at or below ``atol + rtol * max(s)`` are dropped."""
    if device is not None:
        return _placed(device, pinv, a, atol=atol, rtol=rtol, return_rank=return_rank, check_finite=check_finite)
    batched = _batched("pinv", (a, 2))
    b, rank = _legacy.pinv(
        a, None if atol is None else float(atol), None if rtol is None else float(rtol), bool(check_finite)
    )
    if not return_rank:
        return b
    return [b, rank] if batched else (b, rank)


def pinvh(a, atol=None, rtol=None, lower=True, return_rank=False, check_finite=True, *, device=None):
    """Pseudo-inverse of a Hermitian matrix (``scipy.linalg.pinvh``), from its
    eigendecomposition (``lower`` or upper triangle read)."""
    if device is not None:
        return _placed(device, pinvh, a, atol, rtol, lower, return_rank, check_finite)
    batched = _batched("pinvh", (a, 2))
    b, rank = _legacy.pinvh(
        a, None if atol is None else float(atol), None if rtol is None else float(rtol), bool(lower), bool(check_finite)
    )
    if not return_rank:
        return b
    return [b, rank] if batched else (b, int(rank))


def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True, *, device=None):
    """Solve ``A x = b`` for banded ``A`` in LAPACK band storage
    (``scipy.linalg.solve_banded``); the band is expanded to a dense LU solve."""
    if device is not None:
        return _placed(device, solve_banded, l_and_u, ab, b, overwrite_ab, overwrite_b, check_finite)
    nlower, nupper = l_and_u
    _batched("solve_banded", (ab, 2), (b, _rhs_core(b)))
    return _legacy.solve_banded(operator.index(nlower), operator.index(nupper), ab, b, bool(check_finite))


def solveh_banded(ab, b, overwrite_ab=False, overwrite_b=False, lower=False, check_finite=True, *, device=None):
    """Solve ``A x = b`` for Hermitian positive definite banded ``A``
    (``scipy.linalg.solveh_banded``)."""
    if device is not None:
        return _placed(device, solveh_banded, ab, b, overwrite_ab, overwrite_b, lower, check_finite)
    _batched("solveh_banded", (ab, 2), (b, _rhs_core(b)))
    return _legacy.solveh_banded(ab, b, bool(lower), bool(check_finite))


def _c_and_r(c_or_cr):
    if isinstance(c_or_cr, tuple):
        return c_or_cr
    return c_or_cr, None


def solve_toeplitz(c_or_cr, b, check_finite=True, *, device=None):
    """Solve ``T x = b`` for Toeplitz ``T`` given its first column (and row)
    (``scipy.linalg.solve_toeplitz``); dense LU instead of Levinson recursion."""
    if device is not None:
        return _placed(device, solve_toeplitz, c_or_cr, b, check_finite)
    c, r = _c_and_r(c_or_cr)
    _batched("solve_toeplitz", (c, 1), (r, 1), (b, _rhs_core(b)))
    return _legacy.solve_toeplitz(c, r, b, bool(check_finite))


def matmul_toeplitz(c_or_cr, x, check_finite=False, workers=None, *, device=None):
    """``T @ x`` for Toeplitz ``T`` by FFT (``scipy.linalg.matmul_toeplitz``;
    ``workers`` is a hint, libtorch picks its threads)."""
    if device is not None:
        return _placed(device, matmul_toeplitz, c_or_cr, x, check_finite, workers)
    c, r = _c_and_r(c_or_cr)
    _batched("matmul_toeplitz", (c, 1), (r, 1), (x, _rhs_core(x)))
    return _legacy.matmul_toeplitz(c, r, x, bool(check_finite))


def solve_circulant(c, b, singular="raise", tol=None, caxis=-1, baxis=0, outaxis=0, *, device=None):
    """Solve ``C x = b`` for circulant ``C`` by FFT (``scipy.linalg.solve_circulant``)."""
    if device is not None:
        return _placed(device, solve_circulant, c, b, singular, tol, caxis, baxis, outaxis)
    return _legacy.solve_circulant(
        c,
        b,
        singular != "raise",
        None if tol is None else float(tol),
        operator.index(caxis),
        operator.index(baxis),
        operator.index(outaxis),
    )


def matrix_balance(A, permute=True, scale=True, separate=False, overwrite_a=False, *, device=None):
    """Balance a square matrix (``scipy.linalg.matrix_balance``): LAPACK's
    ``?gebal`` (3.12) ported, run on the host (libtorch has no kernel for
    it). Returns ``(B, T)`` or ``(B, (scaling, perm))`` with ``separate``.
    A stack of matrices is not implemented."""
    if device is not None:
        return _placed(device, matrix_balance, A, permute, scale, separate, overwrite_a)
    if len(_shape(A)) > 2:
        raise _unsupported("matrix_balance", "A", "<a stack of matrices>")
    b, t, scaling, perm = _legacy.matrix_balance(A, bool(permute), bool(scale))
    if separate:
        return b, (scaling, perm)
    return b, t
