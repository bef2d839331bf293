"""scipy.linalg._misc: norms, and SciPy's exception and warning classes."""

from __future__ import annotations

import operator

import numpy as np

from .._core import linalg as _legacy
from ._helpers import _placed, _shape

LinAlgWarning = _legacy.LinAlgWarning

__all__ = ["LinAlgError", "LinAlgWarning", "norm"]

#: The exception SciPy raises for singular matrices (``numpy.linalg.LinAlgError``).
LinAlgError = np.linalg.LinAlgError

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True, *, device=None):
    """Matrix or vector norm (``scipy.linalg.norm``, NumPy's semantics).

    Sums of squares are scaled by the largest entry, so the 2-norm and
    Frobenius norm of very large (small) values do not overflow (underflow)
    where NumPy's unscaled sum does.
    """
    if device is not None:
        return _placed(device, norm, a, ord, axis, keepdims, check_finite)
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
    result = _legacy.norm(
        a, kind, p, None if axis is None else [int(x) for x in axis], bool(keepdims), bool(check_finite)
    )
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
