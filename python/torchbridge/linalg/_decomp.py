"""scipy.linalg._decomp: eigenvalue problems, the Hessenberg form and ``cdf2rdf`` (compiled; see
``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core.linalg import (
    cdf2rdf,
    eig,
    eigh,
    eigh_tridiagonal,
    eigvals,
    eigvalsh,
    eigvalsh_tridiagonal,
    hessenberg,
)

__all__ = ["eigh", "eigvalsh", "eig", "eigvals", "eigh_tridiagonal", "eigvalsh_tridiagonal", "hessenberg", "cdf2rdf"]
