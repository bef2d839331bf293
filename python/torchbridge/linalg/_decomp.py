"""scipy.linalg._decomp: eigenvalue problems (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core.linalg import eig, eigh, eigh_tridiagonal, eigvals, eigvalsh, eigvalsh_tridiagonal

__all__ = ["eigh", "eigvalsh", "eig", "eigvals", "eigh_tridiagonal", "eigvalsh_tridiagonal"]
