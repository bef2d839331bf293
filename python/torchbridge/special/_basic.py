"""``factorial``, ``comb``, ``perm``, ``bernoulli``, ``euler`` and the Bessel zeros
(``jn_zeros`` and its siblings): the routines of SciPy's ``_basic.py`` written in
Python here.

Why Python: with ``exact=True`` SciPy returns Python integers of any size
(``factorial(25, exact=True)`` is 15511210043330985984000000), which only
Python's own ``math.factorial`` produces; the scalar rules around it follow
SciPy's Python code line by line. Arrays go to the compiled
``_factorial_array``, which parses ``extend`` in Rust.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .._core import special as _special

__all__ = ["factorial", "comb", "perm", "bernoulli", "euler", "jnyn_zeros", "jn_zeros", "jnp_zeros", "yn_zeros",
           "ynp_zeros"]

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


def comb(N, k, *, exact=False, repetition=False, device=None):
    """The number of combinations of N things taken k at a time.

    torchbridge: "N choose k" (``scipy.special.comb``) with SciPy's rules: 0 for
    ``N < 0``, ``k < 0`` or ``k > N``; with ``repetition=True`` the number of
    combinations with repetition, ``binom(N + k - 1, k)``. ``exact=False``
    computes ``binom`` by libtorch on arrays of any type (float64, float32 for
    two float32 arrays, as SciPy's ``asarray`` then ``binom``); ``exact=True``
    takes integral scalars and returns a Python int of any size, as SciPy.
    ``device=None`` (keyword-only): ``"cpu"``, ``"cuda"``, ``"cuda:N"`` or a
    ``torch.device`` computes there (``exact=False``), copying the inputs there
    and the result back; by default the computation runs where the arrays live.
    """
    if repetition:
        if exact:
            if k == 0 and int(N) == N and N >= 0:
                return 1
            return comb(N + k - 1, k, exact=True)
        return _special._comb_float(N, k, True, device=device)
    if exact:
        if int(N) == N and int(k) == k:
            return _comb_int(int(N), int(k))
        raise ValueError("Non-integer `N` and `k` with `exact=True` is not supported.")
    return _special._comb_float(N, k, False, device=device)


def _comb_int(n: int, k: int) -> int:
    """SciPy's ``_comb_int``: 0 outside ``0 <= k <= n``, else ``math.comb``."""
    if n < 0 or k < 0 or k > n:
        return 0
    if min(k, n - k) > _EXACT_LIMIT:
        raise MemoryError(
            f"comb({n}, {k}, exact=True) is a Python integer of more than {_EXACT_LIMIT} bits: "
            f"too large to compute (torchbridge computes exact combinations up to min(k, N - k) = {_EXACT_LIMIT})"
        )
    return math.comb(n, k)


def perm(N, k, exact=False, *, device=None):
    """Permutations of N things taken k at a time, i.e., k-permutations of N.

    torchbridge: the number of k-permutations of N (``scipy.special.perm``), 0
    for ``k > N``, ``N < 0`` or ``k < 0``. ``exact=False`` computes
    ``poch(N - k + 1, k)`` by libtorch on arrays of any type (SciPy's dtypes);
    ``exact=True`` takes integral scalars (or size-1 arrays) and returns a
    Python int of any size, as SciPy.
    ``device=None`` (keyword-only): ``"cpu"``, ``"cuda"``, ``"cuda:N"`` or a
    ``torch.device`` computes there (``exact=False``), copying the inputs there
    and the result back; by default the computation runs where the arrays live.
    """
    if exact:
        N = np.squeeze(N)[()]
        k = np.squeeze(k)[()]
        if not (np.isscalar(N) and np.isscalar(k)):
            raise ValueError("`N` and `k` must be scalar integers with `exact=True`.")
        floor_n, floor_k = int(N), int(k)
        if not (floor_n == N and floor_k == k):
            raise ValueError("Non-integer `N` and `k` with `exact=True` is not supported.")
        if (k > N) or (N < 0) or (k < 0):
            return 0
        if floor_k > _EXACT_LIMIT:
            raise MemoryError(
                f"perm({floor_n}, {floor_k}, exact=True) is too large to compute "
                f"(torchbridge computes exact permutations up to k = {_EXACT_LIMIT})"
            )
        return math.perm(floor_n, floor_k)
    return _special._perm_float(N, k, device=device)


def _check_count(n: Any) -> int:
    """SciPy's check of ``bernoulli``'s and ``euler``'s ``n``."""
    scalar = bool(np.isscalar(n))  # (not a TypeGuard: mypy would narrow ``n`` to NumPy's scalar union)
    if not scalar or n < 0:
        raise ValueError("n must be a non-negative integer.")
    return int(n)


def _to_float(numerator: int, denominator: int = 1) -> float:
    """``numerator / denominator`` correctly rounded, +-inf beyond the float range."""
    try:
        return numerator / denominator
    except OverflowError:
        return math.inf if (numerator > 0) == (denominator > 0) else -math.inf


def _tangent_numbers(m: int) -> list[int]:
    """The tangent numbers T_1..T_m (``tan x = sum T_k x^(2k-1) / (2k-1)!``),
    Brent and Harvey's integer recurrence."""
    t = [0] * (m + 1)
    if m >= 1:
        t[1] = 1
    for k in range(2, m + 1):
        t[k] = (k - 1) * t[k - 1]
    for k in range(2, m + 1):
        for j in range(k, m + 1):
            t[j] = (j - k) * t[j - 1] + (j - k + 2) * t[j]
    return t[1:]


def _secant_numbers(m: int) -> list[int]:
    """The secant numbers S_0..S_m (``sec x = sum S_k x^(2k) / (2k)!``),
    Brent and Harvey's integer recurrence."""
    s = [0] * (m + 1)
    s[0] = 1
    for k in range(1, m + 1):
        s[k] = k * s[k - 1]
    for k in range(1, m + 1):
        for j in range(k + 1, m + 1):
            s[j] = (j - k) * s[j - 1] + (j - k + 1) * s[j]
    return s


#: Beyond these indices the Bernoulli and Euler numbers exceed the float64 range
#: (the last finite ones are B(258) and E(186)).
_BERNOULLI_FINITE = 270
_EULER_FINITE = 200


def bernoulli(n, *, device=None):
    """Bernoulli numbers B0..Bn (inclusive).

    torchbridge: ``[B(0), ..., B(n)]`` (``scipy.special.bernoulli``, B(1) =
    -1/2) as a float64 numpy array, each value correctly rounded: the even
    ones from the exact tangent numbers in Python integers,
    ``B(2k) = (-1)^(k-1) 2k T_k / (4^k (4^k - 1))``, +-inf beyond the float64
    range (SciPy's Zhang-Jin series is up to 2e-12 off, at B(4)). At least 3
    values for ``n < 2``, as SciPy. ``device=None`` (keyword-only) is accepted
    as by every torchbridge routine; the numbers are computed on the host.
    """
    n = _check_count(n)
    size = max(n, 2) + 1
    out = np.zeros(size)
    out[0], out[1] = 1.0, -0.5
    half = size // 2 if size % 2 else (size - 1) // 2
    finite = min(half, _BERNOULLI_FINITE // 2)
    for k, t in enumerate(_tangent_numbers(finite), start=1):
        out[2 * k] = _to_float((-1) ** (k - 1) * 2 * k * t, 4**k * (4**k - 1))
    even = np.arange(2 * finite + 2, size, 2)
    out[even] = np.where((even // 2) % 2 == 1, np.inf, -np.inf)
    return out[: n + 1]


def euler(n, *, device=None):
    """Euler numbers E(0), E(1), ..., E(n).

    torchbridge: ``[E(0), ..., E(n)]`` (``scipy.special.euler``) as a float64
    numpy array, each value the correctly rounded exact integer (from the
    secant numbers in Python integers, ``E(2k) = (-1)^k S_k``), +-inf beyond
    the float64 range; the odd ones are 0. At least 3 values for ``n < 2``, as
    SciPy. ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the numbers are computed on the host.
    """
    n = _check_count(n)
    size = max(n, 2) + 1
    out = np.zeros(size)
    half = (size - 1) // 2
    finite = min(half, _EULER_FINITE // 2)
    for k, s in enumerate(_secant_numbers(finite)):
        out[2 * k] = _to_float((-1) ** k * s)
    even = np.arange(2 * finite + 2, size, 2)
    out[even] = np.where((even // 2) % 2 == 1, -np.inf, np.inf)
    return out[: n + 1]


# --- zeros of the integer-order Bessel functions ------------------------------------------------


def _bessel_function(kind: str, n: int, x: np.ndarray) -> np.ndarray:
    """``f(x)`` alone (see ``_bessel_values``): one kernel call for ``J_n``/``Y_n``, two for the derivatives."""
    bessel = _special.jv if kind[0] == "j" else _special.yv
    if kind.endswith("p"):
        return (bessel(float(n - 1), x) - bessel(float(n + 1), x)) / 2
    return bessel(float(n), x)


def _bessel_values(kind: str, n: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(f(x), f'(x))`` for ``f`` one of ``J_n``, ``J_n'``, ``Y_n``, ``Y_n'`` (``kind`` "j", "jp", "y", "yp"),
    from torchbridge's own ``jv``/``yv`` kernels: ``C_n' = (C_{n-1} - C_{n+1}) / 2`` and, for the
    derivatives, ``C_n'' = -C_n' / x - (1 - n^2 / x^2) C_n`` (Bessel's equation)."""
    bessel = _special.jv if kind[0] == "j" else _special.yv
    c = bessel(float(n), x)
    dc = (bessel(float(n - 1), x) - bessel(float(n + 1), x)) / 2
    if kind.endswith("p"):
        return dc, -dc / x - (1 - (n / x) ** 2) * c
    return c, dc


def _bessel_zeros(kind: str, n: int, nt: int) -> np.ndarray:
    """The first ``nt`` positive zeros of ``kind`` (see ``_bessel_values``), ``x = 0`` excluded.

    Consecutive zeros of these functions are more than 2 apart (they approach
    pi from above), so the sign changes of a grid of step 1/4 bracket each
    zero exactly once; Newton steps then refine each zero, a bisection of the
    shrinking bracket standing in for any step that would leave it, until a
    step moves by 2 ulps or less.
    """
    step = 0.25
    stop = (nt + n / 2 + 2) * np.pi + n  # beyond the nt-th zero: McMahon's (nt + n/2 - 1/4) pi, plus room
    while True:
        grid = np.arange(step, stop, step)
        f = _bessel_function(kind, n, grid)
        change = np.flatnonzero((np.signbit(f[:-1]) != np.signbit(f[1:])) & (f[:-1] != 0) & (f[1:] != 0))
        if change.size >= nt:
            break
        stop *= 2
    lo: Any = grid[change[:nt]]
    hi: Any = grid[change[:nt] + 1]
    lo_negative = np.signbit(_bessel_function(kind, n, lo))
    x: Any = (lo + hi) / 2
    for _ in range(100):
        value, slope = _bessel_values(kind, n, x)
        below = np.signbit(value) == lo_negative  # the zero lies above x
        lo, hi = np.where(below, x, lo), np.where(below, hi, x)
        newton = x - value / slope
        step = np.where((newton > lo) & (newton < hi), newton, (lo + hi) / 2)
        step = np.where(value == 0, x, step)
        converged = np.abs(step - x) <= 2 * np.spacing(x)
        x = step
        if converged.all():
            break
    return x


def _check_zeros_arguments(n: Any, nt: Any) -> tuple[int, int]:
    """SciPy's ``jnyn_zeros`` checks, with its messages."""
    scalars = all(np.isscalar(v) for v in (n, nt))  # (not as a type guard: n and nt stay Any)
    if not scalars:
        raise ValueError("Arguments must be scalars.")
    if math.floor(n) != n or math.floor(nt) != nt:
        raise ValueError("Arguments must be integers.")
    if nt <= 0:
        raise ValueError("nt > 0")
    return abs(int(n)), int(nt)


_ZEROS_DETAILS = """

    torchbridge: the first ``nt`` positive zeros (``x = 0`` excluded) as a float64 numpy array,
    {what}; bracketed on a grid and refined by safeguarded Newton steps to a few ulps, with
    torchbridge's own ``jv``/``yv`` kernels on the host. Negative ``n`` is ``|n|``, as SciPy.
    ``device=None`` (keyword-only) is accepted as by every torchbridge routine.
    """


def jnyn_zeros(n, nt, *, device=None):
    n, nt = _check_zeros_arguments(n, nt)
    return tuple(_bessel_zeros(kind, n, nt) for kind in ("j", "jp", "y", "yp"))


def jn_zeros(n, nt, *, device=None):
    n, nt = _check_zeros_arguments(n, nt)
    return _bessel_zeros("j", n, nt)


def jnp_zeros(n, nt, *, device=None):
    n, nt = _check_zeros_arguments(n, nt)
    return _bessel_zeros("jp", n, nt)


def yn_zeros(n, nt, *, device=None):
    n, nt = _check_zeros_arguments(n, nt)
    return _bessel_zeros("y", n, nt)


def ynp_zeros(n, nt, *, device=None):
    n, nt = _check_zeros_arguments(n, nt)
    return _bessel_zeros("yp", n, nt)


for _function, _summary, _what in [
    (jnyn_zeros, "Compute nt zeros of Bessel functions Jn(x), Jn'(x), Yn(x), and Yn'(x).",
     "one array each for Jn, Jn', Yn and Yn' (``scipy.special.jnyn_zeros``)"),
    (jn_zeros, "Compute zeros of integer-order Bessel functions Jn.", "the zeros of Jn (``scipy.special.jn_zeros``)"),
    (jnp_zeros, "Compute zeros of integer-order Bessel function derivatives Jn'.",
     "the zeros of Jn' (``scipy.special.jnp_zeros``)"),
    (yn_zeros, "Compute zeros of integer-order Bessel function Yn(x).",
     "the zeros of Yn (``scipy.special.yn_zeros``)"),
    (ynp_zeros, "Compute zeros of integer-order Bessel function derivatives Yn'(x).",
     "the zeros of Yn' (``scipy.special.ynp_zeros``)"),
]:
    _function.__doc__ = _summary + _ZEROS_DETAILS.format(what=_what)
del _function, _summary, _what
