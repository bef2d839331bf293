"""SciPy-compatible `scipy.linalg` routines, computed by libtorch.

Swap ``from scipy import linalg`` for ``from torchbridge import linalg``: same
names, same parameters and defaults, same return structures, results in the
caller's array type and on its device. For numpy input the dtype, shape and
type (array, numpy scalar, Python int, tuple or list) match SciPy 1.17's.

Shared conventions (each function's docstring adds its own):

- ``overwrite_a``/``overwrite_b``/``overwrite_ab`` and ``lwork`` are
  performance hints: accepted, never change the result (torchbridge never
  writes into an input).
- ``check_finite=True`` raises ``ValueError`` on NaN or infinity as SciPy
  does; ``check_finite=False`` skips the check (a hint, as in SciPy).
- Singular or not positive definite input raises
  :class:`numpy.linalg.LinAlgError` (SciPy's ``LinAlgError``); an
  ill-conditioned one warns :class:`LinAlgWarning`.
- Batched (stacked) input is accepted where SciPy 1.17 accepts it; where
  SciPy then returns a ``list`` instead of a ``tuple`` (its
  ``_apply_over_batch`` decorator), so does torchbridge.
- Eigenvector and singular-vector signs (phases) are not unique; they may
  differ from SciPy's, the decompositions they form do not.

Every routine that takes arrays also takes a keyword-only ``device=None``:
where to compute, with the copies that costs (see :mod:`torchbridge._device`);
by default the computation runs where the arrays live, CUDA included.
"""

from __future__ import annotations

import math
import operator
import warnings

import numpy as np

from . import _device
from ._core import linalg as _linalg

#: The exception SciPy raises for singular matrices (``numpy.linalg.LinAlgError``).
LinAlgError = np.linalg.LinAlgError


class LinAlgWarning(RuntimeWarning):
    """Warned for ill-conditioned input (SciPy's ``scipy.linalg.LinAlgWarning``)."""


__all__ = [
    "solve",
    "solve_triangular",
    "inv",
    "det",
    "eigh",
    "eigvalsh",
    "eig",
    "eigvals",
    "svd",
    "svdvals",
    "cholesky",
    "cho_factor",
    "cho_solve",
    "lu",
    "lu_factor",
    "lu_solve",
    "qr",
    "rq",
    "lstsq",
    "pinv",
    "pinvh",
    "norm",
    "expm",
    "expm_frechet",
    "cosm",
    "sinm",
    "tanm",
    "coshm",
    "sinhm",
    "tanhm",
    "null_space",
    "orth",
    "polar",
    "subspace_angles",
    "orthogonal_procrustes",
    "block_diag",
    "toeplitz",
    "circulant",
    "hankel",
    "khatri_rao",
    "companion",
    "fiedler",
    "leslie",
    "diagsvd",
    "convolution_matrix",
    "hilbert",
    "invhilbert",
    "helmert",
    "dft",
    "hadamard",
    "pascal",
    "invpascal",
    "bandwidth",
    "issymmetric",
    "ishermitian",
    "solve_banded",
    "solveh_banded",
    "cholesky_banded",
    "eigh_tridiagonal",
    "eigvalsh_tridiagonal",
    "solve_toeplitz",
    "matmul_toeplitz",
    "solve_circulant",
    "matrix_balance",
]


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _shape(x) -> tuple[int, ...]:
    shape = getattr(x, "shape", None)
    if shape is None:
        shape = np.shape(x)
    return tuple(int(s) for s in shape)


def _batch(x, core: int) -> tuple[int, ...]:
    """The batch shape of ``x`` around ``core`` trailing dimensions (``()`` for None)."""
    if x is None:
        return ()
    shape = _shape(x)
    return shape[: max(len(shape) - core, 0)]


def _batched(name: str, *args: tuple[object, int]) -> bool:
    """Whether SciPy's ``_apply_over_batch`` would batch this call; raises its
    ValueError for zero-size batches."""
    batches = [_batch(x, core) for x, core in args]
    if not any(batches):
        return False
    shape = np.broadcast_shapes(*batches)
    if math.prod(shape) == 0:
        raise ValueError(f"`{name}` does not support zero-size batches.")
    return True


def _rhs_core(b) -> int:
    """SciPy's ``'1|2'`` core dimensions of a right-hand side."""
    return 2 if len(_shape(b)) >= 2 else 1


def _is_single(x) -> bool:
    name = str(getattr(x, "dtype", ""))
    return name.endswith("float32") or name.endswith("complex64")


def _warn_ill_conditioned(rcond: float, x) -> None:
    eps = float(np.finfo(np.float32).eps) if _is_single(x) else float(np.finfo(np.float64).eps)
    if not rcond >= eps:  # NaN warns too
        warnings.warn(
            f"An ill-conditioned matrix detected: rcond = {rcond:.6g}: result may not be accurate.",
            LinAlgWarning,
            stacklevel=3,
        )


