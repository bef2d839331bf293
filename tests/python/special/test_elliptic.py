"""Carlson's symmetric elliptic integrals and Legendre's (src/ops/special/
carlson.rs, ellip.rs) against SciPy, with mpmath (50 digits) as the judge
where SciPy's values are off: R_J with two tiny arguments, R_F and R_G of
tiny equal arguments, the principal value of R_J for p < 0.

The binary and unary ones (ellipk, ellipkinc, elliprc, ...) also run through
the table-driven tests of test_ufuncs.py (cases.CASES); the three- and
four-argument ufuncs get the same checks here.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.special as sc
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb

from .cases import mp

N = 4000


def logu(rng, lo, hi, n=N, negative=False):
    v = 10.0 ** rng.uniform(lo, hi, n)
    return v * rng.choice([-1.0, 1.0], n) if negative else v


def draw(name, rng, n=N):
    args = [logu(rng, -5, 5, n) for _ in range(3)]
    if name == "elliprj":
        args.append(np.concatenate([logu(rng, -5, 5, n // 2), -logu(rng, -5, 5, n - n // 2)]))
    return args


# name -> measured max relative error against SciPy, rounded up. elliprj: for
# p > 0 torchbridge is within 3e-16 of mpmath where SciPy is 1e-13 off; for
# p < 0 Carlson's transformation cancels (terms 3e4 summing to 5 at
# (532, 4e-4, 9e-4, -6e-4)), and both libraries lose 1e-13 to 4e-12 there
# (test_elliprj_principal_value_against_mpmath).
RTOL = {"elliprf": 3e-15, "elliprd": 3e-15, "elliprg": 3e-15, "elliprj": 5e-12}


def relative_error(got, want):
    got, want = np.asarray(got, float), np.asarray(want, float)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(all="ignore"):
        return np.where(same, 0.0, np.abs(got - want) / np.abs(want))


@pytest.mark.parametrize("name", sorted(RTOL))
def test_against_scipy(name, rng):
    args = draw(name, rng)
    got = getattr(tb.special, name)(*args)
    want = getattr(sc, name)(*args)
    assert got.dtype == np.float64
    assert relative_error(got, want).max() <= RTOL[name]


@pytest.mark.parametrize("name", sorted(RTOL))
def test_zero_arguments(name, rng):
    args = draw(name, rng, 600)
    for i in range(3):
        args[i][i * 200:(i + 1) * 200] = 0.0
    got = getattr(tb.special, name)(*args)
    want = getattr(sc, name)(*args)
    assert relative_error(got, want).max() <= RTOL[name]


def test_elliprj_two_tiny_arguments_against_mpmath():
    # SciPy is 1e-3 relative off here; the duplication's R_C(1, 1 + e) terms are
    # taken from 1 + e = 2 sqrt(p) (p + lambda) / d, without cancellation
    for args in [(1e-300, 1.0, 1e-300, 1.0), (1.0, 1.0, 2.0, 1e-300), (1e-200, 3.0, 1e-250, 0.5)]:
        with mp.workdps(700):  # mpmath's own duplication needs the digits here
            want = float(mp.elliprj(*(mp.mpf(v) for v in args)))
        assert abs(tb.special.elliprj(*args) - want) <= 1e-14 * abs(want), args


def principal_value(x, y, z, p):
    """R_J for p < 0 by Carlson's transformation in 50-digit arithmetic (mpmath's own
    elliprj takes another branch there)."""
    x, y, z = sorted(mp.mpf(float(v)) for v in (x, y, z))
    q = -mp.mpf(float(p))
    r = (z * (x + y + q) - x * y) / (z + q)
    value = ((r - z) * mp.elliprj(x, y, z, r) - 3 * mp.elliprf(x, y, z)
             + 3 * mp.sqrt(x * y * z / (x * y + r * q)) * mp.elliprc(x * y + r * q, r * q))
    return float(value / (z + q))


def test_elliprj_principal_value_against_mpmath(rng):
    x, y, z = (logu(rng, -3, 3, 60) for _ in range(3))
    p = -logu(rng, -3, 3, 60)
    got = tb.special.elliprj(x, y, z, p)
    want = np.array([principal_value(*a) for a in zip(x, y, z, p)])
    assert relative_error(got, want).max() < 5e-14
    # two tiny arguments: SciPy is 5e-4 relative off
    got = tb.special.elliprj(1e-300, 1.0, 1e-300, -1.0)
    assert abs(got - principal_value(1e-300, 1.0, 1e-300, -1.0)) < 1e-14 * abs(got)


def test_elliprf_elliprg_against_mpmath(rng):
    x, y, z = (logu(rng, -300, 300, 40) for _ in range(3))
    for name, reference in (("elliprf", mp.elliprf), ("elliprg", mp.elliprg)):
        got = getattr(tb.special, name)(x, y, z)
        with mp.workdps(700):
            want = np.array([float(reference(*(mp.mpf(float(v)) for v in a))) for a in zip(x, y, z)])
        assert relative_error(got, want).max() < 5e-15, name
    # SciPy gives nan for these; pi / (2 sqrt(a)), (pi/4) sqrt(a) are the values
    assert tb.special.elliprf(1e-300, 0.0, 1e-300) == pytest.approx(np.pi / 2 * 1e150, rel=1e-15)
    assert tb.special.elliprg(1e300, 1.0, 1e300) == pytest.approx(float(mp.elliprg(1e300, 1, 1e300)), rel=1e-15)


EDGES = np.array([np.nan, np.inf, 0.0, -0.0, 1.0, -1.0, 1e-300, 1e300, 2.0])


def edge_grid(name):
    grids = [EDGES] * 3
    if name == "elliprj":
        grids.append(np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, -1.0, 1e-300, 1e300]))
    return [m.ravel() for m in np.meshgrid(*grids)]


def scipy_is_off(name, args, got, want):
    """Where SciPy's special value is not followed: SciPy gives nan (or 0) where
    the integral is finite (tiny equal arguments) or infinite, or ignores a nan."""
    if np.isnan(want) and np.isfinite(args).all() and (np.asarray(args[:3]) >= 0).all():
        return True  # e.g. R_F(1e-300, 0, 1e-300) = pi/2 1e150, SciPy nan
    if np.isnan(args).any() and np.isnan(got):
        return True  # nan input gives nan; SciPy returns 0 where another argument is infinite
    if np.isinf(args).any() and sum(a == 0 for a in args[:3]) >= 2 and got in (0.0, np.inf):
        return True  # 0 (an infinite argument) or inf (two zeros): SciPy's order is not consistent
    if name == "elliprj" and np.isfinite(args).all() and max(args[:3]) == 1e300 and min(args) < 1e-200:
        return abs(got - want) <= 1e-6 * abs(want)  # huge and tiny together: SciPy's accuracy
    if name == "elliprj" and min(abs(a) for a in args) == 1e-300 and np.isfinite(args).all():
        return True  # two tiny arguments: SciPy is 1e-3 off (test_elliprj_two_tiny_arguments...)
    return False


@pytest.mark.parametrize("name", sorted(RTOL))
def test_edge_values(name):
    args = edge_grid(name)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(sc, name)(*args)
    got = getattr(tb.special, name)(*args)
    close = np.isclose(got, want, rtol=1e-13, atol=0, equal_nan=True)
    for i in np.nonzero(~close)[0]:
        point = [float(a[i]) for a in args]
        assert scipy_is_off(name, point, got[i], want[i]), (point, got[i], want[i])


@pytest.mark.parametrize("name", sorted(RTOL))
def test_float32_stays_float32(name, rng):
    args = [a.astype(np.float32) for a in draw(name, rng, 500)]
    got = getattr(tb.special, name)(*args)
    want = getattr(sc, name)(*args)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=2e-6)


@pytest.mark.parametrize("name", sorted(RTOL))
def test_result_dtypes_follow_scipys_loops(name):
    for dtype in ["bool", "int8", "int32", "int64", "uint64", "float16", "float32", "float64"]:
        args = [np.array([1, 2, 3]).astype(dtype)] * (4 if name == "elliprj" else 3)
        want = getattr(sc, name)(*args).dtype
        assert getattr(tb.special, name)(*args).dtype == want, dtype
    mixed = [np.ones(2, np.float32), np.ones(2), np.ones(2, np.float32)] + ([np.ones(2)] if name == "elliprj" else [])
    assert getattr(tb.special, name)(*mixed).dtype == np.float64
    # complex arguments: SciPy's FFF->F / DDD->D loops (tests/python/special/test_complex_part2.py)
    for dtype in [np.complex64, np.complex128]:
        args = [np.array([1 + 1j, 2.0]).astype(dtype)] * (4 if name == "elliprj" else 3)
        got = getattr(tb.special, name)(*args)
        want = getattr(sc, name)(*args)
        assert got.dtype == want.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=2e-6 if dtype == np.complex64 else 1e-13)


@pytest.mark.parametrize("name", sorted(RTOL))
def test_scalars_empty_and_broadcasting(name):
    k = 4 if name == "elliprj" else 3
    got = getattr(tb.special, name)(*([0.5] * k))
    want = getattr(sc, name)(*([0.5] * k))
    assert type(got) is type(want) and got == pytest.approx(want, rel=1e-14)
    assert getattr(tb.special, name)(*([np.empty((0, 3))] * k)).shape == (0, 3)
    args = [np.full((2, 1), 0.5), np.array([0.5, 1.5, 2.5])] + [2.0] * (k - 2)
    np.testing.assert_allclose(getattr(tb.special, name)(*args), getattr(sc, name)(*args), rtol=1e-14)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", sorted(RTOL))
def test_every_library(lib, name, rng):
    args = draw(name, rng, 100)
    got = getattr(tb.special, name)(*(to_library(lib, a) for a in args))
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), getattr(sc, name)(*args), rtol=max(RTOL[name], 1e-13))


def test_legendre_forms_against_mpmath(rng):
    m = np.concatenate([rng.uniform(-5, 1, 30), 1 - 10.0 ** rng.uniform(-16, -1, 20)])
    phi = rng.uniform(-10, 10, 50)
    cases = [
        ("ellipk", (m,), lambda m: mp.ellipk(m)),
        ("ellipe", (m,), lambda m: mp.ellipe(m)),
        ("ellipkinc", (phi, m), lambda p, m: mp.ellipf(p, m)),
        ("ellipeinc", (phi, m), lambda p, m: mp.ellipe(p, m)),
    ]
    for name, args, reference in cases:
        got = getattr(tb.special, name)(*args)
        want = np.array([float(reference(*(mp.mpf(float(v)) for v in a))) for a in zip(*args)])
        assert relative_error(got, want).max() < 2e-14, name
    # K(1 - p) for tiny p: the logarithmic singularity, 346.77 at 1e-300
    with mp.workdps(400):
        want = float(mp.ellipk(1 - mp.mpf(1e-300)))
    assert tb.special.ellipkm1(1e-300) == pytest.approx(want, rel=1e-15)
    # F(phi | m) ~ phi for tiny phi even when m is huge and negative
    assert tb.special.ellipkinc(1e-300, -1e300) == pytest.approx(1e-300, rel=1e-15)


def test_carlson_integrals_in_float32_and_warnings_free(rng):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tb.special.elliprj(np.float32(1.0), np.float32(2.0), np.float32(3.0), np.float32(-1.0))
