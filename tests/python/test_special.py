"""torchbridge.special against scipy.special: values, dtypes, types, edges, and
mpmath where SciPy itself is off.

Every ufunc has one row in CASES: how to sample its arguments, the float64
tolerance against SciPy and why that tolerance. Where torchbridge and SciPy
disagree by more than that, a test below says which one is right, with mpmath
(50 digits) as the judge.
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pytest
import scipy.special as sc
from conftest import LIBRARIES, library_type, to_library, to_numpy, with_device
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import torchbridge as tb

mp = pytest.importorskip("mpmath")
mp.mp.dps = 50

# The catalogue (psi is digamma's alias, zeta takes q, loggamma is real).
CATALOGUE = """erf erfc erfcx erfinv erfcinv expit logit log_expit gamma gammaln loggamma digamma
psi polygamma multigammaln gammainc gammaincc beta betaln binom factorial i0 i0e i1 i1e j0 j1 y0
y1 k0 k0e k1 k1e ndtr ndtri log_ndtr xlogy xlog1py entr rel_entr kl_div huber pseudo_huber sinc
zeta logsumexp softmax log_softmax expm1 exp2 exp10 log1p cbrt eval_chebyt eval_hermite
eval_hermitenorm eval_laguerre eval_legendre boxcox inv_boxcox""".split()
EXTRAS = """eval_chebyu boxcox1p inv_boxcox1p cosm1 exprel sindg cosdg chdtr chdtrc pdtr
pdtrc""".split()
FUNCTIONS = ["polygamma", "multigammaln", "factorial", "sinc", "zeta", "logsumexp", "softmax",
             "log_softmax"]


def uniform(lo, hi):
    return lambda rng, n: rng.uniform(lo, hi, n)


def log_uniform(lo_exp, hi_exp, negative=False):
    def draw(rng, n):
        v = 10.0 ** rng.uniform(lo_exp, hi_exp, n)
        return v * rng.choice([-1.0, 1.0], n) if negative else v
    return draw


def integers(lo, hi):
    return lambda rng, n: rng.integers(lo, hi, n)


def mix(*draws):
    def draw(rng, n):
        parts = [d(rng, n // len(draws) + 1) for d in draws]
        return np.concatenate(parts)[:n]
    return draw


@dataclass(frozen=True)
class Case:
    """Sampled arguments, float64 tolerance against SciPy, and why."""

    args: tuple[Callable, ...]
    rtol: float
    atol: float
    why: str
    f32_rtol: float = 2e-6
    f32_atol: float = 1e-30


# name -> Case. Tolerances are |got - want| <= atol + rtol |want| against SciPy in float64.
CASES: dict[str, Case] = {
    "erf": Case((uniform(-6, 6),), 1e-15, 0, "libtorch's erf is correctly rounded to about 1 ulp",
                f32_rtol=2e-5, f32_atol=1e-6),
    "erfc": Case((uniform(-6, 26),), 1e-13, 0, "libtorch's erfc keeps relative accuracy into the tail",
                 f32_rtol=2e-5, f32_atol=1e-6),
    "expit": Case((uniform(-700, 700),), 1e-15, 0, "sigmoid via exp is within 1 ulp",
                  f32_rtol=2e-5, f32_atol=1e-6),
    "logit": Case((uniform(0, 1),), 1e-15, 1e-15, "log(p/(1-p)); absolute slack at p = 0.5 where logit is 0",
                  f32_rtol=2e-5, f32_atol=1e-6),
    "gammaln": Case((uniform(-50, 170),), 1e-13, 1e-13, "lgamma; absolute slack near its zeros at 1 and 2",
                    f32_rtol=2e-5, f32_atol=1e-6),
    "erfcx": Case((mix(uniform(-26, 30), log_uniform(1, 300)),), 1e-15, 0,
                  "libtorch's erfcx is the same algorithm as SciPy's (Faddeeva)"),
    "erfinv": Case((uniform(-1, 1),), 1e-15, 0, "libtorch's erfinv, within 2 ulp up to ±1"),
    "erfcinv": Case((mix(uniform(0, 2), log_uniform(-300, 0)),), 2e-15, 0,
                    "-ndtri(y/2)/sqrt(2), SciPy's formula; 1-2 ulp from the product"),
    "log_expit": Case((uniform(-750, 750),), 1e-15, 0, "SciPy's two branches, log1p(exp(-|x|))"),
    "gamma": Case((mix(uniform(-170, 171.6), uniform(-10, 10)),), 3e-15, 0,
                  "reduction to [1, 2) or Stirling above 10; SciPy's Cephes is 1-3 ulp too"),
    "loggamma": Case((mix(uniform(0, 10), log_uniform(-300, 300)),), 1e-14, 1e-15,
                     "lgamma; absolute slack next to the zeros at 1 and 2, where SciPy's lgam is "
                     "2.6e-13 relative off (test_loggamma_near_its_zeros)"),
    "digamma": Case((mix(uniform(-30, 30), log_uniform(-5, 10)),), 1e-12, 1e-14,
                    "SciPy is up to 6e-13 off next to the poles and negative zeros, torchbridge "
                    "1e-13 (test_digamma_against_mpmath)"),
    "psi": Case((uniform(-30, 30),), 1e-12, 1e-14, "digamma's alias"),
    "i0": Case((uniform(-700, 700),), 3e-15, 0, "libtorch's Chebyshev expansions, as Cephes"),
    "i0e": Case((mix(uniform(-700, 700), log_uniform(3, 300, negative=True)),), 3e-15, 0, "as i0"),
    "i1": Case((uniform(-700, 700),), 3e-15, 0, "as i0"),
    "i1e": Case((mix(uniform(-700, 700), log_uniform(3, 300, negative=True)),), 3e-15, 0, "as i0"),
    "k0": Case((mix(uniform(0, 700), log_uniform(-300, 0)),), 3e-15, 0, "libtorch's Chebyshev expansions"),
    "k0e": Case((mix(uniform(0, 700), log_uniform(-300, 300)),), 3e-15, 0, "as k0"),
    "k1": Case((mix(uniform(0, 700), log_uniform(-300, 0)),), 3e-15, 0, "as k0"),
    "k1e": Case((mix(uniform(0, 700), log_uniform(-300, 300)),), 3e-15, 0, "as k0"),
    "j0": Case((uniform(-60, 60),), 1e-13, 1e-15,
               "series, Miller's recurrence, Hankel's expansion: absolute 1e-15 near the zeros, "
               "where SciPy is the less accurate (up to 1e-10 relative at 59); SciPy drifts "
               "beyond 100 (test_bessel_small_and_large_arguments)", f32_atol=1e-7),
    "j1": Case((uniform(-60, 60),), 1e-13, 1e-15, "as j0", f32_atol=1e-7),
    "y0": Case((mix(uniform(0, 60), log_uniform(-300, 0)),), 1e-13, 1e-15, "as j0", f32_atol=1e-7),
    "y1": Case((mix(uniform(0, 60), log_uniform(-300, 0)),), 1e-13, 1e-15, "as j0", f32_atol=1e-7),
    "ndtr": Case((uniform(-38.5, 9),), 4e-13, 1e-307,
                 "SciPy rounds x/sqrt(2) first: 2 t^2 eps relative in the tail; torchbridge "
                 "corrects it (test_ndtr_lower_tail). Absolute slack: SciPy's erfc flushes "
                 "subnormal results to 0"),
    "ndtri": Case((mix(uniform(0, 1), log_uniform(-300, 0)),), 1e-15, 0, "libtorch's ndtri, as Cephes"),
    "log_ndtr": Case((mix(uniform(-40, 40), uniform(-1e4, -40)),), 4e-13, 1e-307,
                     "as ndtr in the upper tail (test_log_ndtr_against_mpmath)"),
    "entr": Case((uniform(-1, 10),), 1e-15, 0, "-x log x"),
    "expm1": Case((uniform(-50, 700),), 1e-15, 0, "libtorch's expm1"),
    "exp2": Case((uniform(-1070, 1020),), 1e-15, 1e-307,
                 "libtorch's exp2; absolute slack: SciPy flushes subnormal results to 0"),
    "exp10": Case((uniform(-320, 305),), 1e-15, 1e-307, "pow(10, x), within 1 ulp; as exp2"),
    "log1p": Case((mix(uniform(-1, 10), log_uniform(-300, 300)),), 1e-15, 0, "libtorch's log1p"),
    "cbrt": Case((mix(uniform(-1e3, 1e3), log_uniform(-300, 300, negative=True)),), 3e-16, 0,
                 "pow and one Newton step: within 1 ulp"),
    "cosm1": Case((uniform(-10, 10),), 1e-15, 3e-16,
                  "-2 sin^2(x/2); SciPy's cos(x) - 1 loses relative accuracy near 2 pi k "
                  "(test_cosm1_near_multiples_of_two_pi)"),
    "exprel": Case((uniform(-50, 700),), 1e-15, 0, "expm1(x)/x"),
    "sindg": Case((uniform(-1e4, 1e4),), 2e-15, 1e-16, "exact reduction to [-45, 45] degrees"),
    "cosdg": Case((uniform(-1e4, 1e4),), 2e-15, 1e-16, "sindg(x + 90)"),
    "zeta": Case((mix(uniform(-60, 60), uniform(1, 3)),), 1e-12, 1e-15,
                 "Borwein on [-1/2, 1), reflection below: 4e-15; SciPy is up to 6e-13 off below "
                 "-30 and 2e-11 next to the trivial zeros (test_zeta_against_mpmath)"),
    "gammainc": Case((uniform(0, 100), uniform(0, 150)), 2e-13, 0,
                     "both lose ~5e-14 in the series regime (x^a e^-x / Gamma(a+1)); Temme's "
                     "expansion for a ~ x > 20"),
    "gammaincc": Case((uniform(0, 100), uniform(0, 150)), 2e-13, 0, "as gammainc"),
    "beta": Case((uniform(-10, 30), uniform(-10, 30)), 3e-14, 0,
                 "Gamma quotients; SciPy's Cephes has about the same error"),
    "betaln": Case((uniform(-10, 200), uniform(-10, 200)), 1e-13, 1e-13,
                   "absolute slack where log|B| is near 0"),
    "binom": Case((uniform(-10, 50), uniform(-10, 50)), 1e-13, 0, "SciPy's branches, Gamma quotients"),
    "xlogy": Case((uniform(-5, 5), uniform(-5, 5)), 1e-15, 0, "libtorch's xlogy"),
    "xlog1py": Case((uniform(-5, 5), uniform(-2, 5)), 1e-15, 0, "libtorch's xlog1py"),
    "rel_entr": Case((uniform(-1, 5), uniform(-1, 5)), 1e-15, 0, "SciPy's three branches"),
    "kl_div": Case((uniform(-1, 5), uniform(-1, 5)), 1e-14, 1e-15,
                   "x log(x/y) - x + y: absolute slack where it cancels to 0"),
    "huber": Case((uniform(-1, 5), uniform(-5, 5)), 1e-15, 0, "the two quadratics"),
    "pseudo_huber": Case((uniform(-1, 5), uniform(-5, 5)), 1e-15, 0, "expm1(log1p(v^2)/2)"),
    "boxcox": Case((uniform(0, 10), uniform(-3, 3)), 1e-15, 0, "expm1(lmbda log x)/lmbda"),
    "inv_boxcox": Case((uniform(-2, 5), uniform(-3, 3)), 4e-15, 0, "exp(log1p(lmbda x)/lmbda)"),
    "boxcox1p": Case((uniform(-0.9, 10), uniform(-3, 3)), 2e-15, 0, "expm1(lmbda log1p x)/lmbda"),
    "inv_boxcox1p": Case((uniform(-2, 5), uniform(-3, 3)), 4e-15, 0, "expm1(log1p(lmbda x)/lmbda)"),
    "chdtr": Case((uniform(0, 100), uniform(0, 200)), 2e-13, 0, "gammainc(v/2, x/2)"),
    "chdtrc": Case((uniform(0, 100), uniform(0, 200)), 2e-13, 0, "gammaincc(v/2, x/2)"),
    "pdtr": Case((uniform(0, 100), uniform(0, 150)), 2e-13, 0, "gammaincc(floor(k)+1, m)"),
    "pdtrc": Case((uniform(0, 100), uniform(0, 150)), 2e-13, 0, "gammainc(floor(k)+1, m)"),
    # Polynomials: relative error near the roots; absolute slack relative to the largest value.
    "eval_chebyt": Case((integers(-5, 40), uniform(-1.5, 1.5)), 1e-11, 1e-13,
                        "libtorch uses cos(n acos x) for n > 6, SciPy the recurrence: absolute "
                        "n * 1e-16 near the roots", f32_atol=1e-6),
    "eval_chebyu": Case((integers(-5, 40), uniform(-1.5, 1.5)), 1e-11, 1e-13, "as eval_chebyt",
                        f32_atol=1e-6),
    "eval_hermite": Case((integers(0, 40), uniform(-3, 3)), 1e-11, 1e-13,
                         "libtorch's H recurrence; SciPy scales He_n(sqrt(2) x)"),
    "eval_hermitenorm": Case((integers(0, 40), uniform(-3, 3)), 1e-11, 1e-13, "recurrences"),
    "eval_laguerre": Case((integers(-5, 40), uniform(-1, 10)), 1e-10, 1e-13, "recurrences, near the roots"),
    "eval_legendre": Case((integers(-5, 40), uniform(-1.5, 1.5)), 1e-10, 1e-13, "recurrences"),
}
UNARY = [n for n, c in CASES.items() if len(c.args) == 1]
BINARY = [n for n, c in CASES.items() if len(c.args) == 2]
POLYNOMIALS = [n for n in BINARY if n.startswith("eval_")]
# Loop strings: our name -> SciPy's ufunc
SCIPY_UFUNC = {name: getattr(sc, name) for name in CASES}
SCIPY_UFUNC["zeta"] = sc._ufuncs._riemann_zeta
SCIPY_UFUNC["hurwitz_zeta"] = sc._ufuncs._zeta


def scipy_call(name, *args):
    with np.errstate(all="ignore"):
        return getattr(sc, name)(*args)


def ours(name):
    return getattr(tb.special, name)


def sample(name: str, rng, n: int = 20_000, dtype=np.float64) -> list[np.ndarray]:
    out = []
    for draw in CASES[name].args:
        a = draw(rng, n)
        with np.errstate(over="ignore"):
            out.append(a if a.dtype.kind == "i" else a.astype(dtype))
    return out


def assert_close(got, want, rtol, atol, scale_atol=False, what=""):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if scale_atol:
        finite = want[np.isfinite(want)]
        atol = atol * max(1.0, float(np.abs(finite).max()) if finite.size else 1.0)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def mpf(x):
    return mp.mpf(float(x))


# ---------------------------------------------------------------------------
# The catalogue and the signatures
# ---------------------------------------------------------------------------


def test_catalogue_is_complete():
    exported = set(tb.special.__all__)
    missing = [name for name in CATALOGUE + EXTRAS if name not in exported]
    assert not missing, missing
    assert len(exported) >= 45
    for name in exported:
        assert callable(getattr(tb.special, name)), name
    assert tb.special.psi is tb.special.digamma


@pytest.mark.parametrize("name", sorted(set(CASES) | {"zeta", "hurwitz_zeta"}))
def test_loop_strings_are_scipys(name):
    assert tb.special._special._ufunc_types(name) == SCIPY_UFUNC[name].types


@pytest.mark.parametrize("name", sorted(set(CASES) - {"zeta"}))
def test_ufunc_signature_matches_scipy_where_checkable(name):
    theirs = list(inspect.signature(SCIPY_UFUNC[name]).parameters.values())
    mine = list(inspect.signature(ours(name)).parameters.values())
    nin = SCIPY_UFUNC[name].nin
    # positional-only inputs and out=None, as SciPy; SciPy's keyword-only ufunc
    # options are accepted as **kwargs and refused by name
    for t, m in zip(theirs[: nin + 1], mine[: nin + 1]):
        assert (m.name, m.kind, m.default) == (t.name, t.kind, t.default)
    assert mine[-1].kind is inspect.Parameter.VAR_KEYWORD


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_signature_matches_scipy_exactly(name):
    reference = np.sinc if name == "sinc" else getattr(sc, name)
    assert inspect.signature(ours(name)) == with_device(inspect.signature(reference))


# ---------------------------------------------------------------------------
# Values against SciPy
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_scipy_float64(name, rng):
    case = CASES[name]
    args = sample(name, rng)
    got = ours(name)(*args)
    want = scipy_call(name, *args)
    assert got.dtype == want.dtype == np.float64
    assert_close(got, want, case.rtol, case.atol, scale_atol=name in POLYNOMIALS, what=case.why)


@pytest.mark.parametrize("name", sorted(CASES))
def test_float32_stays_float32(name, rng):
    case = CASES[name]
    args = sample(name, rng, n=5000, dtype=np.float32)
    if name in POLYNOMIALS and name.startswith("eval_hermite"):
        args[0] = args[0].astype(np.int64)  # SciPy has no float loop here
    elif name in POLYNOMIALS:
        args[0] = args[0].astype(np.float32)
    got = ours(name)(*args)
    want = scipy_call(name, *args)
    assert got.dtype == want.dtype
    if want.dtype != np.float32:
        assert name.startswith("eval_hermite")
    if name == "eval_laguerre":
        # SciPy's real-degree Laguerre goes through hyp1f1 and loses up to 3e-4
        # in float32 here; its integer loop is the reference
        want = scipy_call(name, args[0].astype(np.int64), args[1]).astype(np.float32)
    # libtorch's float32 kernels (erf ... gammaln) are not correctly rounded; the
    # others compute in float64 and round once, as SciPy's float loops
    mask = np.abs(want.astype(np.float64)) > 1e-30
    assert_close(got[mask], want[mask], case.f32_rtol, case.f32_atol,
                 scale_atol=name in POLYNOMIALS)


EDGES = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-300, -1e-300, 5e-324, -5e-324, 1e300,
                  -1e300, 0.5, 1.0, 2.0, -1.0, -2.0, -2.5, 1 - 1e-16, 1e-16, 3.0, 30.0, 90.0, 180.0,
                  40.0, -40.0, 171.7, -171.5, -180.5, 700.0, -700.0, 2.0**53])

# (name, x) -> (value torchbridge gives, why SciPy's value is not the reference)
EDGE_EXCEPTIONS: dict[tuple[str, float], tuple[float, str]] = {
    ("gammaln", 5e-324): (-np.log(5e-324), "SciPy overflows to inf; -log(5e-324) is right"),
    ("gammaln", -5e-324): (-np.log(5e-324), "as above"),
    ("gammaln", 1 - 1e-16): (np.euler_gamma * 1.1102230246251565e-16,
                             "gammaln(1 - e) = euler_gamma e: 6.4e-17; SciPy rounds to 2.2e-16"),
    ("loggamma", 5e-324): (-np.log(5e-324), "as gammaln"),
    ("loggamma", 1 - 1e-16): (np.euler_gamma * 1.1102230246251565e-16, "as gammaln"),
    ("expm1", 5e-324): (5e-324, "expm1(x) = x for subnormal x; SciPy flushes to 0"),
    ("expm1", -5e-324): (-5e-324, "as above"),
}
for _f in ("j0", "j1", "y0", "y1"):
    for _x in (700.0, 1e300, 2.0**53, -700.0, -1e300, -(2.0**53)):
        # SciPy evaluates cos(x - pi/4) with x - pi/4 rounded: wrong beyond ~100
        # (test_bessel_large_arguments); mpmath is the reference there
        EDGE_EXCEPTIONS[(_f, _x)] = (np.nan, "mpmath")


def reference_bessel(name, x):
    order = int(name[1])
    kind = mp.besselj if name[0] == "j" else mp.bessely
    if name[0] == "y" and x < 0:
        return np.nan
    return float(kind(order, mpf(x)))


@pytest.mark.parametrize("name", UNARY + ["zeta"])
def test_edge_values(name):
    want = np.array(scipy_call(name, EDGES), dtype=np.float64)
    got = ours(name)(EDGES)
    for i, x in enumerate(EDGES):
        exception = EDGE_EXCEPTIONS.get((name, float(x)))
        if exception is None:
            continue
        value, why = exception
        want[i] = reference_bessel(name, x) if why == "mpmath" else value
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0, equal_nan=True)
    # signed zeros survive where SciPy keeps them
    zero = want == 0
    assert np.array_equal(np.signbit(got[zero]), np.signbit(want[zero])), EDGES[zero]


BINARY_EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5,
                         -1.5, 1e-300, 1e300, -1e300, 3.0, 25.0, -3.0, 170.0])
# Pairs where SciPy is the less accurate one (checked against mpmath in the tests named)
BINARY_EDGE_RTOL = {
    "gammainc": 3e-13,  # a = 170, x <= 25: both ~5e-14 off (series regime)
    "pdtrc": 3e-13,
    "beta": 3e-13,  # beta(170, 2): SciPy's Cephes 1.1e-13 off
    "betaln": 3e-13,  # betaln(1e300, 1e300): both lose digits in lgamma differences
    "binom": 2e-13,  # binom(170, 1e-300): true value 1; SciPy 1 - 1.4e-13, ours 1 - 2.5e-14
    "chdtrc": 3e-13,
}


@pytest.mark.parametrize("name", [n for n in BINARY if n not in POLYNOMIALS])
def test_binary_edge_values(name):
    a, b = (m.ravel() for m in np.meshgrid(BINARY_EDGES, BINARY_EDGES))
    want = scipy_call(name, a, b)
    got = ours(name)(a, b)
    np.testing.assert_allclose(got, want, rtol=BINARY_EDGE_RTOL.get(name, 1e-13), atol=0,
                               equal_nan=True)
    zero = want == 0
    assert np.array_equal(np.signbit(got[zero]), np.signbit(want[zero]))


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_edges_with_integer_degree(name):
    n = np.array([-4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 10, 11, 25])
    x = np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0])
    if name.startswith("eval_hermite"):
        n = n[n >= 0]
    nn, xx = (m.ravel() for m in np.meshgrid(n, x))
    want = scipy_call(name, nn, xx)
    got = ours(name)(nn, xx)
    # libtorch's kernels return garbage for nan x; SciPy's recurrences set the
    # pattern of nan and inf at infinite x, which torchbridge follows
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14, equal_nan=True)


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_overflow_gives_the_leading_terms_infinity(name):
    # SciPy's recurrences end in nan as often as inf here; the limit is +-inf
    n = np.array([3, 25, 170]) if name != "eval_laguerre" else np.array([3, 25, 170])
    for x in (1e300, -1e300):
        got = ours(name)(n, x)
        lead = np.sign(-x if name == "eval_laguerre" else x) ** n
        assert np.array_equal(got, lead * np.inf), (x, got)


@pytest.mark.parametrize("name", ["eval_chebyt", "eval_chebyu", "eval_laguerre", "eval_legendre"])
def test_polynomials_with_integral_real_degree(name, rng):
    n = rng.integers(0, 25, 4000).astype(np.float64)
    x = rng.uniform(-1, 1, 4000)
    want = scipy_call(name, n, x)
    got = ours(name)(n, x)
    assert got.dtype == np.float64
    # SciPy evaluates real degrees through hypergeometric functions: its Laguerre
    # values there lose up to 1e-9 relative (torchbridge keeps the recurrence)
    rtol = 1e-8 if name == "eval_laguerre" else 1e-10
    assert_close(got, want, rtol, 1e-12, scale_atol=True)
    # negative integral degrees follow SciPy's rules (nan for Laguerre)
    neg = np.array([-3.0, -2.0, -1.0])
    assert_close(ours(name)(neg, 0.3), scipy_call(name, neg, 0.3), 1e-12, 1e-15)


@pytest.mark.parametrize("name", ["eval_chebyt", "eval_chebyu", "eval_laguerre", "eval_legendre"])
def test_polynomials_refuse_non_integer_degrees(name):
    with pytest.raises(tb.UnsupportedParameterError, match="non-integer degree"):
        ours(name)(np.array([2.5]), np.array([0.3]))
    # nan and infinite degrees give nan, as SciPy
    got = ours(name)(np.array([np.nan, np.inf]), 0.3)
    assert np.isnan(got).all() and np.isnan(scipy_call(name, np.array([np.nan, np.inf]), 0.3)).all()


def test_hermite_takes_integer_degrees_only():
    with pytest.raises(TypeError):
        sc.eval_hermite(2.0, 0.5)
    with pytest.raises(tb.DtypeError, match="eval_hermite does not accept float64"):
        tb.special.eval_hermite(2.0, 0.5)
    assert np.isnan(tb.special.eval_hermite(-1, 0.5)) and np.isnan(sc.eval_hermite(-1, 0.5))


# ---------------------------------------------------------------------------
# Dtypes: SciPy's loop selection, NumPy's weak scalars
# ---------------------------------------------------------------------------

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]


def outcome(call):
    """The result dtype, or which kind of refusal."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return np.asarray(call()).dtype.name
    except tb.UnsupportedParameterError:
        return "not implemented"
    except TypeError:
        return "TypeError"