def _unsupported(routine: str, parameter: str, value) -> NotImplementedError:
    from .errors import UnsupportedParameterError

    return UnsupportedParameterError(f"linalg.{routine}: {parameter}={value!r} is not supported")


def _check_driver(routine: str, lapack_driver) -> None:
    if not isinstance(lapack_driver, str):
        raise TypeError("lapack_driver must be a string")
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f'lapack_driver must be "gesdd" or "gesvd", not "{lapack_driver}"')


# ---------------------------------------------------------------------------
# Linear systems
# ---------------------------------------------------------------------------


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True, assume_a=None,
          transposed=False):
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
    x, rcond = _linalg.solve(a, b, bool(lower), assume_a, bool(transposed), bool(check_finite))
    _warn_ill_conditioned(rcond, x)
    return x


_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
    """Solve ``a x = b`` with triangular ``a`` (``scipy.linalg.solve_triangular``).

    ``trans``: 0/'N' (``a x = b``), 1/'T' (``a^T x = b``), 2/'C' (``a^H x = b``).
    Only the ``lower`` (or upper) triangle is read; ``unit_diagonal`` takes
    the diagonal as ones. A zero on the diagonal raises ``LinAlgError``.
    """
    _batched("solve_triangular", (a, 2), (b, _rhs_core(b)))
    try:
        t = _TRANS[trans]
    except (KeyError, TypeError):
        raise ValueError(f"trans must be one of 0, 1, 2, 'N', 'T', 'C'; got {trans!r}") from None
    return _linalg.solve_triangular(a, b, t, bool(lower), bool(unit_diagonal), bool(check_finite))


_INV_STRUCTURES = {None, "general", "gen", "diagonal", "upper triangular", "lower triangular", "pos", "sym", "her"}


def inv(a, overwrite_a=False, check_finite=True, *, assume_a=None, lower=False):
    """The inverse of square matrices ``(..., N, N)`` (``scipy.linalg.inv``).

    ``assume_a`` as SciPy's: ``None``/``'general'``/``'gen'``, ``'diagonal'``,
    ``'upper triangular'``, ``'lower triangular'``, ``'pos'`` (Cholesky),
    ``'sym'``, ``'her'`` (``lower`` picks the triangle read by the last three).
    """
    if assume_a not in _INV_STRUCTURES:
        raise KeyError(assume_a)
    x, rcond = _linalg.inv(a, assume_a, bool(lower), bool(check_finite))
    _warn_ill_conditioned(rcond, x)
    return x


def det(a, overwrite_a=False, check_finite=True):
    """Determinant of square matrices ``(..., N, N)`` (``scipy.linalg.det``).

    float64 (complex128 for complex input) always, a numpy scalar for one
    numpy matrix, as SciPy returns it.
    """
    return _linalg.det(a, bool(check_finite))


def lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True, lapack_driver=None):
    """Least-squares solution of ``a @ x = b`` (``scipy.linalg.lstsq``).

    Returns ``(x, residues, rank, s)``. ``lapack_driver``: ``None`` (gelsd),
    ``'gelsd'``, ``'gelss'``, ``'gelsy'`` (``s`` is then ``None``); on CUDA an
    SVD composite computes what gelsd computes.
    """
    driver = "gelsd" if lapack_driver is None else lapack_driver
    if driver not in ("gelsd", "gelsy", "gelss"):
        raise ValueError(f'LAPACK driver "{driver}" is not found')
    batched = _batched("lstsq", (a, 2), (b, _rhs_core(b)))
    if len(_shape(a)) != 2 and not batched:
        raise ValueError("Input array a should be 2D")
    x, residues, rank, s = _linalg.lstsq(a, b, None if cond is None else float(cond), driver,
                                         bool(check_finite))
    if batched:
        return [x, residues, rank, s]
    return x, residues, int(rank), s


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    """Moore-Penrose pseudo-inverse (``scipy.linalg.pinv``), from the SVD;
    singular values at or below ``atol + rtol * max(s)`` are dropped."""
    batched = _batched("pinv", (a, 2))
    b, rank = _linalg.pinv(a, None if atol is None else float(atol), None if rtol is None else float(rtol),
                           bool(check_finite))
    if not return_rank:
        return b
    return [b, rank] if batched else (b, rank)


def pinvh(a, atol=None, rtol=None, lower=True, return_rank=False, check_finite=True):
    """Pseudo-inverse of a Hermitian matrix (``scipy.linalg.pinvh``), from its
    eigendecomposition (``lower`` or upper triangle read)."""
    batched = _batched("pinvh", (a, 2))
    b, rank = _linalg.pinvh(a, None if atol is None else float(atol), None if rtol is None else float(rtol),
                            bool(lower), bool(check_finite))
    if not return_rank:
        return b
    return [b, rank] if batched else (b, int(rank))


