"""scipy.linalg._basic: linear systems, inverse, determinant, least squares, pseudo-inverses, balancing."""

from __future__ import annotations

from .._core.linalg import (
    det,
    inv,
    lstsq,
    matmul_toeplitz,
    matrix_balance,
    pinv,
    pinvh,
    solve,
    solve_banded,
    solve_circulant,
    solve_toeplitz,
    solve_triangular,
    solveh_banded,
)

__all__ = [
    "solve",
    "solve_triangular",
    "inv",
    "det",
    "lstsq",
    "pinv",
    "pinvh",
    "solve_banded",
    "solveh_banded",
    "solve_toeplitz",
    "matmul_toeplitz",
    "solve_circulant",
    "matrix_balance",
]
