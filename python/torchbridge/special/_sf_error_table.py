"""Which routine reports what, as SciPy's kernels do (``sf_error`` calls in
xsf/cephes): for each routine of :mod:`torchbridge.special`, the list of
``(category, message, predicate)`` that :func:`._errstate.report` checks.

Each predicate takes the routine's inputs and its result as float64 NumPy
arrays (broadcast together, result last) and says which elements SciPy
reports. The rows were read off SciPy itself: for every routine here,
``tests/python/special/test_errstate.py`` compares the category and message
of each element of a grid of edge inputs (negative, zero, signed zeros,
integers, huge, infinite, nan) with what ``scipy.special`` reports on it
under ``errstate(all="warn")``. A routine or category SciPy reports that is
not here (many come from the floating-point status flags, see
:mod:`._errstate`) is not reported by torchbridge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._errstate import MESSAGES

Predicate = Callable[..., Any]

#: cephes' MAXLOG: log(DBL_MAX)
MAXLOG = 7.09782712893383996843e2


def _row(name: str, *checks: tuple[str, Predicate]) -> list[tuple[str, str, Predicate]]:
    return [(category, f"scipy.special/{name}: {MESSAGES[category]}", f) for category, f in checks]


def _nonpositive_integer(x: np.ndarray) -> np.ndarray:
    return (x <= 0) & (x == np.floor(x))


def _negative_integer(x: np.ndarray) -> np.ndarray:
    return (x < 0) & (x == np.floor(x)) & np.isfinite(x)


def _any_nan(*a: np.ndarray) -> np.ndarray:
    return np.logical_or.reduce([np.isnan(x) for x in a])


def _as_int(x: np.ndarray) -> np.ndarray:
    """C's cast of a double to int as SciPy's integer loops do it (nan, inf: INT_MIN)."""
    out = np.full(x.shape, float(np.iinfo(np.int32).min))
    ok = np.isfinite(x) & (np.abs(x) < 2.0**31)
    out[ok] = np.trunc(x[ok])
    return out


def _bessel_k_y(name: str) -> list[tuple[str, str, Predicate]]:
    return _row(name, ("singular", lambda x, out: x == 0), ("domain", lambda x, out: x < 0))


def _beta_domain(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    return ((a < 0) | (b < 0) | (x < 0) | (x > 1)) & ~_any_nan(a, b, x)


def _erfc_underflow(x: np.ndarray) -> np.ndarray:
    return x * x > MAXLOG


#: AMOS's limits for real x (zairy/zbiry, as SciPy's airy and airye call them): no result from
#: |x| = 1048575.99967 on (about 2**20), loss of precision from |x| = 1023.99999984 on (about 2**10),
#: read off SciPy; airy's Ai underflows and Bi overflows past these x (csrc/cephes_misc.cpp)
AIRY_NO_RESULT = 1048575.9996744784
AIRY_LOSS = 1023.999999841054
AIRY_UNDERFLOW = 103.09682650112123
AIRY_OVERFLOW = 103.28277994600522


def _airy(name: str, scaled: bool) -> list[tuple[str, str, Predicate]]:
    # SciPy's messages for AMOS's error codes name the routine with a second colon ("airy:: overflow")
    within = lambda x: np.abs(x) < AIRY_NO_RESULT  # noqa: E731
    checks: list[tuple[str, Predicate]] = [("no_result", lambda x, out: np.abs(x) >= AIRY_NO_RESULT)]
    if scaled:
        checks.append(("loss", lambda x, out: (np.abs(x) >= AIRY_LOSS) & within(x)))
    else:
        checks += [
            ("loss", lambda x, out: (x <= -AIRY_LOSS) & within(x)),
            ("underflow", lambda x, out: (x >= AIRY_UNDERFLOW) & within(x)),
            ("overflow", lambda x, out: (x >= AIRY_OVERFLOW) & within(x)),
        ]
    return _row(f"{name}:", *checks)


def _carlson_domain(*args: np.ndarray) -> np.ndarray:
    """xsf's real Carlson integrals: a negative or nan argument."""
    return np.logical_or.reduce([(a < 0) | np.isnan(a) for a in args])


def _zeros(*args: np.ndarray) -> np.ndarray:
    return np.sum([np.asarray(a == 0, dtype=int) for a in args], axis=0)


