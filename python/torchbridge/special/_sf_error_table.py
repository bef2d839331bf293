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


#: cephes' MAXGAM: beta and lbeta go through lgam beyond it
MAXGAM = 171.624376956302725
#: cephes' beta: the expansion for |a| > ASYMP |b| and a > ASYMP
BETA_ASYMP = 1e6


def _log_abs_gamma(x: np.ndarray) -> np.ndarray:
    import torch

    return torch.lgamma(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float64))).numpy()


def _beta_reports(a: np.ndarray, b: np.ndarray, log: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which elements Cephes' ``beta`` (``log`` False) or ``lbeta`` reports, as three masks:
    "beta: overflow", "lbeta: overflow", "lgam: singularity" (beta.h's branches in order)."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    a_negint = (a <= 0) & (a == np.floor(a))
    b_negint = (b <= 0) & (b == np.floor(b)) & ~a_negint
    a_int, b_int = a == _as_int(a), b == _as_int(b)
    # a non-positive integer: beta_negint(a, b) recurs into beta(1 - a - b, b), silent only when b is a
    # positive integer with 1 - a - b > 0 (1 - a in C int arithmetic: it wraps at INT_MIN); one too
    # large for an int goes to the overflow label
    int_min = float(np.iinfo(np.int32).min)
    negint_silent = (a_negint & a_int & (a != int_min) & b_int & (b > 0) & (1 - a - b > 0)) | (
        b_negint & b_int & (b != int_min) & a_int & (a > 0) & (1 - a - b > 0)
    )
    negint_loud = (a_negint | b_negint) & ~negint_silent
    negint_lbeta = negint_loud & ((a_negint & a_int) | (b_negint & b_int))
    beta_overflow = np.zeros(a.shape, dtype=bool)
    lbeta_overflow = negint_loud if log else negint_lbeta
    if not log:
        beta_overflow |= negint_loud & ~negint_lbeta
    rest = ~(a_negint | b_negint)
    big = np.where(np.abs(a) < np.abs(b), b, a)
    small = np.where(np.abs(a) < np.abs(b), a, b)
    rest &= ~((np.abs(big) > BETA_ASYMP * np.abs(small)) & (big > BETA_ASYMP))
    y = big + small
    through_lgam = rest & ((np.abs(y) > MAXGAM) | (np.abs(big) > MAXGAM) | (np.abs(small) > MAXGAM))
    singular = through_lgam & (y <= 0) & (y == np.floor(y)) & np.isfinite(y)
    over: np.ndarray = np.zeros(a.size, dtype=bool)
    if not log and through_lgam.any():  # lgam(a) + lgam(b) - lgam(a + b) > MAXLOG
        at = np.flatnonzero(through_lgam)
        bf, sf, yf = big.ravel()[at], small.ravel()[at], y.ravel()[at]
        over[at] = _log_abs_gamma(bf) + (_log_abs_gamma(sf) - _log_abs_gamma(yf)) > MAXLOG
    # otherwise rgamma(a + b) = 1 / Gamma(a + b), inf where Cephes' reflection for a + b < -33
    # overflows in its denominator |pi / Gamma(a + b)| (before the division by pi)
    gamma_path = np.flatnonzero(rest & ~through_lgam & (y < -33))
    over[gamma_path] = np.log(np.pi) - _log_abs_gamma(y.ravel()[gamma_path]) > MAXLOG
    over = over.reshape(a.shape)
    if log:
        lbeta_overflow = lbeta_overflow | over
    else:
        beta_overflow |= over
    return beta_overflow, lbeta_overflow, singular


def _binom_reports(n: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """xsf's binom: the reports of ``lbeta(1 + n - k, 1 + k)`` (n >= 1e10 k > 0) or of
    ``beta(1 + n - k, 1 + k)`` (the general case), after its silent branches."""
    n, k = np.broadcast_arrays(np.asarray(n, dtype=np.float64), np.asarray(k, dtype=np.float64))
    silent = (n < 0) & (n == np.floor(n))
    kx = np.floor(k)
    product = (k == kx) & ((np.abs(n) > 1e-8) | (n == 0))
    nx = np.floor(n)
    kx = np.where((nx == n) & (kx > nx / 2) & (nx > 0), nx - kx, kx)
    silent |= product & (kx >= 0) & (kx < 20)
    via_lbeta = ~silent & (n >= 1e10 * k) & (k > 0)
    silent |= via_lbeta | (k > 1e8 * np.abs(n))
    lb = _beta_reports(1 + n - k, 1 + k, log=True)
    b = _beta_reports(1 + n - k, 1 + k, log=False)
    return (
        b[0] & ~silent,
        (lb[1] & via_lbeta) | (b[1] & ~silent),
        (lb[2] & via_lbeta) | (b[2] & ~silent),
    )


def _beta_rows(name: str) -> list[tuple[str, str, Predicate]]:
    """beta, betaln and binom: Cephes' beta/lbeta reports under their own names (and lgam's)."""
    reports = {
        "beta": lambda a, b: _beta_reports(a, b, log=False),
        "betaln": lambda a, b: _beta_reports(a, b, log=True),
        "binom": _binom_reports,
    }[name]
    return (
        _row("beta", ("overflow", lambda a, b, out: reports(a, b)[0]))
        + _row("lbeta", ("overflow", lambda a, b, out: reports(a, b)[1]))
        + _row("lgam", ("singular", lambda a, b, out: reports(a, b)[2]))
    )


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
    "beta": _beta_rows("beta"),
    "betaln": _beta_rows("betaln"),
    "binom": _beta_rows("binom"),
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


#: AMOS's exponent limits ELIM and ALIM for IEEE double (zairy/zbiry; csrc/airy_complex.h)
AMOS_ELIM = 2.303 * (1021 * 0.30102999566398120 - 3.0)
AMOS_ALIM = AMOS_ELIM - 2.303 * (0.30102999566398120 * 52)


def _airy_overflow(z: np.ndarray) -> np.ndarray:
    """AMOS's overflow test of complex airy (kode 1) on Re zeta, as zairy/zbiry clamp it."""
    zr = (2.0 / 3.0 * (z * np.sqrt(z))).real
    zr = np.where(z.real < 0, -np.abs(zr), zr)
    zr = np.where((z.imag == 0) & (z.real <= 0), 0.0, np.abs(zr))
    return (np.abs(z) > 1) & (zr >= AMOS_ALIM) & (zr + 0.25 * np.log(np.abs(z)) > AMOS_ELIM)


def _complex_airy(name: str, scaled: bool) -> list[tuple[str, str, Predicate]]:
    """Complex airy, airye: AMOS's error codes as xsf reports them, one report per output's
    call (the result here is Ai's): no result past AMOS's range (and at infinities), loss of
    precision from |z| ~ 1024 on where no output over- or underflows first; airy's overflow
    (AMOS's test, and a nan |z|, whose comparisons fail in zairy) and underflow (Ai = 0; Ai' alone
    underflowing, in slivers ~1e-5 wide next to Ai's threshold, is not reported)."""
    within = lambda z: np.abs(z) < AIRY_NO_RESULT  # noqa: E731
    checks: list[tuple[str, Predicate]] = [("no_result", lambda z, out: np.abs(z) >= AIRY_NO_RESULT)]
    if scaled:
        checks.append(("loss", lambda z, out: (np.abs(z) >= AIRY_LOSS) & within(z)))
    else:
        checks += [
            ("loss", lambda z, out: (np.abs(z) >= AIRY_LOSS) & within(z) & ~_airy_overflow(z)),
            ("underflow", lambda z, out: within(z) & (np.abs(z) > 1) & (out == 0)),
            ("overflow", lambda z, out: np.isnan(np.abs(z)) | (within(z) & _airy_overflow(z))),
        ]
    return _row(f"{name}:", *checks)


#: The rows of the complex loops (their arguments complex128, the result last):
#: xsf's complex loggamma, gamma and digamma report the poles, lambertw the
#: branches k != 0 at z = 0 (its Python-level k and tol filled in), airy and
#: airye AMOS's error codes. (Complex hyp0f1 reports what its AMOS Bessel
#: calls report, under their names, "iv:: overflow": not reproduced.)
COMPLEX_TABLE: dict[str, list[tuple[str, str, Predicate]]] = {
    "airy": _complex_airy("airy", scaled=False),
    "airye": _complex_airy("airye", scaled=True),
    "loggamma": _row("loggamma", ("singular", lambda z, out: _complex_pole(z))),
    "gamma": _row("gamma", ("singular", lambda z, out: _complex_pole(z))),
    "digamma": _row("digamma", ("singular", lambda z, out: _complex_pole(z))),
    "lambertw": _row("lambertw", ("singular", lambda z, k, tol, out: (z == 0) & (np.trunc(k.real) != 0))),
}
COMPLEX_TABLE["psi"] = COMPLEX_TABLE["digamma"]
