"""SciPy-compatible `scipy.linalg` routines, computed by libtorch.

Swap ``from scipy import linalg`` for ``from torchbridge import linalg``: same
names, same parameters and defaults, same return structures, results in the
caller's array type and on its device. For numpy input the dtype, shape and
type (array, numpy scalar, Python int, tuple or list) match SciPy 1.17's.

Shared conventions (each function's docstring adds its own):

- ``overwrite_a``/``overwrite_b``/``overwrite_ab`` and ``lwork`` are
  performance hints: accepted, never change the result (torchbridge never
  writes into an input).
- ``check_finite=True`` raises ``ValueError`` on NaN or infinity as SciPy
  does; ``check_finite=False`` skips the check (a hint, as in SciPy).
- Singular or not positive definite input raises
  :class:`numpy.linalg.LinAlgError` (SciPy's ``LinAlgError``); an
  ill-conditioned one warns :class:`LinAlgWarning`.
- Batched (stacked) input is accepted where SciPy 1.17 accepts it; where
  SciPy then returns a ``list`` instead of a ``tuple`` (its
  ``_apply_over_batch`` decorator), so does torchbridge.
- Eigenvector and singular-vector signs (phases) are not unique; they may
  differ from SciPy's, the decompositions they form do not.

Every routine that takes arrays also takes a keyword-only ``device=None``:
where to compute, with the copies that costs (see :mod:`torchbridge._device`);
by default the computation runs where the arrays live, CUDA included."""

from __future__ import annotations

from typing import Any

from .. import _dispatch
from . import _misc
from ._array_utils import bandwidth, ishermitian, issymmetric
from ._basic import (
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
from ._decomp import (
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
from ._decomp_cholesky import cho_factor, cho_solve, cho_solve_banded, cholesky, cholesky_banded
from ._decomp_cossin import cossin
from ._decomp_ldl import ldl
from ._decomp_lu import lu, lu_factor, lu_solve
from ._decomp_polar import polar
from ._decomp_qr import qr, qr_multiply, rq
from ._decomp_qz import ordqz, qz
from ._decomp_schur import rsf2csf, schur
from ._decomp_svd import diagsvd, null_space, orth, subspace_angles, svd, svdvals
from ._decomp_update import qr_delete, qr_insert, qr_update
from ._matfuncs import (
    coshm,
    cosm,
    expm,
    expm_cond,
    expm_frechet,
    fractional_matrix_power,
    funm,
    logm,
    signm,
    sinhm,
    sinm,
    sqrtm,
    tanhm,
    tanm,
)

# (LinAlgError and LinAlgWarning are module attributes, as in scipy.linalg;
# LinAlgWarning is made on first use, see _misc._linalg_warning)
from ._misc import LinAlgError, norm  # noqa: F401
from ._procrustes import orthogonal_procrustes
from ._sketches import clarkson_woodruff_transform
from ._solvers import (
    solve_continuous_are,
    solve_continuous_lyapunov,
    solve_discrete_are,
    solve_discrete_lyapunov,
    solve_sylvester,
)
from ._special_matrices import (
    block_diag,
    circulant,
    companion,
    convolution_matrix,
    dft,
    fiedler,
    fiedler_companion,
    hadamard,
    hankel,
    helmert,
    hilbert,
    invhilbert,
    invpascal,
    khatri_rao,
    leslie,
    pascal,
    toeplitz,
)

__all__ = [
    "solve",
    "solve_triangular",
    "inv",
    "det",
    "eigh",
    "eigvalsh",
    "eig",
    "eigvals",
    "svd",
    "svdvals",
    "cholesky",
    "cho_factor",
    "cho_solve",
    "lu",
    "lu_factor",
    "lu_solve",
    "qr",
    "rq",
    "lstsq",
    "pinv",
    "pinvh",
    "norm",
    "expm",
    "expm_frechet",
    "cosm",
    "sinm",
    "tanm",
    "coshm",
    "sinhm",
    "tanhm",
    "null_space",
    "orth",
    "polar",
    "subspace_angles",
    "orthogonal_procrustes",
    "block_diag",
    "toeplitz",
    "circulant",
    "hankel",
    "khatri_rao",
    "companion",
    "fiedler",
    "leslie",
    "diagsvd",
    "convolution_matrix",
    "hilbert",
    "invhilbert",
    "helmert",
    "dft",
    "hadamard",
    "pascal",
    "invpascal",
    "bandwidth",
    "issymmetric",
    "ishermitian",
    "solve_banded",
    "solveh_banded",
    "cholesky_banded",
    "eigh_tridiagonal",
    "eigvalsh_tridiagonal",
    "solve_toeplitz",
    "matmul_toeplitz",
    "solve_circulant",
    "matrix_balance",
    "hessenberg",
    "schur",
    "rsf2csf",
    "qz",
    "ordqz",
    "cossin",
    "cdf2rdf",
    "sqrtm",
    "logm",
    "funm",
    "signm",
    "fractional_matrix_power",
    "solve_sylvester",
    "solve_continuous_lyapunov",
    "solve_discrete_lyapunov",
    "solve_lyapunov",
    "fiedler_companion",
    "cho_solve_banded",
    "eig_banded",
    "eigvals_banded",
    "expm_cond",
    "qr_multiply",
    "clarkson_woodruff_transform",
    "ldl",
    "solve_continuous_are",
    "solve_discrete_are",
    "qr_update",
    "qr_insert",
    "qr_delete",
]

solve_lyapunov = solve_continuous_lyapunov  # (SciPy: the same object; given its public face below)

# Each routine's public face: the compiled function, plus the route for dask arrays (before the
# call for the routines of sizes and of tuple arguments, whose conversions would compute a dask array).
_dispatch.expose(
    globals(),
    __all__,
    "linalg",
    routed_first=(
        *("hilbert", "invhilbert", "helmert", "dft", "hadamard", "pascal", "invpascal"),
        *("cho_solve", "lu_solve", "solve_banded", "solve_toeplitz", "matmul_toeplitz"),
        "fractional_matrix_power",  # converts its power t itself
        "cho_solve_banded",  # unpacks its (cb, lower) pair itself
        "clarkson_woodruff_transform",  # draws its sketch from the input's shape first
        "qr_insert",  # converts its index k itself
        "qr_delete",  # converts its index k and count p itself
    ),
)
solve_lyapunov = solve_continuous_lyapunov  # (its public face, after expose)


def __getattr__(name: str) -> Any:
    if name == "LinAlgWarning":
        return _misc._linalg_warning()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names only (``__all__``, the routines) and, as in ``scipy.linalg``, its two exception classes."""
    return sorted([*__all__, "LinAlgError", "LinAlgWarning"])
