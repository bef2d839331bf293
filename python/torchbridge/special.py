"""SciPy-compatible special functions, computed by libtorch.

Swap ``from scipy import special`` for ``from torchbridge import special``:
same names, same parameters, results in the caller's array type. For numpy
input the result's type, dtype and shape match SciPy's.
"""

from __future__ import annotations

from ._core import special as _special

erf = _special.erf
erfc = _special.erfc
expit = _special.expit
logit = _special.logit
gammaln = _special.gammaln

__all__ = ["erf", "erfc", "expit", "logit", "gammaln"]
