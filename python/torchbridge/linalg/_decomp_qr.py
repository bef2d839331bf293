"""scipy.linalg._decomp_qr: QR and RQ (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

qr = _compiled.qr
rq = _compiled.rq
qr_multiply = _compiled.qr_multiply

__all__ = ["qr", "rq", "qr_multiply"]
