"""SciPy-compatible special functions, computed by libtorch.

Swap ``from scipy import special`` for ``from torchbridge import special``:
same names, same parameters, results in the caller's array type. For numpy
input the result's type (ndarray or numpy scalar), dtype and shape match
SciPy's, including its loop selection (``erfinv`` on float16 gives float32,
``xlogy(float32_array, 2.0)`` float64) and NumPy's weak Python scalars.

Ufuncs take SciPy's positional arguments and ``out=None``; other ufunc keywords
(``where``, ``dtype``, ...), ``out`` arrays, complex input and a few parameter
values SciPy accepts raise ``UnsupportedParameterError`` (a
``NotImplementedError``) naming what is missing. ``sinc`` has ``numpy.sinc``'s
semantics: SciPy has no ``sinc``.

Every routine also takes a keyword-only ``device=None``: where to compute,
with the copies that costs (see :mod:`torchbridge._device`); by default the
computation runs where the arrays live, CUDA included.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from . import _device
from ._core import special as _special

erf = _special.erf
erfc = _special.erfc
erfcx = _special.erfcx
erfinv = _special.erfinv
erfcinv = _special.erfcinv
expit = _special.expit
logit = _special.logit
log_expit = _special.log_expit
gamma = _special.gamma
gammaln = _special.gammaln
loggamma = _special.loggamma
digamma = _special.digamma
psi = digamma
polygamma = _special.polygamma
multigammaln = _special.multigammaln
gammainc = _special.gammainc
gammaincc = _special.gammaincc
beta = _special.beta
betaln = _special.betaln
binom = _special.binom
i0 = _special.i0
i0e = _special.i0e
i1 = _special.i1
i1e = _special.i1e
j0 = _special.j0
j1 = _special.j1
y0 = _special.y0
y1 = _special.y1
k0 = _special.k0
k0e = _special.k0e
k1 = _special.k1
k1e = _special.k1e
ndtr = _special.ndtr
ndtri = _special.ndtri
log_ndtr = _special.log_ndtr
xlogy = _special.xlogy
xlog1py = _special.xlog1py
entr = _special.entr
rel_entr = _special.rel_entr
kl_div = _special.kl_div
huber = _special.huber
pseudo_huber = _special.pseudo_huber
sinc = _special.sinc
zeta = _special.zeta
logsumexp = _special.logsumexp
softmax = _special.softmax
log_softmax = _special.log_softmax
expm1 = _special.expm1
exp2 = _special.exp2
exp10 = _special.exp10
log1p = _special.log1p
cbrt = _special.cbrt
cosm1 = _special.cosm1
exprel = _special.exprel
sindg = _special.sindg
cosdg = _special.cosdg
eval_chebyt = _special.eval_chebyt
eval_chebyu = _special.eval_chebyu
eval_hermite = _special.eval_hermite
eval_hermitenorm = _special.eval_hermitenorm
eval_laguerre = _special.eval_laguerre
eval_legendre = _special.eval_legendre
boxcox = _special.boxcox
inv_boxcox = _special.inv_boxcox
boxcox1p = _special.boxcox1p
inv_boxcox1p = _special.inv_boxcox1p
chdtr = _special.chdtr
chdtrc = _special.chdtrc
pdtr = _special.pdtr
pdtrc = _special.pdtrc

_NEEDS_COMPLEX = (
    "In order to use non-integer arguments, you must opt into this by passing "
    "`extend='complex'`. Note that this changes the result for all negative "
    "arguments (which by default return 0)."
)


def factorial(n, exact=False, extend="zero"):
    """The factorial ``n!`` (``scipy.special.factorial``), as ``gamma(n + 1)``.

    Same signature and result types as SciPy: NumPy scalars for scalars,
    float64 arrays for arrays with ``extend='zero'`` (0 for ``n < 0``), and with
    ``exact=True`` Python ints for scalars and int64 arrays up to ``20!``
    (beyond, SciPy's object arrays have no DLPack equivalent:
    ``UnsupportedParameterError``). Complex ``n`` is not supported.
    """
    if extend not in ("zero", "complex"):
        raise ValueError(
            f"argument `extend` must be either 'zero' or 'complex', received: {extend}"
        )
    if exact and extend == "complex":
        raise ValueError("Incompatible options: `exact=True` and `extend='complex'`")
    if not _is_scalar(n):
        return _special._factorial_array(n, bool(exact), extend)
    if n is not None and (
        isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Number)
    ):
        raise ValueError(
            f"Unsupported data type for `n` in factorial: {type(n)}\n"
            "Permitted data types are integers and floating point numbers, "
            "as well as complex numbers if `extend='complex' is passed."
        )
    is_complex = isinstance(n, numbers.Complex) and not isinstance(n, numbers.Real)
    if is_complex and extend != "complex":
        raise ValueError(_NEEDS_COMPLEX)
    if n is None or np.isnan(n):
        return np.complex128("nan+nanj") if is_complex else np.float64("nan")
    if extend == "zero" and n < 0:
        return 0 if exact else np.float64(0)
    if n in {0, 1}:
        return 1 if exact else np.float64(1)
    is_integer = isinstance(n, numbers.Integral)
    if exact and is_integer:
        return math.factorial(int(n))
    if exact:
        raise ValueError(f"`exact=True` only supports integers, cannot use data type {type(n)}")
    if is_complex:
        from .errors import UnsupportedParameterError

        raise UnsupportedParameterError(
            "special.factorial on complex input is not implemented (libtorch has no complex gamma)"
        )
    result = gamma(n + 1)
    if np.isinf(result) and n == -1:
        return np.float64("nan")
    return result


def _is_scalar(n) -> bool:
    """A Python or NumPy scalar (or None), as SciPy's scalar branch sees it."""
    if n is None or isinstance(n, (numbers.Number, np.generic)):
        return True
    return False


__all__ = [
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "erfcinv",
    "expit",
    "logit",
    "log_expit",
    "gamma",
    "gammaln",
    "loggamma",
    "digamma",
    "psi",
    "polygamma",
    "multigammaln",
    "gammainc",
    "gammaincc",
    "beta",
    "betaln",
    "binom",
    "factorial",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "j0",
    "j1",
    "y0",
    "y1",
    "k0",
    "k0e",
    "k1",
    "k1e",
    "ndtr",
    "ndtri",
    "log_ndtr",
    "xlogy",
    "xlog1py",
    "entr",
    "rel_entr",
    "kl_div",
    "huber",
    "pseudo_huber",
    "sinc",
    "zeta",
    "logsumexp",
    "softmax",
    "log_softmax",
    "expm1",
    "exp2",
    "exp10",
    "log1p",
    "cbrt",
    "cosm1",
    "exprel",
    "sindg",
    "cosdg",
    "eval_chebyt",
    "eval_chebyu",
    "eval_hermite",
    "eval_hermitenorm",
    "eval_laguerre",
    "eval_legendre",
    "boxcox",
    "inv_boxcox",
    "boxcox1p",
    "inv_boxcox1p",
    "chdtr",
    "chdtrc",
    "pdtr",
    "pdtrc",
]


# Every routine takes `device=` (see torchbridge._device); the ufuncs and the
# routines that already have SciPy's own `device` keep theirs.
for _name in sorted(set(__all__) - _device.TAKES_NO_ARRAYS):
    globals()[_name] = _device.takes_device(globals()[_name])
del _name
