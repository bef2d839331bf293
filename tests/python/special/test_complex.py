"""Complex arguments in torchbridge.special: the Faddeeva function ``wofz``
and the erf family of complex argument (erf, erfc, erfcx, erfi, dawsn: the
C++ kernel of csrc/faddeeva.cpp), and ``voigt_profile`` built on it, against
SciPy (grids across the plane: the axes, signed zeros, large |z|, inf and nan
components) and against mpmath where the two differ.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.special as sc
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb

from .cases import mp

FADDEEVA = ["wofz", "erf", "erfc", "erfcx", "erfi", "dawsn"]

#: |ours - SciPy| <= RTOL |SciPy| in complex128. SciPy's own Faddeeva code is
#: up to 1.6e-13 off near |z| = 5e-3 (its Taylor branches' edges) and 5e-14
#: where exp(y^2) of a large y is rounded; torchbridge is closer to mpmath
#: there (test_closer_to_mpmath_than_scipy).
RTOL = 2.5e-13


def plane(rng) -> np.ndarray:
    """Points over the plane: every scale from 1e-300 to 1e300 in every
    quadrant, mixed scales, both axes (with +-0.0 parts), points next to them."""
    parts = []
    for scale in [1e-300, 1e-20, 1e-8, 1e-4, 1e-3, 5e-3, 1e-2, 0.05, 0.1, 0.5, 1, 2, 5, 6, 7, 8, 10, 20, 27,
                  30, 50, 100, 1e3, 1e5, 1e8, 1e20, 1e150, 1e300]:
        r = scale * rng.uniform(0.3, 3, size=(100, 2)) * rng.choice([-1, 1], size=(100, 2))
        parts.append(r[:, 0] + 1j * r[:, 1])
    a = 10.0 ** rng.uniform(-12, 3, size=(4000, 2)) * rng.choice([-1, 1], size=(4000, 2))
    parts.append(a[:, 0] + 1j * a[:, 1])
    v = 10.0 ** rng.uniform(-12, 3, size=600) * rng.choice([-1, 1], size=600)
    parts += [v + 0j, v - 0j, 1j * v, complex(-0.0, 1) * v, v + 1e-12j * v, v * 1e-12 + 1j * v]
    return np.concatenate(parts)


def rel_err(got, want):
    got, want = np.asarray(got), np.asarray(want)
    fin = np.isfinite(want) & (np.abs(want) > 1e-300) & (np.abs(want) < 1e300)
    return np.abs(got[fin] - want[fin]) / np.abs(want[fin])


def same_values(got, want, rtol):
    """Componentwise: nan where SciPy is nan, equal infinities, signed zeros
    where SciPy's component is 0, finite values within rtol of |SciPy|."""
    got, want = np.asarray(got), np.asarray(want)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert np.array_equal(np.isnan(g), np.isnan(w))
        inf = np.isinf(w)
        assert np.array_equal(g[inf], w[inf])
        zero = w == 0
        assert np.array_equal(g[zero], w[zero]) and np.array_equal(np.signbit(g[zero]), np.signbit(w[zero]))
    fin = np.isfinite(want) & np.isfinite(got)
    assert np.all(np.abs(got[fin] - want[fin]) <= rtol * np.abs(want[fin]) + 1e-300)


@pytest.mark.parametrize("name", FADDEEVA)
def test_complex128_matches_scipy_across_the_plane(name, rng):
    z = plane(rng)
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(z)
    got = getattr(tb.special, name)(z)
    assert got.dtype == np.complex128
    assert rel_err(got, want).max() <= RTOL
    # where SciPy under- or overflows, the same zeros, infinities and nans
    edge = ~np.isfinite(want) | (np.abs(want) <= 1e-300) | (np.abs(want) >= 1e300)
    np.testing.assert_allclose(got[edge], want[edge], rtol=1e-12, atol=0, equal_nan=True)


@pytest.mark.parametrize("name", FADDEEVA)
def test_special_values_are_scipys(name):
    vals = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 30.0, -30.0, 1e-310, 5.0, -5.0, 27.0, 26.5]
    z = np.array([complex(a, b) for a, b in itertools.product(vals, vals)])
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(z)
    same_values(getattr(tb.special, name)(z), want, 1e-13)