# ---------------------------------------------------------------------------
# Eigenvalue problems
# ---------------------------------------------------------------------------

_EIGH_DRIVERS = [None, "ev", "evd", "evr", "evx", "gv", "gvd", "gvx"]


def _eigh_checks(b, type, subset_by_index, subset_by_value, driver):
    if driver not in _EIGH_DRIVERS:
        raise ValueError('"{}" is unknown. Possible values are "None", "{}".'.format(
            driver, '", "'.join(_EIGH_DRIVERS[1:])))
    if b is not None and type not in (1, 2, 3):
        raise ValueError('"type" keyword only accepts 1, 2, and 3.')
    subset = subset_by_index is not None or subset_by_value is not None
    if subset_by_index and subset_by_value:
        raise ValueError("Either index or value subset can be requested.")
    index = None
    if subset_by_index:
        index = tuple(int(x) for x in subset_by_index)
    value = None
    if subset_by_value:
        lo, hi = subset_by_value
        lo, hi = float(lo), float(hi)
        if not (-math.inf <= lo < hi <= math.inf):
            raise ValueError("Requested eigenvalue bounds are not valid. Valid range is (-inf, inf) and low < high, "
                             f"but low={lo}, high={hi} is given")
        value = (lo, hi)
    if driver:
        if b is None and driver in ("gv", "gvd", "gvx"):
            raise ValueError(f"{driver} requires input b array to be supplied for generalized eigenvalue problems.")
        if b is not None and driver in ("ev", "evd", "evr", "evx"):
            raise ValueError(f'"{driver}" does not accept input b array for standard eigenvalue problems.')
        if subset and driver in ("ev", "evd", "gv", "gvd"):
            raise ValueError(f'"{driver}" cannot compute subsets of eigenvalues')
    return index, value


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False, type=1,
         check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, or of the
    generalized problem with Hermitian positive definite ``b``
    (``scipy.linalg.eigh``).

    ``type`` 1, 2, 3 as SciPy's; the generalized problem is reduced with
    ``b``'s Cholesky factor as LAPACK's ``?sygvd`` does. ``driver`` names a
    LAPACK driver: all compute the same decomposition, so any valid one is
    accepted (libtorch picks its own). ``subset_by_index``/``subset_by_value``
    select from the full decomposition (values in ``(lo, hi]``).
    """
    index, value = _eigh_checks(b, type, subset_by_index, subset_by_value, driver)
    batched = _batched("eigh", (a, 2), (b, 2))
    result = _linalg.eigh(a, b, bool(lower), bool(eigvals_only), int(type), index, value, bool(check_finite))
    if eigvals_only:
        return result
    return list(result) if batched else result


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1, check_finite=True,
             subset_by_index=None, subset_by_value=None, driver=None):
    """Eigenvalues of Hermitian matrices (``scipy.linalg.eigvalsh``); see :func:`eigh`."""
    return eigh(a, b=b, lower=lower, eigvals_only=True, type=type, check_finite=check_finite,
                subset_by_index=subset_by_index, subset_by_value=subset_by_value, driver=driver)


def eig(a, b=None, left=False, right=True, overwrite_a=False, overwrite_b=False, check_finite=True,
        homogeneous_eigvals=False):
    """Eigenvalues and left/right eigenvectors of general square matrices
    (``scipy.linalg.eig``).

    Eigenvalues are complex; for real input whose eigenvalues are all real the
    eigenvectors are real, as SciPy returns them. Left eigenvectors come from
    the inverse of the right ones (not for defective matrices). The
    generalized problem (``b`` given) is not implemented: libtorch has no
    ``?ggev``.
    """
    if b is not None:
        raise _unsupported("eig", "b", "<array> (generalized eigenproblem)")
    batched = _batched("eig", (a, 2))
    result = _linalg.eig(a, bool(left), bool(right), bool(homogeneous_eigvals), bool(check_finite))
    if isinstance(result, tuple) and batched:
        return list(result)
    return result


def eigvals(a, b=None, overwrite_a=False, check_finite=True, homogeneous_eigvals=False):
    """Eigenvalues of general square matrices (``scipy.linalg.eigvals``)."""
    if b is not None:
        raise _unsupported("eigvals", "b", "<array> (generalized eigenproblem)")
    return eig(a, left=False, right=False, check_finite=check_finite, homogeneous_eigvals=homogeneous_eigvals)


# ---------------------------------------------------------------------------
# Decompositions
# ---------------------------------------------------------------------------


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    """Singular value decomposition ``a = U @ diag(s) @ Vh`` (``scipy.linalg.svd``).

    ``lapack_driver`` ``'gesdd'`` or ``'gesvd'`` (both compute the same
    decomposition; libtorch picks its own driver).
    """
    _check_driver("svd", lapack_driver)
    batched = _batched("svd", (a, 2))
    result = _linalg.svd(a, bool(full_matrices), bool(compute_uv), bool(check_finite))
    if compute_uv and batched:
        return list(result)
    return result


def svdvals(a, overwrite_a=False, check_finite=True):
    """Singular values, descending (``scipy.linalg.svdvals``)."""
    return svd(a, compute_uv=False, check_finite=check_finite)


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """Cholesky factor of a Hermitian positive definite matrix
    (``scipy.linalg.cholesky``); only the ``lower`` (or upper) triangle of
    ``a`` is read."""
    _batched("cholesky", (a, 2))
    return _linalg.cholesky(a, bool(lower), True, bool(check_finite))


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """Cholesky factorization for :func:`cho_solve` (``scipy.linalg.cho_factor``).

    Returns ``(c, lower)``. The triangle of ``c`` that is not the factor
    holds ``a``'s own entries (cast to the result dtype), as LAPACK's
    ``?potrf`` leaves them in SciPy's result.
    """
    batched = _batched("cho_factor", (a, 2))
    c = _linalg.cholesky(a, bool(lower), False, bool(check_finite))
    if batched:
        return [c, np.full(_batch(a, 2), bool(lower))]
    return c, bool(lower)


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve ``A x = b`` from :func:`cho_factor`'s ``(c, lower)`` (``scipy.linalg.cho_solve``)."""
    c, lower = c_and_lower
    if np.ndim(lower):
        values = np.unique(np.asarray(lower))
        if values.size != 1:
            raise _unsupported("cho_solve", "lower", "<mixed per-matrix flags>")
        lower = values[0]
    _batched("cho_solve", (c, 2), (b, _rhs_core(b)))
    return _linalg.cho_solve(c, bool(lower), b, bool(check_finite))


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """LU decomposition with partial pivoting, ``a = P @ L @ U`` (``scipy.linalg.lu``).

    Returns ``(P, L, U)``, ``(p, L, U)`` with ``p_indices`` (``a = L[p] @ U``)
    or ``(P @ L, U)`` with ``permute_l``; stacks of matrices are accepted.
    """
    return _linalg.lu(a, bool(permute_l), bool(p_indices), bool(check_finite))