def expected_outcome(call):
    got = outcome(call)
    return got


@pytest.mark.parametrize("name", UNARY + ["zeta"])
def test_unary_result_dtype_follows_scipys_loops(name):
    for dtype in DTYPES:
        x = np.array([0, 1, 1, 0]).astype(dtype)
        want = outcome(lambda: getattr(sc, name)(x))
        got = outcome(lambda: ours(name)(x))
        if dtype.startswith("complex") and want.startswith("complex"):
            want = "not implemented"  # SciPy has a complex loop; libtorch no kernel
        assert got == want, (dtype, got, want)


@pytest.mark.parametrize("name", BINARY + ["zeta"])
def test_binary_result_dtype_follows_scipys_loops(name):
    for d1 in DTYPES:
        for d2 in DTYPES:
            x1 = np.array([1, 2, 3]).astype(d1)
            x2 = np.array([1, 0, 1]).astype(d2)
            want = outcome(lambda: getattr(sc, name)(x1, x2))
            got = outcome(lambda: ours(name)(x1, x2))
            if want.startswith("complex"):
                want = "not implemented"
            if got == "not implemented" and want == "TypeError":
                want = got  # SciPy has no loop for this complex pair either; we say why
            assert got == want, (d1, d2, got, want)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("literal", [2, 2.0, True, -1])
