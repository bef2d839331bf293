"""scipy.linalg._decomp_qr: QR and RQ."""

from __future__ import annotations

from .._core import linalg as _legacy
from ._helpers import _batched, _placed, _unsupported

__all__ = ["qr", "rq"]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False, check_finite=True, *, device=None):
    """QR decomposition ``a = Q @ R`` (``scipy.linalg.qr``).

    ``mode``: ``'full'`` (``(Q, R)``), ``'economic'``, ``'r'`` (``(R,)``, a
    1-tuple as SciPy returns it; ``R`` alone for a batch) or ``'raw'``
    (``((qr, tau), R)`` in LAPACK's ``?geqrf`` format). Column pivoting
    (``pivoting=True``) is not implemented: libtorch has no ``?geqp3``.
    """
    if device is not None:
        return _placed(device, qr, a, overwrite_a, lwork, mode, pivoting, check_finite)
    if mode not in ("full", "qr", "r", "economic", "raw"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic', 'raw']")
    if pivoting:
        raise _unsupported("qr", "pivoting", pivoting)
    batched = _batched("qr", (a, 2))
    if batched and mode == "raw":
        raise _unsupported("qr", "mode", "raw (with a batch of matrices)")
    parts = _legacy.qr(a, mode, bool(check_finite))
    if mode == "raw":
        qr_, tau, r = parts
        return (qr_, tau), r
    if mode == "r":
        return parts[0] if batched else parts
    return list(parts) if batched else parts


def rq(a, overwrite_a=False, lwork=None, mode="full", check_finite=True, *, device=None):
    """RQ decomposition ``a = R @ Q`` (``scipy.linalg.rq``).

    Computed from a QR decomposition (libtorch has no ``?gerqf``): ``R``'s
    diagonal signs (phases) may differ from LAPACK's; ``R @ Q`` does not.
    """
    if device is not None:
        return _placed(device, rq, a, overwrite_a, lwork, mode, check_finite)
    if mode not in ("full", "r", "economic"):
        raise ValueError("Mode argument should be one of ['full', 'r', 'economic']")
    batched = _batched("rq", (a, 2))
    parts = _legacy.rq(a, mode, bool(check_finite))
    if mode == "r":
        return parts[0]
    return list(parts) if batched else parts
