"""``factorial``, the one routine of this family written in Python.

Why Python: with ``exact=True`` SciPy returns Python integers of any size
(``factorial(25, exact=True)`` is 15511210043330985984000000), which only
Python's own ``math.factorial`` produces; the scalar rules around it follow
SciPy's Python code line by line. Arrays go to the compiled
``_factorial_array``, which parses ``extend`` in Rust.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._core import special as _special

__all__ = ["factorial"]

_NEEDS_COMPLEX = (
    "In order to use non-integer arguments, you must opt into this by passing "
    "`extend='complex'`. Note that this changes the result for all negative "
    "arguments (which by default return 0)."
)

#: ``exact=True`` on a scalar beyond this computes a Python integer of more
#: than about 2**28 bits (32 MiB, minutes of CPU time): refused as too large
#: (SciPy would run ``math.factorial`` until memory or patience runs out).
_EXACT_LIMIT = 10**7


def factorial(n, exact=False, extend="zero", *, device=None):
    """The factorial of a number or array of numbers.

    torchbridge: ``n!`` (``scipy.special.factorial``) computed by libtorch as
    ``gamma(n + 1)``. Same signature and result types as SciPy: NumPy scalars for scalars,
    float64 arrays for arrays with ``extend='zero'`` (0 for ``n < 0``), and with
    ``exact=True`` Python ints for scalars and int64 arrays up to ``20!``
    (beyond, SciPy's object arrays have no DLPack equivalent:
    ``UnsupportedParameterError``). Complex ``n`` is not supported.
    ``device=None`` (keyword-only): ``"cpu"``, ``"cuda"``, ``"cuda:N"`` or a
    ``torch.device`` computes there, copying the input there and the result
    back; by default the computation runs where the array lives (see
    :mod:`torchbridge._device`).
    """
    if extend not in ("zero", "complex"):
        raise ValueError(
            f"argument `extend` must be either 'zero' or 'complex', received: {extend}"
        )
    if exact and extend == "complex":
        raise ValueError("Incompatible options: `exact=True` and `extend='complex'`")
    if not _is_scalar(n):
        return _special._factorial_array(n, bool(exact), extend, device=device)
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
        if n > _EXACT_LIMIT:
            raise MemoryError(
                f"factorial({n}, exact=True) is a Python integer of about "
                f"{math.lgamma(float(n) + 1) / math.log(2) / 8 / 2**20:.3g} MiB: "
                f"too large to compute (torchbridge computes exact factorials up to {_EXACT_LIMIT})"
            )
        return math.factorial(int(n))
    if exact:
        raise ValueError(
            f"`exact=True` only supports integers, cannot use data type {type(n)}"
        )
    if is_complex:
        from ..errors import UnsupportedParameterError

        raise UnsupportedParameterError(
            "special.factorial on complex input is not implemented (libtorch has no complex gamma)"
        )
    result = _special.gamma(n + 1, device=device)
    if np.isinf(result) and n == -1:
        return np.float64("nan")
    return result


def _is_scalar(n) -> bool:
    """A Python or NumPy scalar (or None), as SciPy's scalar branch sees it."""
    return n is None or isinstance(n, (numbers.Number, np.generic))