def test_python_literals_are_weak_as_in_numpy(name, literal):
    for dtype in DTYPES[:12]:
        x = np.array([1, 2, 3]).astype(dtype)
        for args in ((x, literal), (literal, x)):
            want = outcome(lambda: getattr(sc, name)(*args))
            got = outcome(lambda: ours(name)(*args))
            assert got == want, (dtype, args, got, want)
    # two literals: NumPy's concrete int64/float64
    assert outcome(lambda: ours(name)(literal, literal)) == outcome(lambda: getattr(sc, name)(literal, literal))


def test_weak_literals_examples():
    f32 = np.ones(3, np.float32)
    assert tb.special.xlogy(f32, 2.0).dtype == np.float64  # dd is SciPy's first loop
    assert tb.special.rel_entr(f32, 2.0).dtype == np.float32  # ff first
    assert tb.special.rel_entr(np.ones(3, np.int8), 2).dtype == np.float32
    assert tb.special.rel_entr(np.ones(3, np.int8), 2.0).dtype == np.float64
    assert tb.special.eval_legendre(2, f32).dtype == np.float64  # the ld loop
    assert tb.special.eval_legendre(f32, 2).dtype == np.float32
    assert tb.special.erfinv(np.ones(3, np.float16)).dtype == np.float32  # f first


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("value", [0.25, np.float64(0.25), np.float32(0.25), np.array(0.25), 1, True])
def test_scalars_give_numpy_scalars_like_scipy(name, value):
    args = (value,) if name in UNARY else (2, value) if name in POLYNOMIALS else (value, value)
    if name.startswith("eval_hermite"):
        args = (2, value)
    want = scipy_call(name, *args)
    got = ours(name)(*args)
    assert type(got) is type(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_lists_shapes_and_broadcasting(name):
    x = [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]
    if name in UNARY:
        args = (x,)
    elif name in POLYNOMIALS:
        args = ([[1], [2], [3]], [0.1, 0.2])
    else:
        args = (x, [0.7, 0.8, 0.9])
    got = ours(name)(*args)
    want = scipy_call(name, *args)
    assert type(got) is np.ndarray and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


def test_shapes_that_do_not_broadcast_are_a_value_error():
    with pytest.raises(ValueError, match="could not be broadcast"):
        tb.special.xlogy(np.ones(3), np.ones(4))
    with pytest.raises(tb.InvalidArgumentError):
        tb.special.gammainc(np.ones((2, 3)), np.ones((3, 2)))


@pytest.mark.parametrize("name", sorted(CASES))
def test_empty_input(name):
    for shape in [(0,), (3, 0), (0, 4, 2)]:
        args = [np.empty(shape)] * len(CASES[name].args)
        if name.startswith("eval_hermite"):
            args[0] = np.empty(shape, dtype=np.int64)
        got = ours(name)(*args)
        assert got.shape == shape and got.dtype == np.float64


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_every_library(lib, name, rng):
    args = sample(name, rng, 300)
    want = scipy_call(name, *args)
    got = ours(name)(*(to_library(lib, a) for a in args))
    assert isinstance(got, library_type(lib))
    case = CASES[name]
    assert_close(to_numpy(got), want, max(case.rtol, 1e-13), max(case.atol, 1e-13),
                 scale_atol=name in POLYNOMIALS)


@pytest.mark.parametrize("lib", ["torch", "jax", "array_api_strict"])
def test_python_scalars_follow_the_array_library(lib, rng):
    a = rng.uniform(0.5, 3, 50)
    got = tb.special.gammainc(2.5, to_library(lib, a))
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), sc.gammainc(2.5, a), rtol=1e-14)
    got = tb.special.xlogy(to_library(lib, a), [1.0] * 50)
    assert isinstance(got, library_type(lib))


