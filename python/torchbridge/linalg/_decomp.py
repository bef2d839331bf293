"""scipy.linalg._decomp: eigenvalue problems, the Hessenberg form and ``cdf2rdf`` (compiled; see
``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core.linalg import (
    cdf2rdf,
    eig,
    eig_banded,
    eigh,
    eigh_tridiagonal,
    eigvals,
    eigvals_banded,
    eigvalsh,
    eigvalsh_tridiagonal,
    hessenberg,
)

__all__ = [
    "eigh",
    "eigvalsh",
    "eig",
    "eigvals",
    "eigh_tridiagonal",
    "eigvalsh_tridiagonal",
    "hessenberg",
    "cdf2rdf",
    "eig_banded",
    "eigvals_banded",
]
