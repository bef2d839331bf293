"""scipy.linalg._decomp_svd: the singular value decomposition and its composites (compiled, re-exported as they are)."""

from __future__ import annotations

from .._core.linalg import diagsvd, null_space, orth, subspace_angles, svd, svdvals

__all__ = ["diagsvd", "svd", "svdvals", "null_space", "orth", "subspace_angles"]