def test_arrays_of_two_libraries_are_refused():
    import torch

    with pytest.raises(tb.MixedContainersError):
        tb.special.xlogy(np.ones(3), torch.ones(3, dtype=torch.float64))


@pytest.mark.parametrize("name", sorted(CASES))
def test_read_only_input_is_never_written(name, rng):
    args = sample(name, rng, 5000)
    snapshots = [a.copy() for a in args]
    for a in args:
        a.flags.writeable = False
    ours(name)(*args)
    ours(name)(*(a[::-1] for a in args))
    for a, s in zip(args, snapshots):
        np.testing.assert_array_equal(a, s)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(max_dims=3, max_side=6),
                  elements=st.floats(allow_nan=True, allow_infinity=True, width=64)))
def test_erf_and_expit_any_float64(x):
    for name in ("erf", "expit", "erfc", "log_expit", "ndtri", "erfcx", "i0e", "k1e", "cbrt",
                 "gamma", "entr", "expm1", "exp10"):
        want = scipy_call(name, x)
        np.testing.assert_allclose(ours(name)(x), want, rtol=max(CASES[name].rtol, 3e-15),
                                   atol=1e-300, equal_nan=True, err_msg=name)


@settings(max_examples=40, deadline=None)
@given(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3))
def test_binary_any_floats(a, b):
    for name in ("xlogy", "xlog1py", "rel_entr", "huber", "pseudo_huber", "beta", "binom",
                 "boxcox1p"):
        if name == "beta" and 0 < min(abs(a), abs(b)) < 1e-300:
            # subnormal arguments: B = 1/a + 1/b overflows; SciPy gives nan for two
            # negative ones (-inf / -inf)
            continue
        want = scipy_call(name, a, b)
        got = ours(name)(a, b)
        # beta and binom of large arguments of opposite signs go through lgamma
        # differences (both libraries lose ~1e-12 relative there)
        rtol = 1e-10 if name in ("beta", "binom") else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-300, equal_nan=True,
                                   err_msg=f"{name}({a}, {b})")


def test_complex_input():
    z = np.array([0.5 + 0.5j])
    with pytest.raises(tb.UnsupportedParameterError, match="complex"):
        tb.special.erf(z)  # SciPy has complex erf; libtorch does not
    with pytest.raises(tb.DtypeError, match="expit does not accept complex128"):
        tb.special.expit(z)  # SciPy has no complex expit either
    with pytest.raises(TypeError):
        tb.special.gammaln(z)
    with pytest.raises(tb.UnsupportedParameterError, match="complex"):
        tb.special.xlogy(z, z)
    with pytest.raises(tb.UnsupportedParameterError, match="complex"):
        tb.special.eval_legendre(2, z)  # SciPy's dD->D loop
    with pytest.raises(tb.UnsupportedParameterError, match="complex"):
        tb.special.zeta(z)


