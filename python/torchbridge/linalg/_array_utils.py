"""scipy.linalg._cythonized_array_utils: bandwidth and symmetry tests."""

from __future__ import annotations

from .._core import linalg as _legacy
from ._helpers import _batched, _placed

__all__ = ["bandwidth", "issymmetric", "ishermitian"]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.


def bandwidth(a, *, device=None):
    """Lower and upper bandwidth (``scipy.linalg.bandwidth``): Python ints for
    one matrix, a list of two arrays for a batch."""
    if device is not None:
        return _placed(device, bandwidth, a)
    batched = _batched("bandwidth", (a, 2))
    lower, upper = _legacy.bandwidth(a)
    return [lower, upper] if batched else (int(lower), int(upper))


def _symmetry(name, a, atol, rtol, hermitian):
    batched = _batched(name, (a, 2))
    result = _legacy.is_symmetric(
        a, None if atol is None else float(atol), None if rtol is None else float(rtol), hermitian
    )
    return result if batched else bool(result)


def issymmetric(a, atol=None, rtol=None, *, device=None):
    """Whether ``a`` equals its transpose (``scipy.linalg.issymmetric``; exact
    unless a tolerance is given, the diagonal not scanned)."""
    if device is not None:
        return _placed(device, issymmetric, a, atol, rtol)
    return _symmetry("issymmetric", a, atol, rtol, False)


def ishermitian(a, atol=None, rtol=None, *, device=None):
    """Whether ``a`` equals its conjugate transpose (``scipy.linalg.ishermitian``)."""
    if device is not None:
        return _placed(device, ishermitian, a, atol, rtol)
    return _symmetry("ishermitian", a, atol, rtol, True)