def lu_factor(a, overwrite_a=False, check_finite=True):
    """Compact LU factorization for :func:`lu_solve` (``scipy.linalg.lu_factor``).

    Returns ``(lu, piv)`` with LAPACK's 0-based pivot indices (int32). An
    exactly zero pivot warns ``LinAlgWarning`` as SciPy does.
    """
    batched = _batched("lu_factor", (a, 2))
    lu_, piv, info = _linalg.lu_factor(a, bool(check_finite))
    if info > 0:
        warnings.warn(f"Diagonal number {info} is exactly zero. Singular matrix.", LinAlgWarning, stacklevel=2)
    return [lu_, piv] if batched else (lu_, piv)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """Solve ``A x = b`` (``trans`` 0), ``A^T x = b`` (1) or ``A^H x = b`` (2)
    from :func:`lu_factor`'s ``(lu, piv)`` (``scipy.linalg.lu_solve``)."""
    lu_, piv = lu_and_piv
    if trans not in (0, 1, 2):
        raise ValueError(f"trans must be 0, 1 or 2, got {trans!r}")
    _batched("lu_solve", (lu_, 2), (piv, 1), (b, _rhs_core(b)))
    if not hasattr(piv, "__dlpack__"):
        piv = np.asarray(piv)
    return _linalg.lu_solve(lu_, piv, b, int(trans), bool(check_finite))


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False, check_finite=True):
    """QR decomposition ``a = Q @ R`` (``scipy.linalg.qr``).

    ``mode``: ``'full'`` (``(Q, R)``), ``'economic'``, ``'r'`` (``(R,)``, a
    1-tuple as SciPy returns it; ``R`` alone for a batch) or ``'raw'``
    (``((qr, tau), R)`` in LAPACK's ``?geqrf`` format). Column pivoting
    (``pivoting=True``) is not implemented: libtorch has no ``?geqp3``.
    """
    if mode not in ("full", "qr", "r", "economic", "raw"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic', 'raw']")
    if pivoting:
        raise _unsupported("qr", "pivoting", pivoting)
    batched = _batched("qr", (a, 2))
    if batched and mode == "raw":
        raise _unsupported("qr", "mode", "raw (with a batch of matrices)")
    parts = _linalg.qr(a, mode, bool(check_finite))
    if mode == "raw":
        qr_, tau, r = parts
        return (qr_, tau), r
    if mode == "r":
        return parts[0] if batched else parts
    return list(parts) if batched else parts


def rq(a, overwrite_a=False, lwork=None, mode="full", check_finite=True):
    """RQ decomposition ``a = R @ Q`` (``scipy.linalg.rq``).

    Computed from a QR decomposition (libtorch has no ``?gerqf``): ``R``'s
    diagonal signs (phases) may differ from LAPACK's; ``R @ Q`` does not.
    """
    if mode not in ("full", "r", "economic"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic']")
    batched = _batched("rq", (a, 2))
    parts = _linalg.rq(a, mode, bool(check_finite))
    if mode == "r":
        return parts[0]
    return list(parts) if batched else parts


def polar(a, side="right"):
    """Polar decomposition (``scipy.linalg.polar``), from the SVD."""
    if side not in ("right", "left"):
        raise ValueError("`side` must be either 'right' or 'left'")
    batched = _batched("polar", (a, 2))
    result = _linalg.polar(a, side == "right")
    return list(result) if batched else result


def null_space(A, rcond=None, *, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    """Orthonormal basis of the null space (``scipy.linalg.null_space``)."""
    _check_driver("null_space", lapack_driver)
    _batched("null_space", (A, 2))
    return _linalg.null_space(A, None if rcond is None else float(rcond), bool(check_finite))


def orth(A, rcond=None):
    """Orthonormal basis of the range (``scipy.linalg.orth``)."""
    _batched("orth", (A, 2))
    return _linalg.orth(A, None if rcond is None else float(rcond))


def subspace_angles(A, B):
    """Principal angles between two column spaces, descending (``scipy.linalg.subspace_angles``)."""
    _batched("subspace_angles", (A, 2), (B, 2))
    return _linalg.subspace_angles(A, B)


def orthogonal_procrustes(A, B, check_finite=True):
    """The unitary ``R`` minimizing ``||A @ R - B||_F`` and the sum of the
    singular values of ``A^H B`` (``scipy.linalg.orthogonal_procrustes``)."""
    batched = _batched("orthogonal_procrustes", (A, 2), (B, 2))
    result = _linalg.orthogonal_procrustes(A, B, bool(check_finite))
    return list(result) if batched else result


# ---------------------------------------------------------------------------
# Norms and matrix functions
# ---------------------------------------------------------------------------


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):
    """Matrix or vector norm (``scipy.linalg.norm``, NumPy's semantics).

    Sums of squares are scaled by the largest entry, so the 2-norm and
    Frobenius norm of very large (small) values do not overflow (underflow)
    where NumPy's unscaled sum does.
    """
    if axis is not None and not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from None
    naxes = len(axis) if axis is not None else len(_shape(a))
    if isinstance(ord, str):
        if naxes == 1:
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        if naxes != 2:
            raise ValueError("Improper number of dimensions to norm.")
        if ord in ("fro", "f"):
            kind = "fro"
        elif ord == "nuc":
            kind = "nuc"
        else:
            raise ValueError("Invalid norm order for matrices.")
        p = 0.0
    elif ord is None:
        kind, p = "default", 0.0
    else:
        kind, p = "p", float(ord)
    result = _linalg.norm(a, kind, p, None if axis is None else [int(x) for x in axis], bool(keepdims),
                          bool(check_finite))
    if axis is None and not keepdims and _blas_norm(a, ord):
        return float(result)  # SciPy's BLAS/LAPACK shortcuts return Python floats
    return result


def _blas_norm(a, ord) -> bool:
    """Whether SciPy computes this norm with BLAS ``nrm2`` or LAPACK ``lange``
    (whose f2py wrappers return a Python float) rather than NumPy."""
    if not isinstance(a, (np.ndarray, list, tuple)):
        return False
    x = np.asarray(a)
    if x.size == 0 or x.dtype.char not in "fdFD":
        return False
    if x.ndim == 1:
        return ord is None or (not isinstance(ord, str) and ord == 2)
    if x.ndim == 2 and not isinstance(ord, str) and ord in (1, np.inf):
        return np.isfortran(x) or np.isfortran(x.T)
    return False


def expm(A):
    """Matrix exponential of ``(..., N, N)`` ``A`` (``scipy.linalg.expm``).

    libtorch's ``matrix_exp`` (scaled and squared Taylor approximant) for
    general input; diagonal input is exact, triangular input keeps its
    structure and exact diagonal, as in SciPy.
    """
    return _linalg.expm(A)


def _matrix_function(name: str, A):
    _batched(name, (A, 2))
    x, rcond = _linalg.matrix_function(A, name)
    _warn_ill_conditioned(rcond, x)
    return x


def cosm(A):
    """Matrix cosine (``scipy.linalg.cosm``), through :func:`expm`."""
    return _matrix_function("cosm", A)


def sinm(A):
    """Matrix sine (``scipy.linalg.sinm``), through :func:`expm`."""
    return _matrix_function("sinm", A)


def tanm(A):
    """Matrix tangent ``solve(cosm(A), sinm(A))`` (``scipy.linalg.tanm``)."""
    return _matrix_function("tanm", A)


def coshm(A):
    """Matrix hyperbolic cosine (``scipy.linalg.coshm``), through :func:`expm`."""
    return _matrix_function("coshm", A)


def sinhm(A):
    """Matrix hyperbolic sine (``scipy.linalg.sinhm``), through :func:`expm`."""
    return _matrix_function("sinhm", A)


def tanhm(A):
    """Matrix hyperbolic tangent ``solve(coshm(A), sinhm(A))`` (``scipy.linalg.tanhm``)."""
    return _matrix_function("tanhm", A)


def expm_frechet(A, E, method=None, compute_expm=True, check_finite=True):
    """``expm(A)`` and the Frechet derivative of ``expm`` at ``A`` in direction
    ``E`` (``scipy.linalg.expm_frechet``).

    ``method``: ``None``/``'SPS'``/``'blockEnlarge'`` all compute the same
    quantity; torchbridge reads it off ``expm([[A, E], [0, A]])``.
    """
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError(f"Unknown implementation {method}")
    batched = _batched("expm_frechet", (A, 2), (E, 2))
    exp_a, frechet = _linalg.expm_frechet(A, E, bool(check_finite))
    if not compute_expm:
        return frechet
    return [exp_a, frechet] if batched else (exp_a, frechet)


# ---------------------------------------------------------------------------
# Special matrices
# ---------------------------------------------------------------------------


def block_diag(*arrs):
    """Block diagonal matrix of the arrays (``scipy.linalg.block_diag``);
    leading dimensions broadcast as batches."""
    if not arrs:
        return np.zeros((1, 0))
    return _linalg.block_diag(list(arrs))


def toeplitz(c, r=None):
    """Toeplitz matrix with first column ``c`` and first row ``r``
    (``scipy.linalg.toeplitz``; ``r`` default ``conj(c)``)."""
    _batched("toeplitz", (c, 1), (r, 1))
    return _linalg.toeplitz(c, r)


def circulant(c):
    """Circulant matrix with first column ``c`` (``scipy.linalg.circulant``)."""
    return _linalg.circulant(c)


def hankel(c, r=None):
    """Hankel matrix with first column ``c`` and last row ``r``
    (``scipy.linalg.hankel``; multi-dimensional input is flattened with
    SciPy 1.17's FutureWarning)."""
    if len(_shape(c)) > 1 or (r is not None and len(_shape(r)) > 1):
        warnings.warn("Beginning in SciPy 1.19, multidimensional input will be treated as a batch, not "
                      "`ravel`ed. To preserve the existing behavior and silence this warning, `ravel` "
                      "arguments before passing them to `hankel`.", FutureWarning, stacklevel=2)
    return _linalg.hankel(c, r)


def khatri_rao(a, b):
    """Column-wise Kronecker product (``scipy.linalg.khatri_rao``)."""
    _batched("khatri_rao", (a, 2), (b, 2))
    return _linalg.khatri_rao(a, b)


def companion(a):
    """Companion matrix of polynomial coefficients ``a`` (``scipy.linalg.companion``)."""
    return _linalg.companion(a)


def fiedler(a):
    """Fiedler matrix ``|a_i - a_j|`` (``scipy.linalg.fiedler``)."""
    return _linalg.fiedler(a)


def leslie(f, s):
    """Leslie matrix (``scipy.linalg.leslie``)."""
    _batched("leslie", (f, 1), (s, 1))
    return _linalg.leslie(f, s)


def diagsvd(s, M, N):
    """The ``(M, N)`` matrix with ``s`` on its diagonal (``scipy.linalg.diagsvd``)."""
    _batched("diagsvd", (s, 1))
    return _linalg.diagsvd(s, operator.index(M), operator.index(N))


def convolution_matrix(a, n, mode="full"):
    """Matrix of the convolution with ``a`` (``scipy.linalg.convolution_matrix``)."""
    if n <= 0:
        raise ValueError("n must be a positive integer.")
    if mode not in ("full", "valid", "same"):
        raise ValueError("'mode' argument must be one of ('full', 'valid', 'same')")
    return _linalg.convolution_matrix(a, operator.index(n), mode)


def hilbert(n):
    """Hilbert matrix of order ``n``, float64 (``scipy.linalg.hilbert``)."""
    return _linalg.special_matrix("hilbert", operator.index(n), False, None)


def invhilbert(n, exact=False):
    """Inverse Hilbert matrix (``scipy.linalg.invhilbert``): float64, or int64
    with ``exact`` (``n > 14``, where SciPy returns Python ints, is not
    implemented). The float64 entries are the exact integers, rounded once."""
    return _linalg.special_matrix("invhilbert", operator.index(n), bool(exact), None)


def helmert(n, full=False):
    """Helmert matrix of order ``n`` (``scipy.linalg.helmert``)."""
    return _linalg.special_matrix("helmert", operator.index(n), bool(full), None)


def dft(n, scale=None):
    """DFT matrix of order ``n`` (``scipy.linalg.dft``); angles are reduced
    exactly, so entries are accurate to 1 ulp for any ``n``."""
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; {scale!r} is not valid.")
    return _linalg.special_matrix("dft", operator.index(n), False, scale)


def hadamard(n, dtype=int):
    """Sylvester-construction Hadamard matrix (``scipy.linalg.hadamard``)."""
    return _linalg.special_matrix("hadamard", operator.index(n), False, None).astype(dtype, copy=False)


def pascal(n, kind="symmetric", exact=True):
    """Pascal matrix (``scipy.linalg.pascal``): uint64 with ``exact`` (``n >= 35``,
    where SciPy returns Python ints, is not implemented), float64 otherwise."""
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("kind must be 'symmetric', 'lower', or 'upper'")
    p = _linalg.special_matrix("pascal", operator.index(n), bool(exact), kind)
    return p.view(np.uint64) if exact else p


def invpascal(n, kind="symmetric", exact=True):
    """Inverse Pascal matrix (``scipy.linalg.invpascal``): int64 with ``exact``
    (``n > 34`` not implemented), float64 otherwise."""
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("'kind' must be 'symmetric', 'lower' or 'upper'.")
    return _linalg.special_matrix("invpascal", operator.index(n), bool(exact), kind)


def bandwidth(a):
    """Lower and upper bandwidth (``scipy.linalg.bandwidth``): Python ints for
    one matrix, a list of two arrays for a batch."""
    batched = _batched("bandwidth", (a, 2))
    lower, upper = _linalg.bandwidth(a)
    return [lower, upper] if batched else (int(lower), int(upper))


def _symmetry(name, a, atol, rtol, hermitian):
    batched = _batched(name, (a, 2))
    result = _linalg.is_symmetric(a, None if atol is None else float(atol), None if rtol is None else float(rtol),
                                  hermitian)
    return result if batched else bool(result)


def issymmetric(a, atol=None, rtol=None):
    """Whether ``a`` equals its transpose (``scipy.linalg.issymmetric``; exact
    unless a tolerance is given, the diagonal not scanned)."""
    return _symmetry("issymmetric", a, atol, rtol, False)


def ishermitian(a, atol=None, rtol=None):
    """Whether ``a`` equals its conjugate transpose (``scipy.linalg.ishermitian``)."""
    return _symmetry("ishermitian", a, atol, rtol, True)


def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    """Solve ``A x = b`` for banded ``A`` in LAPACK band storage
    (``scipy.linalg.solve_banded``); the band is expanded to a dense LU solve."""
    nlower, nupper = l_and_u
    _batched("solve_banded", (ab, 2), (b, _rhs_core(b)))
    return _linalg.solve_banded(operator.index(nlower), operator.index(nupper), ab, b, bool(check_finite))


def solveh_banded(ab, b, overwrite_ab=False, overwrite_b=False, lower=False, check_finite=True):
    """Solve ``A x = b`` for Hermitian positive definite banded ``A``
    (``scipy.linalg.solveh_banded``)."""
    _batched("solveh_banded", (ab, 2), (b, _rhs_core(b)))
    return _linalg.solveh_banded(ab, b, bool(lower), bool(check_finite))


def cholesky_banded(ab, overwrite_ab=False, lower=False, check_finite=True):
    """Cholesky factor of a banded Hermitian positive definite matrix, in band
    storage (``scipy.linalg.cholesky_banded``)."""
    _batched("cholesky_banded", (ab, 2))
    return _linalg.cholesky_banded(ab, bool(lower), bool(check_finite))


_SELECT = {0: 0, 1: 1, 2: 2, "all": 0, "value": 1, "index": 2, "a": 0, "v": 1, "i": 2}
_TRIDIAGONAL_DRIVERS = ("auto", "stemr", "sterf", "stebz", "stev", "stevd")


def _tridiagonal_select(n, select, select_range, eigvals_only, lapack_driver):
    if isinstance(select, str):
        select = select.lower()
    try:
        select = _SELECT[select]
    except (KeyError, TypeError):
        raise ValueError("invalid argument for select") from None
    index = value = None
    if select != 0:
        sr = np.asarray(select_range)
        if sr.ndim != 1 or sr.size != 2 or sr[1] < sr[0]:
            raise ValueError("select_range must be a 2-element array-like in nondecreasing order")
        if select == 1:
            value = (float(sr[0]), float(sr[1]))
        else:
            if sr.dtype.char.lower() not in "hilqp":
                raise ValueError(f'when using select="i", select_range must contain integers, got dtype '
                                 f"{sr.dtype} ({sr.dtype.char})")
            lo, hi = int(sr[0]), int(sr[1])
            if min(lo, hi) < 0 or max(lo, hi) > n - 1:
                raise ValueError("select_range out of bounds")
            index = (lo, hi)
    if not isinstance(lapack_driver, str):
        raise TypeError("lapack_driver must be str")
    if lapack_driver not in _TRIDIAGONAL_DRIVERS:
        raise ValueError(f"lapack_driver must be one of {_TRIDIAGONAL_DRIVERS}, got {lapack_driver}")
    if lapack_driver in ("sterf", "stev", "stevd") and select != 0:
        raise ValueError(f'{lapack_driver} can only be used when select == "a"')
    if lapack_driver == "sterf" and not eigvals_only:
        raise ValueError("sterf can only be used when eigvals_only is True")
    return index, value


def eigh_tridiagonal(d, e, eigvals_only=False, select="a", select_range=None, check_finite=True, tol=0.0,
                     lapack_driver="auto"):
    """Eigenvalues (ascending) and eigenvectors of a real symmetric tridiagonal
    matrix (``scipy.linalg.eigh_tridiagonal``), through the dense symmetric
    solver; ``tol`` and ``lapack_driver`` are accepted (validated as SciPy
    does) and do not change the result beyond rounding."""
    batched = _batched("eigh_tridiagonal", (d, 1), (e, 1))
    n = _shape(d)[-1] if _shape(d) else 1
    index, value = _tridiagonal_select(n, select, select_range, eigvals_only, lapack_driver)
    result = _linalg.eigh_tridiagonal(d, e, bool(eigvals_only), index, value, bool(check_finite))
    if eigvals_only:
        return result
    return list(result) if batched else result


def eigvalsh_tridiagonal(d, e, select="a", select_range=None, check_finite=True, tol=0.0, lapack_driver="auto"):
    """Eigenvalues of a real symmetric tridiagonal matrix
    (``scipy.linalg.eigvalsh_tridiagonal``)."""
    return eigh_tridiagonal(d, e, eigvals_only=True, select=select, select_range=select_range,
                            check_finite=check_finite, tol=tol, lapack_driver=lapack_driver)


def _c_and_r(c_or_cr):
    if isinstance(c_or_cr, tuple):
        return c_or_cr
    return c_or_cr, None


def solve_toeplitz(c_or_cr, b, check_finite=True):
    """Solve ``T x = b`` for Toeplitz ``T`` given its first column (and row)
    (``scipy.linalg.solve_toeplitz``); dense LU instead of Levinson recursion."""
    c, r = _c_and_r(c_or_cr)
    _batched("solve_toeplitz", (c, 1), (r, 1), (b, _rhs_core(b)))
    return _linalg.solve_toeplitz(c, r, b, bool(check_finite))


def matmul_toeplitz(c_or_cr, x, check_finite=False, workers=None):
    """``T @ x`` for Toeplitz ``T`` by FFT (``scipy.linalg.matmul_toeplitz``;
    ``workers`` is a hint, libtorch picks its threads)."""
    c, r = _c_and_r(c_or_cr)
    _batched("matmul_toeplitz", (c, 1), (r, 1), (x, _rhs_core(x)))
    return _linalg.matmul_toeplitz(c, r, x, bool(check_finite))


def solve_circulant(c, b, singular="raise", tol=None, caxis=-1, baxis=0, outaxis=0):
    """Solve ``C x = b`` for circulant ``C`` by FFT (``scipy.linalg.solve_circulant``)."""
    return _linalg.solve_circulant(c, b, singular != "raise", None if tol is None else float(tol),
                                   operator.index(caxis), operator.index(baxis), operator.index(outaxis))


def matrix_balance(A, permute=True, scale=True, separate=False, overwrite_a=False):
    """Balance a square matrix (``scipy.linalg.matrix_balance``): LAPACK's
    ``?gebal`` (3.12) ported, run on the host (libtorch has no kernel for
    it). Returns ``(B, T)`` or ``(B, (scaling, perm))`` with ``separate``.
    A stack of matrices is not implemented."""
    if len(_shape(A)) > 2:
        raise _unsupported("matrix_balance", "A", "<a stack of matrices>")
    b, t, scaling, perm = _linalg.matrix_balance(A, bool(permute), bool(scale))
    if separate:
        return b, (scaling, perm)
    return b, t


# Every routine takes `device=` (see torchbridge._device); the ufuncs and the
# routines that already have SciPy's own `device` keep theirs.
for _name in sorted(set(__all__) - _device.TAKES_NO_ARRAYS):
    globals()[_name] = _device.takes_device(globals()[_name])
del _name