def test_unsupported_ufunc_options_are_named():
    x = np.ones(3)
    with pytest.raises(NotImplementedError, match="out="):
        tb.special.erf(x, out=np.empty(3))
    with pytest.raises(NotImplementedError, match="where"):
        tb.special.erf(x, where=x > 0)
    np.testing.assert_allclose(tb.special.erf(x, out=None), sc.erf(x))
    with pytest.raises(NotImplementedError, match="out="):
        tb.special.xlogy(x, x, out=np.empty(3))
    with pytest.raises(NotImplementedError, match="dtype"):
        tb.special.gammainc(x, x, dtype=np.float32)
    with pytest.raises(NotImplementedError, match="out="):
        tb.special.zeta(x, 1.0, out=np.empty(3))
    with pytest.raises(NotImplementedError, match="out="):
        tb.special.zeta(x, None, np.empty(3))


# ---------------------------------------------------------------------------
# The known traps, with mpmath as the judge
# ---------------------------------------------------------------------------


def relative_to_mpmath(got, reference):
    """|got - ref| / |ref| against mpmath values (0 where both agree exactly)."""
    got = np.asarray(got, dtype=np.float64).ravel()
    ref = np.array([float(r) for r in reference])
    same = (got == ref) | (np.isnan(got) & np.isnan(ref))
    with np.errstate(all="ignore"):
        return np.where(same, 0.0, np.abs(got - ref) / np.abs(ref))


