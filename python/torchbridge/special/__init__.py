"""SciPy-compatible special functions, computed by libtorch.

Swap ``from scipy import special`` for ``from torchbridge import special``:
same names, same parameters, results in the caller's array type. For numpy
input the result's type (ndarray or numpy scalar), dtype and shape match
SciPy's, including its loop selection (``erfinv`` on float16 gives float32,
``xlogy(float32_array, 2.0)`` float64) and NumPy's weak Python scalars.

Ufuncs have SciPy's signature: its positional arguments, ``out=None`` and the
keyword-only ufunc options at their defaults (``where=True``,
``casting='same_kind'``, ``order='K'``, ``dtype=None``, ``subok=True``,
``signature=None``). Those options at other values, ``out`` arrays, complex
input to a ufunc without a
complex kernel here (the erf and gamma families, digamma, ndtr, log_ndtr,
exp1, expi, spence, xlogy, xlog1py, expm1, log1p, lambertw, the Bessel
functions jv ... kve, hankel1 ... hankel2e and spherical_jn ... spherical_kn
have one, CPU only; the Bessel kernels take CUDA input there and back) and a
few parameter values SciPy accepts raise ``UnsupportedParameterError`` (a
``NotImplementedError``) naming what is missing. ``sinc`` has ``numpy.sinc``'s
semantics: SciPy has no ``sinc``.

Every routine also takes a keyword-only ``device=None``: where to compute,
with the copies that costs (see :mod:`torchbridge._device`); by default the
computation runs where the arrays live, CUDA included.

The ufuncs are the compiled functions of ``torchbridge._core.special``
themselves, generated from one table in the Rust sources
(``src/ops/special/ufuncs.rs``; ``_core.special.UFUNCS`` lists them), each its
own public face: the route for dask arrays, the ``errstate`` report and pandas
results are done in the compiled call. The other routines have the Python
faces of ``torchbridge._dispatch``.
"""

from __future__ import annotations

from typing import Any

from .. import _dispatch

# `import *`: exactly the ufunc table's names (the compiled module's __all__ is its UFUNCS)
from .._core import special as _special
from .._core.special import *  # noqa: F403 (the table's names, by design)
from .._core.special import (
    assoc_legendre_p,
    lambertw,
    legendre_p,
    log_softmax,
    logsumexp,
    multigammaln,
    polygamma,
    sinc,
    softmax,
    sph_harm_y,
    sph_legendre_p,
    spherical_in,
    spherical_jn,
    spherical_kn,
    spherical_yn,
    zeta,
)
from . import _errstate, _orthogonal
from ._basic import bernoulli, comb, euler, factorial, jn_zeros, jnp_zeros, jnyn_zeros, perm, yn_zeros, ynp_zeros
from ._errstate import errstate, geterr, seterr
from ._orthogonal import *  # noqa: F403 (the Gauss quadrature roots_*: its __all__)

__all__ = list(_special.UFUNCS) + [
    "psi",
    "polygamma",
    "multigammaln",
    "factorial",
    "comb",
    "perm",
    "bernoulli",
    "euler",
    "jnyn_zeros",
    "jn_zeros",
    "jnp_zeros",
    "yn_zeros",
    "ynp_zeros",
    *_orthogonal.__all__,  # the Gauss quadrature roots_*
    "sinc",
    "zeta",
    "lambertw",
    "spherical_jn",
    "spherical_yn",
    "spherical_in",
    "spherical_kn",
    # SciPy's multi-ufuncs (_multiufuncs.py)
    "sph_harm_y",
    "sph_legendre_p",
    "assoc_legendre_p",
    "legendre_p",
    "logsumexp",
    "softmax",
    "log_softmax",
    # SciPy's error handling (scipy.special._ufuncs / _sf_error); the two classes come from __getattr__
    "errstate",
    "geterr",
    "seterr",
    "SpecialFunctionError",  # noqa: F405 (module __getattr__)
    "SpecialFunctionWarning",  # noqa: F405 (module __getattr__)
]
_ZEROS = ("jnyn_zeros", "jn_zeros", "jnp_zeros", "yn_zeros", "ynp_zeros")
_NOT_ROUTINES = ("psi", "errstate", "geterr", "seterr", "SpecialFunctionError", "SpecialFunctionWarning")

# Each routine's public face: the compiled function, plus the route for dask arrays.
# (each face tests one gate after the call, the errstate seam: see _errstate)
_dispatch.expose(
    globals(),
    [name for name in __all__ if name not in _NOT_ROUTINES],
    "special",
    # the routines of sizes only (no array arguments): a dask scalar is routed before the call
    routed_first=("bernoulli", "euler", *_ZEROS, *_orthogonal.__all__),
    reporter=(_errstate.CELLS, _errstate.report),
    ufuncs=frozenset(_special.UFUNCS),
)
psi = digamma  # noqa: F405 (SciPy's psi is the digamma ufunc itself)


def __getattr__(name: str) -> Any:
    if name == "SpecialFunctionWarning":
        return _errstate.warning_class()
    if name == "SpecialFunctionError":
        return _errstate.error_class()
    if not name.startswith("_") and _in_scipy_special(name):
        raise AttributeError(
            f"torchbridge.special has no {name!r}: scipy.special.{name} is not implemented in torchbridge "
            f"(yet). Call SciPy itself (scipy.special.{name}, on NumPy arrays), or build it from torch ops "
            "on any array with torchbridge.torch (the torch namespace) or torchbridge.ops (ATen operators)"
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _in_scipy_special(name: str) -> bool:
    """Whether ``name`` is public in ``scipy.special`` (imported only here, on a miss, where SciPy is installed)."""
    import importlib
    import importlib.util

    if importlib.util.find_spec("scipy") is None:
        return False
    return name in getattr(importlib.import_module("scipy.special"), "__all__", ())


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