def _binomial_n(k: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """bdtr's ``ddd->d`` loop: n cast to int (an infinite n returns nan, unreported), k floored."""
    return np.isnan(k) | ~np.isfinite(n), _as_int(n)


def _bdtr_domain(k: np.ndarray, n: np.ndarray, p: np.ndarray, *, k_negative: bool, inverse: bool) -> np.ndarray:
    """bdtr (k < 0 refused), bdtrc (k < 0 gives 1) and bdtri (also n == k refused, a nan y checked)."""
    skip, n_int = _binomial_n(k, n)
    if not inverse:
        skip |= np.isnan(p)
    fk = np.floor(k)
    bad = (p < 0) | (p > 1) | ((n_int <= fk) if inverse else (n_int < fk))
    if k_negative:
        bad |= fk < 0
    return bad & ~skip


def _incbi_domain(a: np.ndarray, b: np.ndarray, y: np.ndarray) -> np.ndarray:
    """betaincinv/betainccinv: non-positive or infinite (but not (1, inf)) shapes, y outside [0, 1]."""
    infinite = (np.isinf(a) & (b != 1)) | (np.isinf(b) & (a != 1))
    inside = (y > 0) & (y < 1)
    return ((a <= 0) | (b <= 0) | (y < 0) | (y > 1) | (infinite & inside)) & ~_any_nan(a, b, y)


def _nbdtr_domain(k: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """nbdtr/nbdtrc/nbdtri's ``ddd->d`` loops: k and n cast to int, a nan k or n unreported."""
    return ((p < 0) | (p > 1) | (_as_int(k) < 0)) & ~_any_nan(k, n)


def _yn(n: np.ndarray, x: np.ndarray, orders: Callable[[np.ndarray], np.ndarray], check: Callable[..., Any]) -> Any:
    """yn's ``dd->d`` loop: n cast to int; |n| <= 1 is y0/y1 under their own names."""
    return check(x) & orders(np.abs(_as_int(n))) & ~_any_nan(n, x)


def _yn_checks(orders: Callable[[np.ndarray], np.ndarray]) -> tuple[tuple[str, Predicate], ...]:
    # (a closure per order: report() counts the predicates' parameters, so no default arguments)
    return (
        ("domain", lambda n, x, out: _yn(n, x, orders, lambda x: x < 0)),
        ("singular", lambda n, x, out: _yn(n, x, orders, lambda x: x == 0)),
    )


def _yn_rows() -> list[tuple[str, str, Predicate]]:
    orders = (("yn", lambda m: m >= 2), ("y1", lambda m: m == 1), ("y0", lambda m: m == 0))
    return [row for name, order in orders for row in _row(name, *_yn_checks(order))]


#: cephes' MINL10: log10 of the smallest normal double; SciPy's exp10 gives 0 below it
#: (torchbridge gives the subnormal value) and reports underflow
MINL10 = -3.08254715559916743851e2

TABLE: dict[str, list[tuple[str, str, Predicate]]] = {
    "sindg": _row("sindg", ("no_result", lambda x, out: np.abs(x) > 1e14)),
    "cosdg": _row("cosdg", ("no_result", lambda x, out: np.abs(x) > 1e14)),
    "exp10": _row("exp10", ("underflow", lambda x, out: x < MINL10)),
    # xsf's real Carlson integrals name themselves "(real)"
    "elliprc": _row(
        "elliprc (real)",
        (
            "domain",
            lambda x, y, out: ((x < 0) & ~(y <= x))
            | np.isnan(x)
            | (np.isnan(y) & (x < 0))
            | (y == 0)
            | ((x == -np.inf) & (y == -np.inf)),
        ),
    ),
    "elliprf": _row(
        "elliprf (real)",
        ("domain", lambda x, y, z, out: _carlson_domain(x, y, z)),
        (
            "singular",
            lambda x, y, z, out: ~_carlson_domain(x, y, z) & (_zeros(x, y, z) >= 2) & ~np.isinf(x + y + z),
        ),
    ),
    "elliprd": _row(
        "elliprd (real)",
        ("domain", lambda x, y, z, out: _carlson_domain(x, y, z)),
        (
            "singular",
            lambda x, y, z, out: ~_carlson_domain(x, y, z) & ((z == 0) | ((x == 0) & (y == 0) & (z != np.inf))),
        ),
    ),
    "bdtr": _row("bdtr", ("domain", lambda k, n, p, out: _bdtr_domain(k, n, p, k_negative=True, inverse=False))),
    "bdtrc": _row("bdtrc", ("domain", lambda k, n, p, out: _bdtr_domain(k, n, p, k_negative=False, inverse=False))),
    "bdtri": _row("bdtri", ("domain", lambda k, n, y, out: _bdtr_domain(k, n, y, k_negative=True, inverse=True))),
    "fdtr": _row("fdtr", ("domain", lambda a, b, x, out: ((a <= 0) | (b <= 0) | (x < 0)) & ~_any_nan(a, b, x))),
    "fdtrc": _row("fdtrc", ("domain", lambda a, b, x, out: ((a <= 0) | (b <= 0) | (x < 0)) & ~_any_nan(a, b, x))),
    "nbdtr": _row("nbdtr", ("domain", lambda k, n, p, out: _nbdtr_domain(k, n, p))),
    "nbdtrc": _row("nbdtr", ("domain", lambda k, n, p, out: _nbdtr_domain(k, n, p))),
    "nbdtri": _row("nbdtri", ("domain", lambda k, n, p, out: _nbdtr_domain(k, n, p))),
    "yn": _yn_rows(),
    "betaincinv": _row("betaincinv", ("domain", lambda a, b, y, out: _incbi_domain(a, b, y))),
    "betainccinv": _row("betainccinv", ("domain", lambda a, b, y, out: _incbi_domain(a, b, y))),
    "gamma": _row("Gamma", ("singular", lambda x, out: _negative_integer(x))),
    "gammaln": _row("lgam", ("singular", lambda x, out: _nonpositive_integer(x) & np.isfinite(x))),
    "loggamma": _row("lgam", ("singular", lambda x, out: x == 0)),
    "digamma": _row("psi", ("singular", lambda x, out: _nonpositive_integer(x) & np.isfinite(x))),
    "erf": _row("erfc", ("underflow", lambda x, out: _erfc_underflow(x)))
    + _row("erf", ("domain", lambda x, out: np.isnan(x))),
    "erfc": _row("erfc", ("underflow", lambda x, out: _erfc_underflow(x)), ("domain", lambda x, out: np.isnan(x))),
    "ndtr": _row("erfc", ("underflow", lambda x, out: _erfc_underflow(x * np.sqrt(0.5))))
    + _row("ndtr", ("domain", lambda x, out: np.isnan(x))),
    "log_ndtr": _row("erfc", ("underflow", lambda x, out: (x > 6) & _erfc_underflow(x * np.sqrt(0.5))))
    + _row("erfc", ("domain", lambda x, out: np.isnan(x))),
    "erfinv": _row("erfinv", ("domain", lambda x, out: np.abs(x) > 1)),
    "erfcinv": _row("erfcinv", ("domain", lambda x, out: ~((x >= 0) & (x <= 2)))),
    "ndtri": _row("ndtri", ("domain", lambda y, out: (y < 0) | (y > 1))),
    "ndtri_exp": _row("ndtri", ("domain", lambda y, out: y > 0)),
    "kolmogi": _row("kolmogi", ("domain", lambda p, out: (p < 0) | (p > 1))),
    "spence": _row("spence", ("domain", lambda x, out: x < 0)),
    "k0": _bessel_k_y("k0"),
    "k0e": _bessel_k_y("k0e"),
    "k1": _bessel_k_y("k1"),
    "k1e": _bessel_k_y("k1e"),
    "y0": _bessel_k_y("y0"),
    "y1": _bessel_k_y("y1"),
    "ellipk": _row("ellpk", ("singular", lambda m, out: m == 1), ("domain", lambda m, out: m > 1)),
    "ellipkm1": _row("ellpk", ("singular", lambda p, out: p == 0), ("domain", lambda p, out: p < 0)),
    "ellipe": _row("ellpe", ("domain", lambda m, out: m > 1)),
    "ellipj": _row("ellpj", ("domain", lambda u, m, out: (m < 0) | (m > 1) | np.isnan(m))),
    "smirnovi": _row(
        "smirnovi",
        # (a nan order: SciPy's loop gives nan before the kernel, unreported)
        ("domain", lambda n, p, out: ~np.isnan(p) & ~np.isnan(n) & (~((n >= 1) & (n < 2**31)) | (p < 0) | (p > 1))),
    ),
    "airy": _airy("airy", scaled=False),
    "airye": _airy("airye", scaled=True),
    "ellipkinc": _row(
        "ellik", ("singular", lambda phi, m, out: (m == 1) & (np.abs(phi) >= np.pi / 2) & np.isfinite(phi))
    ),
    "gammainc": _row("gammainc", ("domain", lambda a, x, out: ((a < 0) | (x < 0)) & ~_any_nan(a, x))),
    "gammaincc": _row("gammaincc", ("domain", lambda a, x, out: ((a < 0) | (x < 0)) & ~_any_nan(a, x))),
    "expn": _row(
        "expn",
        ("singular", lambda n, x, out: (x == 0) & ((_as_int(n) == 0) | (_as_int(n) == 1))),
        ("domain", lambda n, x, out: ((_as_int(n) < 0) | (x < 0)) & ~_any_nan(n, x)),
    ),
    "gammaincinv": _row("gammaincinv", ("domain", lambda a, y, out: ((a < 0) | (y < 0) | (y > 1)) & ~_any_nan(a, y))),
    "gammainccinv": _row(
        "gammainccinv", ("domain", lambda a, y, out: ((a < 0) | (y < 0) | (y > 1)) & ~_any_nan(a, y))
    ),
    "pdtr": _row("pdtr", ("domain", lambda k, m, out: (k < 0) | (m < 0))),
    "pdtrc": _row("pdtrc", ("domain", lambda k, m, out: (k < 0) | (m < 0))),
    "pdtri": _row(
        "pdtri", ("domain", lambda k, y, out: ~np.isnan(k) & ((_as_int(k) < 0) | (y < 0) | (y >= 1)))
    ),
    "chdtr": _row("chdtr", ("domain", lambda v, x, out: x < 0))
    + _row("gammainc", ("domain", lambda v, x, out: (v < 0) & (x >= 0))),
    "chdtrc": _row("chdtr", ("domain", lambda v, x, out: x < 0))
    + _row("gammaincc", ("domain", lambda v, x, out: (v < 0) & (x >= 0))),
    "chdtri": _row("chdtri", ("domain", lambda v, y, out: (y < 0) | (y > 1))),
    "stdtr": _row("stdtr", ("domain", lambda df, t, out: (df <= 0) & ~np.isnan(t))),
    "stdtrit": _row(
        "stdtrit",
        ("overflow", lambda df, p, out: (df > 0) & ((p == 0) | (p == 1))),
        ("domain", lambda df, p, out: ((df <= 0) | (p < 0) | (p > 1)) & ~_any_nan(df, p)),
    ),
    "betainc": _row("betainc", ("domain", lambda a, b, x, out: _beta_domain(a, b, x))),
    "betaincc": _row("betaincc", ("domain", lambda a, b, x, out: _beta_domain(a, b, x))),
    "fdtri": _row(
        "fdtri",
        (
            "domain",
            lambda a, b, y, out: ((a <= 0) | (b <= 0) | (y < 0) | (y > 1) | np.isinf(a) | np.isinf(b))
            & ~_any_nan(a, b, y),
        ),
    ),
    # Hurwitz's zeta(x, q) only (Riemann's, zeta(x), reports nothing in SciPy); cephes' zeta.c
    "zeta": _row(
        "zeta",
        ("singular", lambda x, q, out: ~(x < 1) & (x != 1) & _nonpositive_integer(q)),
        ("domain", lambda x, q, out: (x < 1) | ((q <= 0) & (q != np.floor(q)) & (x != np.floor(x)) & (x != 1))),
    ),
    # specfun's LPMV marks its overflow (x = -1 with a degree v != (int)v) with +-1e300, which
    # SciPy's pmv reports and turns into +-inf; so it does with a true value of +-1e300
    # (P_1(+-1e300), v = 1 or -2)
    "lpmv": _row(
        "pmv",
        (
            "overflow",
            lambda m, v, x, out: (m == np.floor(m))
            & (((x == -1) & (v != _as_int(v))) | ((m == 0) & ((v == 1) | (v == -2)) & (np.abs(x) == 1e300))),
        ),
    ),
    "eval_genlaguerre": [
        (
            "domain",
            "scipy.special/eval_genlaguerre: (domain error) polynomial defined only for alpha > -1",
            lambda n, alpha, x, out: alpha <= -1,
        )
    ],
}
TABLE["psi"] = TABLE["digamma"]


def _complex_pole(z: np.ndarray) -> np.ndarray:
    """The poles of Gamma as xsf's complex kernels test them: real z <= 0 with an integral value."""
    return (z.real <= 0) & (z == np.floor(z.real))


#: The rows of the complex loops (their arguments complex128, the result last):
#: xsf's complex loggamma, gamma and digamma report the poles, lambertw the
#: branches k != 0 at z = 0 (its Python-level k and tol filled in).
COMPLEX_TABLE: dict[str, list[tuple[str, str, Predicate]]] = {
    "loggamma": _row("loggamma", ("singular", lambda z, out: _complex_pole(z))),
    "gamma": _row("gamma", ("singular", lambda z, out: _complex_pole(z))),
    "digamma": _row("digamma", ("singular", lambda z, out: _complex_pole(z))),
    "lambertw": _row("lambertw", ("singular", lambda z, k, tol, out: (z == 0) & (np.trunc(k.real) != 0))),
}
COMPLEX_TABLE["psi"] = COMPLEX_TABLE["digamma"]