def test_ndtr_lower_tail():
    import torch

    x = np.array([-8.0, -9.0, -20.0, -30.0, -37.5, -5.0, -1.5, -0.3, 0.3, 3.0, 8.0])
    reference = [mp.ncdf(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.ndtr(x), reference).max() < 4e-16
    # subnormal results keep what their few bits can: ndtr(-38.4) = 6.6e-323 (13.4 units)
    assert abs(tb.special.ndtr(-38.4) - 6.6016e-323) <= 5e-324
    # libtorch's 0.5 (1 + erf(x / sqrt 2)) is 2% off at -8 and 0 from -9 on
    t = torch.special.ndtr(torch.from_numpy(x[:3])).numpy()
    assert abs(t[0] / float(reference[0]) - 1) > 1e-3 and t[1] == 0
    assert tb.special.ndtr(-9.0) == pytest.approx(1.1285884059538408e-19, rel=1e-15)
    # SciPy's rounding of x/sqrt(2) costs it up to 2e-13 in the tail
    x = -19.7656349101983
    assert relative_to_mpmath(sc.ndtr([x]), [mp.ncdf(mpf(x))]).max() > 5e-14
    assert relative_to_mpmath(tb.special.ndtr([x]), [mp.ncdf(mpf(x))]).max() < 4e-16


def test_log_ndtr_against_mpmath():
    x = np.array([-1e5, -1e3, -40.0, -20.0, -5.0, -1.0, -0.5, 0.0, 2.0, 5.0, 20.0, 37.0])
    reference = [mp.log(mp.ncdf(mpf(v))) if v <= 0 else mp.log1p(-mp.ncdf(-mpf(v))) for v in x]
    assert relative_to_mpmath(tb.special.log_ndtr(x), reference).max() < 1e-15
    assert tb.special.log_ndtr(-np.inf) == -np.inf and tb.special.log_ndtr(np.inf) == 0


def test_erfcx_and_scaled_bessels_for_large_arguments():
    x = np.array([-26.0, -5.0, 1e3, 1e5])
    ref = [mp.exp(mpf(v) ** 2) * mp.erfc(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.erfcx(x), ref).max() < 2e-15
    # beyond 1e10, erfcx(x) = (1 - 1/(2 x^2)) / (x sqrt(pi)) to far below an ulp
    huge = np.array([1e10, 1e100, 1e300])
    ref = [1 / (mpf(v) * mp.sqrt(mp.pi)) for v in huge]
    assert relative_to_mpmath(tb.special.erfcx(huge), ref).max() < 2e-16
    big = np.array([1e3, 1e10, 1e100, 1e300])
    for name, f in [("i0e", lambda v: mp.besseli(0, v) * mp.exp(-v)),
                    ("i1e", lambda v: mp.besseli(1, v) * mp.exp(-v)),
                    ("k0e", lambda v: mp.besselk(0, v) * mp.exp(v)),
                    ("k1e", lambda v: mp.besselk(1, v) * mp.exp(v))]:
        assert relative_to_mpmath(ours(name)(big), [f(mpf(v)) for v in big]).max() < 3e-15, name


def test_bessel_small_and_large_arguments():
    small = np.array([5e-324, 1e-300, 1e-100, 1e-10, 1e-3, 0.5, 1.9, 2.1, 24.9, 25.1])
    large = np.array([100.0, 700.0, 12345.678, 1e10, 2.0**53, 1e17, 1e300])
    for name in ("j0", "j1", "y0", "y1"):
        for x in (small, large):
            if name[0] == "y" and x is small:
                reference = [reference_bessel(name, v) for v in x]
            else:
                reference = [reference_bessel(name, v) for v in x]
            err = relative_to_mpmath(ours(name)(x), reference)
            assert err.max() < 2e-14, (name, x[np.argmax(err)], err.max())
    # SciPy rounds x - pi/4: 1e-6 off at 1e10, meaningless beyond 2^53
    assert relative_to_mpmath(sc.j0(large[3:4]), [reference_bessel("j0", 1e10)]).max() > 1e-7
    assert tb.special.y0(0.0) == -np.inf and tb.special.y1(0.0) == -np.inf
    assert tb.special.y1(5e-324) == -np.inf
    assert tb.special.y0(5e-324) == pytest.approx(sc.y0(5e-324), rel=1e-15)


def test_zeta_against_mpmath():
    s = np.array([-171.5, -60.5, -20.0000047, -9.5, -2.0000047, -1.0, -0.5, -1e-10, 0.0, 0.3,
                  0.999, 1.001, 2.0, 10.0, 60.0])
    reference = [mp.zeta(mpf(v)) for v in s]
    assert relative_to_mpmath(tb.special.zeta(s), reference).max() < 5e-15
    # SciPy loses relative accuracy next to the trivial zeros
    assert relative_to_mpmath(sc.zeta(s[4:5]), reference[4:5]).max() > 1e-12
    assert tb.special.zeta(-2.0) == 0 and tb.special.zeta(1.0) == np.inf
    assert np.isnan(tb.special.zeta(-np.inf)) and tb.special.zeta(np.inf) == 1.0
    x = np.array([2.0, 3.5, 10.0, 2.0, 4.0])
    q = np.array([0.5, 1e-3, 100.0, -1.5, np.inf])
    reference = [mp.zeta(mpf(a), mpf(b)) for a, b in zip(x[:3], q[:3])]
    assert relative_to_mpmath(tb.special.zeta(x[:3], q[:3]), reference).max() < 2e-15
    np.testing.assert_array_equal(tb.special.zeta(x, q), sc.zeta(x, q))


def test_polygamma_against_mpmath():
    n = np.array([0, 1, 1, 2, 3, 5, 1, 2, 10])
    x = np.array([1.37, 1.37, 0.01, 2.5, -2.5, 30.0, -1.5, 1e-5, 7.0])
    reference = [mp.polygamma(int(a), mpf(b)) for a, b in zip(n, x)]
    assert relative_to_mpmath(tb.special.polygamma(n, x), reference).max() < 1e-14
    got = tb.special.polygamma(n, x)
    np.testing.assert_allclose(got, sc.polygamma(n, x), rtol=1e-13)
    # libtorch's trigamma is 5e-10 off at 1.37
    import torch

    t = torch.polygamma(1, torch.tensor([1.37], dtype=torch.float64)).item()
    assert abs(t / float(reference[1]) - 1) > 1e-12


def test_polygamma_types_follow_scipy():
    assert type(tb.special.polygamma(1, 2.0)) is type(sc.polygamma(1, 2.0)) is np.ndarray
    f32 = np.ones(3, np.float32)
    assert tb.special.polygamma(f32, f32).dtype == sc.polygamma(f32, f32).dtype == np.float32
    assert tb.special.polygamma(1, f32).dtype == sc.polygamma(1, f32).dtype == np.float64
    np.testing.assert_array_equal(tb.special.polygamma([-1, 0.5], 2.0), [np.nan, np.nan])
    np.testing.assert_allclose(tb.special.polygamma([0, 1], [[2.0], [3.0]]),
                               sc.polygamma([0, 1], [[2.0], [3.0]]), rtol=1e-14)


def test_gammainc_tails_against_mpmath():
    a = np.array([1e-300, 1e-20, 1e-5, 0.5, 25.0, 150.0, 1e4, 1e5, 50.0, 50.0, 30.0])
    x = np.array([1.0, 0.5, 1.0, 30.0, 24.0, 160.0, 1.01e4, 1e5 + 300, 5.0, 120.0, 36.0])
    for name, f in [("gammainc", lambda s, v: mp.gammainc(s, 0, v, regularized=True)),
                    ("gammaincc", lambda s, v: mp.gammainc(s, v, mp.inf, regularized=True))]:
        reference = [f(mpf(s), mpf(v)) for s, v in zip(a, x)]
        err = relative_to_mpmath(ours(name)(a, x), reference)
        assert err.max() < 1e-13, (name, err)
    # libtorch's asymptotic series (a ~ x > 20) is 2e-9 off; its Q for tiny a is wrong
    import torch

    t = torch.special.gammainc(torch.tensor([25.0], dtype=torch.float64),
                               torch.tensor([24.0], dtype=torch.float64)).item()
    assert abs(t / float(mp.gammainc(25, 0, 24, regularized=True)) - 1) > 1e-11
    assert tb.special.gammaincc(1e-300, 1.0) == pytest.approx(2.193839343955203e-301, rel=1e-13)


def test_erfinv_near_one_and_erfcinv_for_tiny_arguments():
    x = 1 - np.array([1e-16, 1e-12, 1e-8, 1e-4])
    x = np.concatenate([x, -x, [0.5, 1e-300]])
    reference = [mp.erfinv(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.erfinv(x), reference).max() < 5e-16
    y = np.array([1e-300, 1e-100, 1e-20, 1e-5, 0.5, 1.5, 2 - 1e-10])
    with mp.workdps(350):
        reference = [mp.erfinv(1 - mp.mpf(float(v))) for v in y]
    assert relative_to_mpmath(tb.special.erfcinv(y), reference).max() < 1e-15
    assert tb.special.erfinv(1.0) == np.inf and tb.special.erfinv(-1.0) == -np.inf
    assert np.isnan(tb.special.erfinv(1.5)) and np.isnan(tb.special.erfcinv(-1e-300))
    assert tb.special.erfcinv(0.0) == np.inf and tb.special.erfcinv(2.0) == -np.inf


def test_expit_and_log_expit_for_large_arguments():
    import torch

    x = np.array([-745.0, -700.0, -40.0, 40.0, 700.0])
    reference = [-mp.log1p(mp.exp(-mpf(v))) for v in x]
    assert tb.special.log_expit(745.0) == sc.log_expit(745.0) == -5e-324
    assert relative_to_mpmath(tb.special.log_expit(x), reference).max() < 3e-16
    # libtorch's log_sigmoid flushes its subnormal results to 0
    assert torch.nn.functional.logsigmoid(torch.tensor(745.0, dtype=torch.float64)).item() == 0
    assert tb.special.log_expit(40.0) == pytest.approx(-4.248354255291589e-18, rel=1e-15)
    reference = [1 / (1 + mp.exp(-mpf(v))) for v in x[1:]]  # expit(-745) is subnormal
    assert relative_to_mpmath(tb.special.expit(x[1:]), reference).max() < 3e-16


def test_gamma_signs_poles_and_exact_factorials():
    x = np.array([-0.5, -1.5, -2.5, -10.3, -100.7, -170.2, 0.1, 5.5, 100.5, 171.5])
    reference = [mp.gamma(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.gamma(x), reference).max() < 2e-15
    np.testing.assert_array_equal(np.sign(tb.special.gamma(x)), np.sign(sc.gamma(x)))
    poles = np.array([0.0, -0.0, -1.0, -2.0, -170.0, -np.inf, np.inf])
    np.testing.assert_array_equal(tb.special.gamma(poles), sc.gamma(poles))
    n = np.arange(1, 24, dtype=np.float64)
    assert [int(v) for v in tb.special.gamma(n)[:22]] == [int(mp.factorial(k - 1)) for k in range(1, 23)]
    np.testing.assert_array_equal(tb.special.gamma(n), sc.gamma(n))
    assert tb.special.gamma(-1e-300) == pytest.approx(-1e300, rel=2e-16)
    assert tb.special.gamma(-5e-324) == -np.inf


def test_loggamma_near_its_zeros():
    x = np.array([1 - 1e-3, 0.9986277579343437, 1 + 1e-8, 2 - 1e-4, 2 + 1e-9])
    reference = [mp.loggamma(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.loggamma(x), reference).max() < 1e-15
    assert relative_to_mpmath(sc.loggamma(x[1:2]), reference[1:2]).max() > 1e-13
    assert np.isnan(tb.special.loggamma(-2.5))  # real loggamma: nan for x < 0, as SciPy


def test_digamma_against_mpmath():
    x = np.array([1.4616321449683622, 1.4616321449, 1.5, 1.2, -0.5040830082644554, -0.45, 1e-300,
                  -1e-10, 0.3, 7.0, 1e15, -3.6352992839079015 + 0.02])
    reference = [mp.digamma(mpf(v)) for v in x]
    assert relative_to_mpmath(tb.special.digamma(x), reference).max() < 5e-15
    # libtorch's digamma loses everything next to the positive zero
    import torch

    t = torch.digamma(torch.tensor([x[1]], dtype=torch.float64)).item()
    assert abs(t / float(reference[1]) - 1) > 1e-6
    assert tb.special.digamma(0.0) == -np.inf and tb.special.digamma(-0.0) == np.inf
    assert np.isnan(tb.special.digamma(-3.0)) and np.isnan(tb.special.psi(-np.inf))


def test_cosm1_near_multiples_of_two_pi():
    x = np.array([2 * np.pi, 6 * np.pi + 1e-4, -2 * np.pi + 1e-7, 1e-8, 3.0])
    reference = [mp.cos(mpf(v)) - 1 for v in x]
    assert relative_to_mpmath(tb.special.cosm1(x), reference).max() < 3e-16
    assert relative_to_mpmath(sc.cosm1(x[:2]), reference[:2]).max() > 1e-10


def test_entropy_and_divergence_domain_edges():
    assert tb.special.xlogy(0.0, 0.0) == 0 and np.isnan(tb.special.xlogy(0.0, np.nan))
    assert tb.special.xlogy(0.0, -1.0) == 0 and tb.special.xlog1py(0.0, -2.0) == 0
    assert tb.special.xlog1py(1.0, -1.0) == -np.inf
    x = np.array([0.0, 0.0, -1.0, 1.0, 1.0, 0.0, np.nan, 1e300])
    y = np.array([0.0, 1.0, 1.0, -1.0, 0.0, -1.0, 1.0, 1e-300])
    np.testing.assert_array_equal(tb.special.rel_entr(x, y), sc.rel_entr(x, y))
    np.testing.assert_array_equal(tb.special.kl_div(x, y), sc.kl_div(x, y))
    np.testing.assert_array_equal(tb.special.rel_entr(x, y)[:6], [0, 0, np.inf, np.inf, np.inf, np.inf])
    e = np.array([-1.0, -0.0, 0.0, 1.0, np.inf, np.nan])
    np.testing.assert_array_equal(tb.special.entr(e), sc.entr(e))


def test_boxcox_at_lambda_zero():
    x = np.array([0.5, 1.0, 2.0, 10.0, 0.0, -1.0])
    with np.errstate(all="ignore"):
        log_x = np.log(x)
        np.testing.assert_array_equal(tb.special.boxcox(x, 0.0), log_x)
        np.testing.assert_array_equal(tb.special.boxcox(x, 1e-20), log_x)
        np.testing.assert_allclose(tb.special.boxcox(x, 1e-10), sc.boxcox(x, 1e-10), rtol=1e-15)
        np.testing.assert_array_equal(tb.special.boxcox(x, 0.0), sc.boxcox(x, 0.0))
    np.testing.assert_array_equal(tb.special.inv_boxcox(x, 0.0), np.exp(x))
    np.testing.assert_allclose(tb.special.inv_boxcox(tb.special.boxcox(x[:4], 0.3), 0.3), x[:4],
                               rtol=1e-15)


def test_beta_and_binom_against_mpmath():
    a = np.array([0.5, 30.0, 1e7, -2.5, 1e-300, -1.5, 100.0])
    b = np.array([0.5, 40.0, 2.5, 1.3, 3.0, 0.5, 60.5])
    reference = [mp.beta(mpf(s), mpf(t)) for s, t in zip(a, b)]
    assert relative_to_mpmath(tb.special.beta(a, b), reference).max() < 3e-15
    # past a + b = 171.6 both go through lgamma sums: 3e-14 at (150, 150), as SciPy
    reference = mp.beta(150, 150)
    assert relative_to_mpmath(tb.special.beta(150.0, 150.0), [reference]).max() < 1e-13
    assert relative_to_mpmath(sc.beta(150.0, 150.0), [reference]).max() < 1e-13
    n = np.array([10.0, 50.0, 7.5, -3.5, 1e11, 30.0])
    k = np.array([3.0, 25.0, 2.0, 4.0, 2.0, 0.5])
    reference = [mp.binomial(mpf(s), mpf(t)) for s, t in zip(n, k)]
    assert relative_to_mpmath(tb.special.binom(n, k), reference).max() < 5e-15
    assert tb.special.binom(40.0, 15.0) == sc.binom(40.0, 15.0) == 40225345056.0  # product formula
    assert np.isnan(tb.special.binom(-3.0, 2.0))
    # SciPy's values at the negative integers
    a = np.array([-3.0, -3.0, 0.0, -2.0])
    b = np.array([2.0, 5.0, 3.0, -2.0])
    np.testing.assert_array_equal(tb.special.beta(a, b), sc.beta(a, b))


# ---------------------------------------------------------------------------
# The Python-level functions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1), (1,), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_matches_scipy(axis, keepdims, rng):
    a = rng.normal(size=(3, 4)) * 50
    got = tb.special.logsumexp(a, axis=axis, keepdims=keepdims)
    want = sc.logsumexp(a, axis=axis, keepdims=keepdims)
    assert type(got) is type(want) and np.shape(got) == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-15)


def test_logsumexp_weights_signs_and_infinities(rng):
    a = rng.normal(size=(4, 5))
    b = rng.normal(size=(4, 5))
    for axis in (None, 0, 1):
        got, sign = tb.special.logsumexp(a, axis=axis, b=b, return_sign=True)
        want, want_sign = sc.logsumexp(a, axis=axis, b=b, return_sign=True)
        np.testing.assert_allclose(got, want, rtol=1e-13)
        np.testing.assert_array_equal(sign, want_sign)
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(tb.special.logsumexp(a, axis=axis, b=b),
                                       sc.logsumexp(a, axis=axis, b=b), rtol=1e-13)
    cases = [
        (np.array([1.0, 2.0, np.inf]), None),
        (np.array([-np.inf, -np.inf]), None),
        (np.array([np.inf, -np.inf]), None),
        (np.array([1.0, np.nan]), None),
        (np.array([1.0, np.inf]), np.array([1.0, 0.0])),
        (np.array([1.0, 2.0]), np.array([1.0, -1.0])),
        (np.array([1.0, 1.0]), np.array([1.0, -1.0])),
        (np.array([1000.0, 1000.0]), np.array([2.0, -1.0])),
        (np.array([5.0]), np.array([0.0])),
    ]
    for a, b in cases:
        with np.errstate(all="ignore"):
            want = sc.logsumexp(a, b=b)
            want_rs = sc.logsumexp(a, b=b, return_sign=True)
        got = tb.special.logsumexp(a, b=b)
        np.testing.assert_allclose(got, want, rtol=1e-15, equal_nan=True, err_msg=f"{a} {b}")
        got_rs = tb.special.logsumexp(a, b=b, return_sign=True)
        np.testing.assert_allclose(got_rs, want_rs, rtol=1e-15, equal_nan=True, err_msg=f"{a} {b}")


def test_logsumexp_types_dtypes_and_empty():
    for value in [1.0, [1.0, 2.0], np.float32(1.0), np.arange(3), np.array([True, False]),
                  np.ones(2, np.float16)]:
        got = tb.special.logsumexp(value)
        want = sc.logsumexp(value)
        assert type(got) is type(want) and got.dtype == want.dtype, value
        np.testing.assert_allclose(got, want, rtol=1e-3 if want.dtype == np.float16 else 1e-7)
    f32 = np.ones(3, np.float32)
    assert tb.special.logsumexp(f32, b=2).dtype == sc.logsumexp(f32, b=2).dtype == np.float32
    assert tb.special.logsumexp(np.ones(3), b=f32).dtype == np.float64
    for shape, axis in [((0,), None), ((0, 3), 0), ((3, 0), 1), ((3, 0), 0)]:
        got = tb.special.logsumexp(np.ones(shape), axis=axis)
        want = sc.logsumexp(np.ones(shape), axis=axis)
        assert np.shape(got) == np.shape(want)
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="out of bounds"):
        tb.special.logsumexp(np.ones((2, 2)), axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        tb.special.logsumexp(np.ones((2, 2)), axis=(0, 0))
    with pytest.raises(tb.UnsupportedParameterError, match="complex"):
        tb.special.logsumexp(np.ones(2, complex))


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
def test_softmax_matches_scipy(name, axis, rng):
    x = rng.normal(size=(3, 4)) * 30
    x[1, 2] = -np.inf
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(x, axis=axis)
    got = ours(name)(x, axis=axis)
    assert type(got) is type(want) and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-300)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_dtypes_and_types(name):
    for dtype in ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "float16",
                  "float32", "float64"]:
        x = np.array([[1, 2, 3], [3, 5, 4], [-100, 100, 0]]).astype(dtype)
        # x - max(x) is computed in x's dtype, so unsigned integers wrap around (and
        # float16 exp overflows): SciPy's results, garbage included
        with np.errstate(all="ignore"):
            want = getattr(sc, name)(x, axis=1)
        got = ours(name)(x, axis=1)
        assert got.dtype == want.dtype, dtype
        np.testing.assert_allclose(got, want, rtol=2e-3 if want.dtype == np.float16 else 1e-6,
                                   equal_nan=True, err_msg=dtype)
    assert type(ours(name)(1.0)) is type(getattr(sc, name)(1.0))
    with pytest.raises(TypeError):
        ours(name)(np.array([True, False]))  # NumPy has no boolean subtract
    with np.errstate(all="ignore"):
        inf_case = np.array([np.inf, 1.0, -np.inf])
        np.testing.assert_array_equal(ours(name)(inf_case), getattr(sc, name)(inf_case))


def test_multigammaln():
    a = np.array([3.0, 5.5, 20.0])
    for d in [1, 2, 3, 5, np.int64(4)]:
        np.testing.assert_allclose(tb.special.multigammaln(a, d), sc.multigammaln(a, d), rtol=1e-14)
    assert type(tb.special.multigammaln(23.5, 10)) is type(sc.multigammaln(23.5, 10))
    reference = 22.5 * mp.log(mp.pi) + sum(mp.loggamma(23.5 - mp.mpf(j) / 2) for j in range(10))
    assert tb.special.multigammaln(23.5, 10) == pytest.approx(float(reference), rel=1e-15)
    assert tb.special.multigammaln(np.float32(3), 2).dtype == np.float64
    with pytest.raises(ValueError, match="positive integer"):
        tb.special.multigammaln(a, 2.5)
    with pytest.raises(ValueError, match="not met"):
        tb.special.multigammaln(np.array([3.0, 0.4]), 2)


def test_factorial():
    n = np.array([3, 4, -1, 0, 20, 30, 170, 171])
    # correctly rounded n! (SciPy is an ulp off at 170)
    np.testing.assert_array_equal(tb.special.factorial(n)[4:7],
                                  [float(mp.factorial(k)) for k in (20, 30, 170)])
    np.testing.assert_allclose(tb.special.factorial(n), sc.factorial(n), rtol=4e-16)
    assert tb.special.factorial(n).dtype == np.float64
    f = np.array([3.0, 2.5, -1.0, np.nan, 170.0])
    np.testing.assert_allclose(tb.special.factorial(f), sc.factorial(f), rtol=1e-15)
    np.testing.assert_allclose(tb.special.factorial(f, extend="complex"),
                               sc.factorial(f, extend="complex"), rtol=1e-15)
    assert tb.special.factorial(np.float32([3, -1.5]), extend="complex").dtype == np.float32
    for value in [5, 5.0, np.float32(5), -3, 0, 1, None, np.nan, 2.5, np.int8(4)]:
        got, want = tb.special.factorial(value), sc.factorial(value)
        assert type(got) is type(want), value
        np.testing.assert_allclose(got, want, rtol=1e-7, equal_nan=True)
    assert tb.special.factorial(25, exact=True) == sc.factorial(25, exact=True) == 15511210043330985984000000
    exact = tb.special.factorial(np.array([0, 1, 5, 20, -2]), exact=True)
    np.testing.assert_array_equal(exact, sc.factorial(np.array([0, 1, 5, 20, -2]), exact=True))
    assert exact.dtype == np.int64
    assert type(tb.special.factorial(np.array(3.0))) is np.ndarray  # 0-d array, as SciPy
    empty = np.array([], dtype=np.int32)
    assert tb.special.factorial(empty) is empty  # SciPy returns n itself
    with pytest.raises(tb.UnsupportedParameterError, match="20!"):
        tb.special.factorial(np.array([21]), exact=True)
    for bad, kwargs in [(np.array([2.0]), {"exact": True}), (np.array([True]), {}),
                        (3, {"extend": "x"}), (3, {"exact": True, "extend": "complex"}),
                        (2.5, {"exact": True}), (np.array([1j]), {}), (True, {})]:
        with pytest.raises(ValueError):
            tb.special.factorial(bad, **kwargs)
        with pytest.raises(ValueError):
            sc.factorial(bad, **kwargs)


def test_sinc_is_numpys(rng):
    for dtype in ["float16", "float32", "float64", "int32", "bool", "complex64", "complex128"]:
        x = (rng.uniform(-5, 5, 100) * (2 if dtype != "bool" else 1)).astype(dtype)
        x[:3] = 0
        got, want = tb.special.sinc(x), np.sinc(x)
        assert got.dtype == want.dtype, dtype
        tol = 2e-3 if dtype == "float16" else 1e-6 if dtype in ("float32", "complex64") else 1e-15
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    assert type(tb.special.sinc(0.5)) is type(np.sinc(0.5))
    assert tb.special.sinc(0.0) == 1.0
    assert np.isnan(tb.special.sinc(np.inf))


# ---------------------------------------------------------------------------
# On a GPU
# ---------------------------------------------------------------------------


def _cuda_or_skip():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device visible")
    return torch


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(CASES))
def test_cuda_matches_cpu(name, rng):
    torch = _cuda_or_skip()
    args = sample(name, rng, 20_000)
    cpu = [torch.from_numpy(a) for a in args]
    cuda = [t.cuda() for t in cpu]
    got = ours(name)(*cuda)
    assert got.is_cuda
    want = ours(name)(*cpu)
    case = CASES[name]
    # CUDA's libm differs from the CPU's by an ulp or two
    assert_close(got.cpu().numpy(), want.numpy(), max(case.rtol, 1e-13) * 10, case.atol * 10,
                 scale_atol=name in POLYNOMIALS)


@pytest.mark.gpu
def test_cuda_reductions_and_functions(rng):
    torch = _cuda_or_skip()
    a = torch.from_numpy(rng.normal(size=(50, 40)) * 20).cuda()
    for name in ("softmax", "log_softmax"):
        np.testing.assert_allclose(ours(name)(a, axis=1).cpu().numpy(),
                                   getattr(sc, name)(a.cpu().numpy(), axis=1), rtol=1e-13, atol=1e-300)
    got, sign = tb.special.logsumexp(a, axis=0, b=a, return_sign=True)
    want, want_sign = sc.logsumexp(a.cpu().numpy(), axis=0, b=a.cpu().numpy(), return_sign=True)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-13)
    np.testing.assert_array_equal(sign.cpu().numpy(), want_sign)
    x = torch.linspace(0.1, 5, 100, dtype=torch.float64).cuda()
    np.testing.assert_allclose(tb.special.polygamma(2, x).cpu().numpy(), sc.polygamma(2, x.cpu().numpy()),
                               rtol=1e-13)
    np.testing.assert_allclose(tb.special.zeta(x).cpu().numpy(), sc.zeta(x.cpu().numpy()), rtol=1e-13)
    np.testing.assert_allclose(tb.special.gammaincc(2.5, x).cpu().numpy(),
                               sc.gammaincc(2.5, x.cpu().numpy()), rtol=1e-13)


