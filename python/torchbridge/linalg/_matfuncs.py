"""scipy.linalg._matfuncs: the matrix functions (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

expm = _compiled.expm
cosm = _compiled.cosm
sinm = _compiled.sinm
tanm = _compiled.tanm
coshm = _compiled.coshm
sinhm = _compiled.sinhm
tanhm = _compiled.tanhm
expm_frechet = _compiled.expm_frechet
expm_cond = _compiled.expm_cond
sqrtm = _compiled.sqrtm
logm = _compiled.logm
funm = _compiled.funm
signm = _compiled.signm
fractional_matrix_power = _compiled.fractional_matrix_power


__all__ = [
    "expm",
    "cosm",
    "sinm",
    "tanm",
    "coshm",
    "sinhm",
    "tanhm",
    "expm_frechet",
    "expm_cond",
    "sqrtm",
    "logm",
    "funm",
    "signm",
    "fractional_matrix_power",
]
