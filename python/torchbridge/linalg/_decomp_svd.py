"""scipy.linalg._decomp_svd: the SVD and its composites (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core.linalg import diagsvd, null_space, orth, subspace_angles, svd, svdvals

__all__ = ["diagsvd", "svd", "svdvals", "null_space", "orth", "subspace_angles"]