# ---------------------------------------------------------------------------
# The layout: one ufunc table, picklable routines, generated constants
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(tb.special.__all__))
def test_every_routine_pickles_by_reference(name):
    f = getattr(tb.special, name)
    assert pickle.loads(pickle.dumps(f)) is f
    module = importlib.import_module(f.__module__)
    assert getattr(module, f.__qualname__) is f


def test_the_ufunc_table_gives_the_bindings_and_all():
    ufuncs = tb._core.special.UFUNCS
    assert len(ufuncs) == len(set(ufuncs)) >= 60
    assert set(ufuncs) <= set(tb.special.__all__)
    assert set(tb.special.__all__) - set(ufuncs) == set(FUNCTIONS) | {"psi"}
    for name in ufuncs:
        f = getattr(tb.special, name)
        assert f is getattr(tb._core.special, name), name  # the builtin itself, no wrapper
        assert f.__doc__ and "scipy.special" in f.__doc__, name
        assert inspect.signature(f).parameters["device"].kind is inspect.Parameter.KEYWORD_ONLY
    for name in FUNCTIONS:
        assert inspect.signature(getattr(tb.special, name)).parameters["device"].default is None, name


def test_factorial_takes_device():
    assert tb.special.factorial(np.array([3.0, 4.0]), device="cpu").tolist() == [6.0, 24.0]
    assert tb.special.factorial(5.0, device="cpu") == 120.0


