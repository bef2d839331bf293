"""scipy.linalg._decomp_update: QR updates, insertions and deletions (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

qr_update = _compiled.qr_update
qr_insert = _compiled.qr_insert
qr_delete = _compiled.qr_delete

__all__ = ["qr_update", "qr_insert", "qr_delete"]