@pytest.mark.parametrize("name", FADDEEVA)
def test_complex64_matches_scipy(name, rng):
    z = plane(rng)
    z = z[(np.abs(z) < 1e30) & (np.abs(z) > 1e-30)].astype(np.complex64)
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(z)
    got = getattr(tb.special, name)(z)
    assert got.dtype == want.dtype == np.complex64
    # both round the double result once; a float32 input's result can be ill-conditioned
    # (exp(-z^2) for |z| ~ 30 has condition number 2 |z|^2): compare with the input's own rounding
    ref = getattr(sc, name)(z.astype(np.complex128))
    fin = np.isfinite(ref) & (np.abs(ref) > 1e-30) & (np.abs(ref) < 1e30)
    assert np.all(np.abs(got[fin] - ref[fin]) <= 1.2e-7 * np.abs(ref[fin]))
    np.testing.assert_array_equal(got[fin], want[fin])


@pytest.mark.parametrize("name", FADDEEVA)
def test_closer_to_mpmath_than_scipy(name, rng):
    f = {"wofz": lambda z: mp.exp(-z * z) * mp.erfc(-1j * z), "erf": mp.erf, "erfc": mp.erfc,
         "erfcx": lambda z: mp.exp(z * z) * mp.erfc(z), "erfi": mp.erfi,
         "dawsn": lambda z: mp.sqrt(mp.pi) / 2 * mp.exp(-z * z) * mp.erfi(z)}[name]
    r = np.concatenate([10.0 ** rng.uniform(-4, 1.4, 300), rng.uniform(0.004, 0.008, 100)])
    t = rng.uniform(-np.pi, np.pi, r.size)
    z = r * np.exp(1j * t)
    z = z[np.abs(z.real ** 2 - z.imag ** 2) < 600]
    ref = np.array([complex(f(mp.mpc(v.real, v.imag))) for v in z])
    ours = rel_err(getattr(tb.special, name)(z), ref).max()
    theirs = rel_err(getattr(sc, name)(z), ref).max()
    # exp(-z^2) of |z| ~ 25 (the lower half plane) carries the rounding of z^2: ~|z|^2 ulps, SciPy's too
    assert ours < 5e-14, ours
    assert ours <= max(1.05 * theirs, 3e-15), (ours, theirs)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_every_library(lib, rng):
    z = (rng.normal(size=50) + 1j * rng.normal(size=50)) * 3
    for name in FADDEEVA:
        got = getattr(tb.special, name)(to_library(lib, z))
        assert isinstance(got, library_type(lib))
        np.testing.assert_allclose(to_numpy(got), getattr(sc, name)(z), rtol=RTOL)
    x, s, g = np.abs(rng.normal(size=(3, 40))) + 0.1
    got = tb.special.voigt_profile(*(to_library(lib, a) for a in (x, s, g)))
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), sc.voigt_profile(x, s, g), rtol=1e-13)


def test_wofz_loops_are_scipys():
    assert tb.special.wofz(np.float64(1.0)).dtype == np.complex128
    assert tb.special.wofz(np.float32([1.0])).dtype == sc.wofz(np.float32([1.0])).dtype == np.complex128
    assert tb.special.wofz(np.complex64([1.0])).dtype == np.complex64
    assert tb.special.wofz(np.array([1, 2])).dtype == np.complex128
    assert tb.special.wofz(np.array([True])).dtype == sc.wofz(np.array([True])).dtype
    np.testing.assert_allclose(tb.special.wofz(np.array([0.5, 3.0])), sc.wofz(np.array([0.5, 3.0])), rtol=1e-15)
    assert tb.special.wofz(1.5) == pytest.approx(sc.wofz(1.5), rel=1e-15)
    assert tb.special.erf(0.5 + 0.5j) == pytest.approx(sc.erf(0.5 + 0.5j), rel=1e-15)
    assert tb.special.wofz(np.zeros((0, 3), complex)).shape == (0, 3)


def test_requires_grad_is_refused():
    torch = pytest.importorskip("torch")
    z = torch.tensor([0.5 + 0.5j], dtype=torch.complex128, requires_grad=True)
    for name in FADDEEVA:
        with pytest.raises(tb.NotDifferentiableError):
            getattr(tb.special, name)(z)
    x = torch.tensor([0.5], dtype=torch.float64, requires_grad=True)
    with pytest.raises(tb.NotDifferentiableError):
        tb.special.voigt_profile(x, x, x)


