"""scipy.linalg._decomp: eigenvalue problems."""

from __future__ import annotations

import math

import numpy as np

from .._core import linalg as _legacy
from ._helpers import _batched, _placed, _shape, _unsupported

__all__ = ["eigh", "eigvalsh", "eig", "eigvals", "eigh_tridiagonal", "eigvalsh_tridiagonal"]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.
_EIGH_DRIVERS = [None, "ev", "evd", "evr", "evx", "gv", "gvd", "gvx"]

_SELECT = {0: 0, 1: 1, 2: 2, "all": 0, "value": 1, "index": 2, "a": 0, "v": 1, "i": 2}

_TRIDIAGONAL_DRIVERS = ("auto", "stemr", "sterf", "stebz", "stev", "stevd")


def _eigh_checks(b, type, subset_by_index, subset_by_value, driver):
    if driver not in _EIGH_DRIVERS:
        raise ValueError(
            '"{}" is unknown. Possible values are "None", "{}".'.format(driver, '", "'.join(_EIGH_DRIVERS[1:]))
        )
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
            raise ValueError(
                "Requested eigenvalue bounds are not valid. Valid range is (-inf, inf) and low < high, "
                f"but low={lo}, high={hi} is given"
            )
        value = (lo, hi)
    if driver:
        if b is None and driver in ("gv", "gvd", "gvx"):
            raise ValueError(f"{driver} requires input b array to be supplied for generalized eigenvalue problems.")
        if b is not None and driver in ("ev", "evd", "evr", "evx"):
            raise ValueError(f'"{driver}" does not accept input b array for standard eigenvalue problems.')
        if subset and driver in ("ev", "evd", "gv", "gvd"):
            raise ValueError(f'"{driver}" cannot compute subsets of eigenvalues')
    return index, value