def test_constant_tables_regenerate():
    script = Path(__file__).resolve().parents[2] / "src" / "ops" / "special" / "constants.py"
    proc = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "matches" in proc.stdout


# Calls whose size, length, degree or axis comes from the caller, made huge:
# each must raise a clean exception (never abort, hang or PanicException).
HUGE = [
    ("tb.special.multigammaln(1e16, 10**15)", MemoryError),
    ("tb.special.multigammaln(np.full(4, 1e31), 10**30)", MemoryError),
    ("tb.special.multigammaln(1.0, 10**9)", ValueError),
    ("tb.special.factorial(10**9, exact=True)", MemoryError),
    ("tb.special.factorial(np.array([10**9]), exact=True)", NotImplementedError),
    ("tb.special.eval_legendre(10**18, 0.5)", NotImplementedError),
    ("tb.special.eval_hermite(2**62, 0.5)", NotImplementedError),
    ("tb.special.eval_laguerre(-(10**18), 0.5)", NotImplementedError),
    ("tb.special.eval_chebyt(1e300, np.ones(3))", NotImplementedError),
    ("tb.special.eval_chebyu(np.array([5, 2**40]), 0.5)", NotImplementedError),
    ("tb.special.logsumexp(np.ones(3), axis=2**62)", IndexError),
    ("tb.special.logsumexp(np.ones(3), axis=-(2**63))", ValueError),
    ("tb.special.logsumexp(np.ones(3), axis=10**30)", TypeError),
    ("tb.special.softmax(np.ones((2, 2)), axis=(0, 2**62))", IndexError),
    ("tb.special.log_softmax(np.ones(3), axis=2**40)", IndexError),
    # broadcast shapes and zero-stride views whose results do not fit in memory
    ("tb.special.beta(np.ones((10**6, 1)), np.ones((1, 10**8)))", MemoryError),
    ("tb.special.gamma(np.broadcast_to(1.5, (2**44,)))", MemoryError),
    ("tb.special.erf(np.broadcast_to(1.5, (2**44,)))", MemoryError),
    ("tb.special.eval_legendre(np.broadcast_to(3, (2**44,)), 0.5)", MemoryError),
    ("tb.special.logsumexp(np.broadcast_to(1.5, (2**44,)))", MemoryError),
    ("tb.special.softmax(np.broadcast_to(np.float32(1.5), (2**44,)))", MemoryError),
    ("tb.special.polygamma(1, np.broadcast_to(1.5, (2**44,)))", MemoryError),
    ("tb.special.factorial(np.broadcast_to(3.0, (2**44,)))", MemoryError),
]


@pytest.mark.parametrize("call, expected", HUGE, ids=[c for c, _ in HUGE])
def test_huge_sizes_raise_cleanly(call, expected):
    code = (
        "import numpy as np, torchbridge as tb\n"
        f"try:\n    {call}\n"
        "except BaseException as e:\n"
        "    print(','.join(c.__name__ for c in type(e).__mro__))\n"
        "    print(e)\n"
        "else:\n    print('no exception')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    classes = proc.stdout.splitlines()[0].split(",")
    assert "PanicException" not in classes, proc.stdout
    assert expected.__name__ in classes, proc.stdout