def test_voigt_profile_matches_scipy(rng):
    n = 20_000
    x = rng.normal(size=n) * 10.0 ** rng.uniform(-5, 5, n)
    s = 10.0 ** rng.uniform(-5, 5, n)
    g = 10.0 ** rng.uniform(-5, 5, n)
    want = sc.voigt_profile(x, s, g)
    got = tb.special.voigt_profile(x, s, g)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=5e-14, atol=0)
    got32 = tb.special.voigt_profile(*(a.astype(np.float32) for a in (x, s, g)))
    assert got32.dtype == np.float32
    want32 = sc.voigt_profile(*(a.astype(np.float32) for a in (x, s, g)))
    np.testing.assert_allclose(got32, want32, rtol=1e-6, atol=0)
    # broadcasting and the Cauchy / normal limits
    np.testing.assert_allclose(tb.special.voigt_profile(x[:5, None], s[:3], 0.0),
                               sc.voigt_profile(x[:5, None], s[:3], 0.0), rtol=1e-15)
    np.testing.assert_allclose(tb.special.voigt_profile(x[:5], 0.0, g[:5]),
                               sc.voigt_profile(x[:5], 0.0, g[:5]), rtol=1e-15)


def test_voigt_profile_special_values():
    vals = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-310, 1e300]
    x, s, g = np.array(list(itertools.product(vals, vals, vals))).T
    with np.errstate(all="ignore"):
        want = sc.voigt_profile(x, s, g)
    got = tb.special.voigt_profile(x, s, g)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0, equal_nan=True)
    zero = want == 0
    assert np.array_equal(np.signbit(got[zero]), np.signbit(want[zero]))


@pytest.mark.gpu
def test_cuda_input_is_refused_with_the_routines_name():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    z = torch.tensor([0.5 + 0.5j], device="cuda")
    with pytest.raises(tb.UnsupportedParameterError, match="special.wofz .*CPU only"):
        tb.special.wofz(z)
    with pytest.raises(tb.UnsupportedParameterError, match="special.erf .*CPU only"):
        tb.special.erf(z)
    x = torch.ones(3, device="cuda", dtype=torch.float64)
    with pytest.raises(tb.UnsupportedParameterError, match="voigt_profile"):
        tb.special.voigt_profile(x, x, x)
    np.testing.assert_allclose(to_numpy(tb.special.erf(x)), sc.erf(np.ones(3)), rtol=1e-15)  # real: any device


def test_log1p_complex_matches_scipy(rng):
    z = plane(rng)
    z = z[np.abs(z) < 1e150]
    # next to the circle |1 + z| = 1, where log|1 + z| cancels (SciPy's double-double branch)
    t = rng.uniform(-np.pi, np.pi, 3000)
    eps = 10.0 ** rng.uniform(-15, -1, 3000) * rng.choice([-1, 1], 3000)
    z = np.concatenate([z, (1 + eps) * np.exp(1j * t) - 1, [-1 + 0j, -2 + 0j, -2 - 0j, 0j, -0j, 1e-300j]])
    with np.errstate(all="ignore"):
        want = sc.log1p(z)
    got = tb.special.log1p(z)
    assert got.dtype == np.complex128
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=0, equal_nan=True)
    assert tb.special.log1p(z[:10].astype(np.complex64)).dtype == np.complex64


def test_expm1_complex_matches_scipy(rng):
    z = plane(rng)
    z = z[np.abs(z) < 700]
    with np.errstate(all="ignore"):
        want = sc.expm1(z)
    got = tb.special.expm1(z)
    assert got.dtype == np.complex128
    # SciPy's cosm1(y) is cos(y) - 1 beyond |y| = pi/4, which cancels next to the
    # multiples of 2 pi; torchbridge's -2 sin(y/2)^2 does not (checked against mpmath below)
    near = np.abs(z.imag) <= np.pi / 4
    np.testing.assert_allclose(got[near], want[near], rtol=1e-14, atol=0)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=0)
    y = 2 * np.pi * rng.integers(1, 5, 50) + 10.0 ** rng.uniform(-8, -3, 50)
    z = 10.0 ** rng.uniform(-12, -8, 50) + 1j * y
    ref = np.array([complex(mp.expm1(mp.mpc(v.real, v.imag))) for v in z])
    assert rel_err(tb.special.expm1(z), ref).max() < 1e-13
    parts = [0.0, -0.0, np.inf, -np.inf, np.nan, -50.0]
    special = np.array([complex(a, b) for a, b in itertools.product(parts, repeat=2)])
    with np.errstate(all="ignore"):
        same = sc.expm1(special)
    np.testing.assert_allclose(tb.special.expm1(special), same, rtol=1e-15, equal_nan=True)
    assert tb.special.expm1(z.astype(np.complex64)).dtype == np.complex64


def test_expm1_log1p_complex_gradients():
    torch = pytest.importorskip("torch")
    z = torch.tensor([0.3 + 0.2j, -0.5 + 1.0j], dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(tb.special.expm1, (z,))
    assert torch.autograd.gradcheck(tb.special.log1p, (z,))