def eigh(
    a,
    b=None,
    *,
    lower=True,
    eigvals_only=False,
    overwrite_a=False,
    overwrite_b=False,
    type=1,
    check_finite=True,
    subset_by_index=None,
    subset_by_value=None,
    driver=None,
    device=None,
):
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, or of the
    generalized problem with Hermitian positive definite ``b``
    (``scipy.linalg.eigh``).

    ``type`` 1, 2, 3 as SciPy's; the generalized problem is reduced with
    ``b``'s Cholesky factor as LAPACK's ``?sygvd`` does. ``driver`` names a
    LAPACK driver: all compute the same decomposition, so any valid one is
    accepted (libtorch picks its own). ``subset_by_index``/``subset_by_value``
    select from the full decomposition (values in ``(lo, hi]``).
    """
    if device is not None:
        return _placed(
            device,
            eigh,
            a,
            b,
            lower=lower,
            eigvals_only=eigvals_only,
            overwrite_a=overwrite_a,
            overwrite_b=overwrite_b,
            type=type,
            check_finite=check_finite,
            subset_by_index=subset_by_index,
            subset_by_value=subset_by_value,
            driver=driver,
        )
    index, value = _eigh_checks(b, type, subset_by_index, subset_by_value, driver)
    batched = _batched("eigh", (a, 2), (b, 2))
    result = _legacy.eigh(a, b, bool(lower), bool(eigvals_only), int(type), index, value, bool(check_finite))
    if eigvals_only:
        return result
    return list(result) if batched else result


def eigvalsh(
    a,
    b=None,
    *,
    lower=True,
    overwrite_a=False,
    overwrite_b=False,
    type=1,
    check_finite=True,
    subset_by_index=None,
    subset_by_value=None,
    driver=None,
    device=None,
):
    """Eigenvalues of Hermitian matrices (``scipy.linalg.eigvalsh``); see :func:`eigh`."""
    if device is not None:
        return _placed(
            device,
            eigvalsh,
            a,
            b,
            lower=lower,
            overwrite_a=overwrite_a,
            overwrite_b=overwrite_b,
            type=type,
            check_finite=check_finite,
            subset_by_index=subset_by_index,
            subset_by_value=subset_by_value,
            driver=driver,
        )
    return eigh(
        a,
        b=b,
        lower=lower,
        eigvals_only=True,
        type=type,
        check_finite=check_finite,
        subset_by_index=subset_by_index,
        subset_by_value=subset_by_value,
        driver=driver,
    )


def eig(
    a,
    b=None,
    left=False,
    right=True,
    overwrite_a=False,
    overwrite_b=False,
    check_finite=True,
    homogeneous_eigvals=False,
    *,
    device=None,
):
    """Eigenvalues and left/right eigenvectors of general square matrices
    (``scipy.linalg.eig``).

    Eigenvalues are complex; for real input whose eigenvalues are all real the
    eigenvectors are real, as SciPy returns them. Left eigenvectors come from
    the inverse of the right ones (not for defective matrices). The
    generalized problem (``b`` given) is not implemented: libtorch has no
    ``?ggev``.
    """
    if device is not None:
        return _placed(device, eig, a, b, left, right, overwrite_a, overwrite_b, check_finite, homogeneous_eigvals)
    if b is not None:
        raise _unsupported("eig", "b", "<array> (generalized eigenproblem)")
    batched = _batched("eig", (a, 2))
    result = _legacy.eig(a, bool(left), bool(right), bool(homogeneous_eigvals), bool(check_finite))
    if isinstance(result, tuple) and batched:
        return list(result)
    return result


def eigvals(a, b=None, overwrite_a=False, check_finite=True, homogeneous_eigvals=False, *, device=None):
    """Eigenvalues of general square matrices (``scipy.linalg.eigvals``)."""
    if device is not None:
        return _placed(device, eigvals, a, b, overwrite_a, check_finite, homogeneous_eigvals)
    if b is not None:
        raise _unsupported("eigvals", "b", "<array> (generalized eigenproblem)")
    return eig(a, left=False, right=False, check_finite=check_finite, homogeneous_eigvals=homogeneous_eigvals)


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
                raise ValueError(
                    f'when using select="i", select_range must contain integers, got dtype {sr.dtype} ({sr.dtype.char})'
                )
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


def eigh_tridiagonal(
    d,
    e,
    eigvals_only=False,
    select="a",
    select_range=None,
    check_finite=True,
    tol=0.0,
    lapack_driver="auto",
    *,
    device=None,
):
    """Eigenvalues (ascending) and eigenvectors of a real symmetric tridiagonal
    matrix (``scipy.linalg.eigh_tridiagonal``), through the dense symmetric
    solver; ``tol`` and ``lapack_driver`` are accepted (validated as SciPy
    does) and do not change the result beyond rounding."""
    if device is not None:
        return _placed(
            device, eigh_tridiagonal, d, e, eigvals_only, select, select_range, check_finite, tol, lapack_driver
        )
    batched = _batched("eigh_tridiagonal", (d, 1), (e, 1))
    n = _shape(d)[-1] if _shape(d) else 1
    index, value = _tridiagonal_select(n, select, select_range, eigvals_only, lapack_driver)
    result = _legacy.eigh_tridiagonal(d, e, bool(eigvals_only), index, value, bool(check_finite))
    if eigvals_only:
        return result
    return list(result) if batched else result


def eigvalsh_tridiagonal(
    d, e, select="a", select_range=None, check_finite=True, tol=0.0, lapack_driver="auto", *, device=None
):
    """Eigenvalues of a real symmetric tridiagonal matrix
    (``scipy.linalg.eigvalsh_tridiagonal``)."""
    if device is not None:
        return _placed(device, eigvalsh_tridiagonal, d, e, select, select_range, check_finite, tol, lapack_driver)
    return eigh_tridiagonal(
        d,
        e,
        eigvals_only=True,
        select=select,
        select_range=select_range,
        check_finite=check_finite,
        tol=tol,
        lapack_driver=lapack_driver,
    )
