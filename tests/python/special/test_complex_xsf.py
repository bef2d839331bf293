"""Complex arguments in torchbridge.special beyond the erf family: loggamma,
gamma, rgamma, digamma/psi, exp1, expi, spence (the C++ kernel of
csrc/xsf_complex.cpp), ndtr and log_ndtr (csrc/faddeeva.cpp), xlogy and
xlog1py (libtorch's complex ops), lambertw, and logsumexp/softmax/log_softmax
of complex input, against SciPy (grids that cross the branch cuts, large |z|,
poles and zeros, signed zeros, inf and nan components) and against mpmath
where SciPy itself is not exact.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
import scipy.special as sc
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb

from .cases import mp

XSF = ["loggamma", "gamma", "rgamma", "digamma", "psi", "exp1", "expi", "spence", "ndtr", "log_ndtr"]

#: |ours - SciPy| <= RTOL |SciPy| in complex128, except where SciPy's own
#: series cancels (test_closer_to_mpmath_than_scipy).
RTOL = 1e-13


def plane(rng) -> np.ndarray:
    """A grid across the plane (both axes with +-0.0 imaginary parts: the
    branch cuts), the poles and zeros and points next to them, random points
    of every scale up to 1e8."""
    xs = np.concatenate([np.linspace(-30, 30, 121), [-1e3, 1e3, -1e8, 1e8, -3.5, -2.5, -1.5, -0.5, 0.5, 1, 2,
                                                       1.4616321449683623, -0.504083008264455409, -1 / np.e]])
    ys = np.concatenate([np.linspace(-30, 30, 121), [-1e3, 1e3, -1e8, 1e8, 0.0, -0.0, 1e-10, -1e-10]])
    grid = (xs[:, None] + 1j * ys[None, :]).ravel()
    poles = np.arange(-20.0, 1.0)
    near = np.concatenate([poles + d for d in (1e-12, -1e-12, 1e-6j, -1e-6j, 1e-3 + 1e-3j)])
    r = 10.0 ** rng.uniform(-6, 3, 6000)
    t = rng.uniform(-np.pi, np.pi, 6000)
    return np.concatenate([grid, poles + 0j, poles - 0j, near, r * np.exp(1j * t)])


def special_values() -> np.ndarray:
    # (no subnormal parts: 1 / z of a subnormal z is where the C runtime's complex division,
    # libtorch's or the compiler's, and SciPy's differ: nan + inf i against 0 + inf i)
    vals = [0.0, -0.0, 1.0, -1.0, -2.0, 0.5, 3.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 1e-300]
    return np.array([complex(a, b) for a, b in itertools.product(vals, vals)])


def scipy_of(name, *args, **kwargs):
    with np.errstate(all="ignore"), sc.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sc, name)(*args, **kwargs)


def close(got, want, rtol):
    """Componentwise: the same nan pattern and infinities, then |got - want| <= rtol |want|."""
    got, want = np.asarray(got), np.asarray(want)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert np.array_equal(np.isnan(g), np.isnan(w))
        inf = np.isinf(w)
        assert np.array_equal(g[inf], w[inf])
    fin = np.isfinite(want)
    err = np.abs(got[fin] - want[fin])
    bad = err > rtol * np.abs(want[fin]) + 1e-300
    assert not bad.any(), (np.flatnonzero(fin)[bad][:5], got[fin][bad][:5], want[fin][bad][:5])


#: Where SciPy's own formula cancels and torchbridge is closer to mpmath: exp1
#: (expi) by its power series for Re z > 0 (-z for expi), 1.5 <= |z| < 5;
#: log_ndtr for Re z > 0 where ndtr(-z) < 0.1 (SciPy: exp(-t^2) erfcx(t) summed
#: in the log).
def scipy_cancels(name, z):
    if name == "exp1":
        return (z.real > 0) & (np.abs(z) >= 1.5) & (np.abs(z) < 5)
    if name == "expi":
        return (z.real < 0) & (np.abs(z) >= 1.5) & (np.abs(z) < 5)
    if name == "log_ndtr":
        with np.errstate(all="ignore"):
            return (z.real > 0) & (np.abs(sc.ndtr(-z)) < 0.1)
    return np.zeros(z.shape, bool)


@pytest.mark.parametrize("name", XSF)
def test_complex128_matches_scipy_across_the_plane(name, rng):
    z = plane(rng)
    want = scipy_of(name, z)
    got = getattr(tb.special, name)(z)
    assert got.dtype == np.complex128
    keep = ~scipy_cancels(name, z)
    close(got[keep], want[keep], RTOL)


@pytest.mark.parametrize("name", ["exp1", "expi", "log_ndtr"])
def test_closer_to_mpmath_than_scipy(name, rng):
    f = {"exp1": mp.e1, "expi": mp.ei, "log_ndtr": lambda z: mp.log(mp.erfc(-z / mp.sqrt(2)) / 2)}[name]
    z = rng.uniform(-8, 8, 1500) + 1j * rng.uniform(-8, 8, 1500)
    z = z[scipy_cancels(name, z)][:400]
    ref = np.array([complex(f(mp.mpc(v.real, v.imag))) for v in z])
    ours = np.abs(getattr(tb.special, name)(z) - ref) / np.abs(ref)
    theirs = np.abs(scipy_of(name, z) - ref) / np.abs(ref)
    assert ours.max() < 2e-14, ours.max()
    assert ours.max() <= theirs.max()


@pytest.mark.parametrize("name", XSF)
def test_special_values_are_scipys(name):
    z = special_values()
    keep = ~scipy_cancels(name, z)
    close(getattr(tb.special, name)(z)[keep], scipy_of(name, z)[keep], 1e-13)


@pytest.mark.parametrize("name", XSF)
def test_complex64_is_float32_level(name, rng):
    z = plane(rng)
    z = z[(np.abs(z) < 1e3) & (np.abs(z) > 1e-3)].astype(np.complex64)
    want = scipy_of(name, z)
    got = getattr(tb.special, name)(z)
    assert got.dtype == want.dtype == np.complex64
    # both the double result of the rounded input, rounded once
    ref = scipy_of(name, z.astype(np.complex128))
    fin = np.isfinite(ref) & (np.abs(ref) > 1e-30) & (np.abs(ref) < 1e30) & ~scipy_cancels(name, z)
    assert np.all(np.abs(got[fin] - ref[fin]) <= 2.4e-7 * np.abs(ref[fin]))


def test_loggamma_is_the_continuous_branch():
    # across the negative real axis the imaginary part jumps by 2 pi k at x < 0, not log(gamma)'s branch
    x = np.linspace(-9.5, -0.25, 38)
    above, below = tb.special.loggamma(x + 1e-300j), tb.special.loggamma(x - 0.0j)
    np.testing.assert_allclose(above, sc.loggamma(x + 1e-300j), rtol=1e-14)
    np.testing.assert_allclose(below, sc.loggamma(x - 0.0j), rtol=1e-14)
    z = np.array([3 + 4j, -2.5 + 0.1j, 100 + 100j])
    assert not np.allclose(tb.special.loggamma(z), np.log(sc.gamma(z)))
    np.testing.assert_allclose(np.exp(tb.special.loggamma(z)), sc.gamma(z), rtol=1e-13)
    # the real loop keeps nan for x < 0
    assert np.isnan(tb.special.loggamma(-2.5))


@pytest.mark.parametrize("name", ["xlogy", "xlog1py"])
def test_xlogy_complex_matches_scipy(name, rng):
    y = plane(rng)[:4000]
    x = rng.normal(size=y.size) + 1j * rng.normal(size=y.size)
    x[::7] = 0
    y[::11] = complex(np.nan, 0.0)
    y[::13] = complex(0.0, np.nan)
    want = scipy_of(name, x, y)
    got = getattr(tb.special, name)(x, y)
    assert got.dtype == np.complex128
    close(got, want, 1e-14)
    # x = 0: 0 unless y is nan (either part)
    vals = special_values()
    xx, yy = np.meshgrid(np.array([0j, -0j, 1 + 0j, 1j]), vals)
    close(getattr(tb.special, name)(xx, yy), scipy_of(name, xx, yy), 1e-14)
    # complex64 pair, a complex and a real argument
    got32 = getattr(tb.special, name)(x.astype(np.complex64), y.astype(np.complex64))
    assert got32.dtype == np.complex64
    assert getattr(tb.special, name)(np.float64(2.0), 1j).dtype == np.complex128


def lambertw_points(rng):
    r = 10.0 ** rng.uniform(-8, 8, 3000)
    t = rng.uniform(-np.pi, np.pi, 3000)
    axis = np.concatenate([np.linspace(-1, 1, 201), -np.exp(-1) + np.array([0.0, 1e-12, -1e-12, 1e-6, -1e-6])])
    return np.concatenate([r * np.exp(1j * t), axis + 0j, axis - 0j, special_values(), plane(rng)[:3000]])


@pytest.mark.parametrize("k", [0, -1, 1, 2, -3, 40])
def test_lambertw_matches_scipy(k, rng):
    z = lambertw_points(rng)
    want = scipy_of("lambertw", z, k)
    got = tb.special.lambertw(z, k)
    assert got.dtype == np.complex128
    # next to the branch point -1/e, W's condition number is ~ |z + 1/e|^-1/2: both
    # are Halley's iterates to tol = 1e-8, a rounding apart in the start
    near = np.abs(z + np.exp(-1)) < 1e-4
    close(got[~near], want[~near], 1e-13)
    close(got[near], want[near], 1e-8)


def test_lambertw_signature_and_arguments(rng):
    z = lambertw_points(rng)[:500]
    k = rng.integers(-3, 4, z.size)
    close(tb.special.lambertw(z, k), scipy_of("lambertw", z, k), 1e-13)
    close(tb.special.lambertw(z, k=1, tol=1e-3), scipy_of("lambertw", z, k=1, tol=1e-3), 1e-13)
    close(tb.special.lambertw(z[:, None], np.arange(-2, 3)), scipy_of("lambertw", z[:, None], np.arange(-2, 3)), 1e-13)
    # scalars give a NumPy complex128 scalar; real and float32 input, the Dld->D loop
    got = tb.special.lambertw(1.0)
    assert isinstance(got, np.complex128) and got == sc.lambertw(1.0)
    assert tb.special.lambertw(np.float32([0.5, 2.0])).dtype == np.complex128
    assert tb.special.lambertw(np.zeros((0, 3))).shape == (0, 3)
    np.testing.assert_allclose(tb.special.lambertw(np.e), 1.0, rtol=1e-15)
    assert tb.special.lambertw(0.0, 1) == sc.lambertw(0.0, 1)  # -inf at z = 0 off the principal branch


@pytest.mark.parametrize("lib", LIBRARIES)
def test_every_library(lib, rng):
    z = (rng.normal(size=50) + 1j * rng.normal(size=50)) * 3
    for name in XSF:
        got = getattr(tb.special, name)(to_library(lib, z))
        assert isinstance(got, library_type(lib))
        keep = ~scipy_cancels(name, z)
        np.testing.assert_allclose(to_numpy(got)[keep], scipy_of(name, z)[keep], rtol=RTOL)
    got = tb.special.lambertw(to_library(lib, z), 1)
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), sc.lambertw(z, 1), rtol=1e-13)
    got = tb.special.xlogy(to_library(lib, z), to_library(lib, z[::-1]))
    np.testing.assert_allclose(to_numpy(got), sc.xlogy(z, z[::-1]), rtol=1e-14)
    got = tb.special.logsumexp(to_library(lib, z))
    np.testing.assert_allclose(to_numpy(got), sc.logsumexp(z), rtol=1e-13)


def test_empty_input():
    for name in XSF:
        got = getattr(tb.special, name)(np.zeros((0, 2), complex))
        assert got.shape == (0, 2) and got.dtype == np.complex128


def test_logsumexp_complex_matches_scipy(rng):
    a = (rng.normal(size=(6, 7)) + 1j * rng.normal(size=(6, 7))) * 5
    b = rng.normal(size=(6, 7)) + 1j * rng.normal(size=(6, 7))
    for kwargs in [{}, {"axis": 0}, {"axis": 1, "keepdims": True}, {"b": b}, {"b": b.real, "axis": 1},
                   {"b": b, "axis": (0, 1)}]:
        want = scipy_of("logsumexp", a, **kwargs)
        got = tb.special.logsumexp(a, **kwargs)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        close(got, want, 1e-13)
        got_v, got_s = tb.special.logsumexp(a, return_sign=True, **kwargs)
        want_v, want_s = scipy_of("logsumexp", a, return_sign=True, **kwargs)
        assert np.asarray(got_v).dtype == np.asarray(want_v).dtype
        assert np.asarray(got_s).dtype == np.asarray(want_s).dtype
        close(got_v, want_v, 1e-13)
        close(got_s, want_s, 1e-13)
    # a real a with complex weights, complex64, ties of the largest real part, huge imaginary parts
    close(tb.special.logsumexp(a.real, b=b), scipy_of("logsumexp", a.real, b=b), 1e-13)
    a64 = a.astype(np.complex64)
    got = tb.special.logsumexp(a64, axis=1)
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, scipy_of("logsumexp", a64, axis=1), rtol=2e-6)
    ties = np.array([1 + 2j, 1 - 3j, 0.5 + 100j, -np.inf + 0j])
    close(tb.special.logsumexp(ties), scipy_of("logsumexp", ties), 1e-13)
    empty = np.zeros((0,), complex)
    close(tb.special.logsumexp(empty), scipy_of("logsumexp", empty), 0)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_complex_matches_scipy(name, rng):
    x = (rng.normal(size=(5, 6)) + 1j * rng.normal(size=(5, 6))) * 3
    x[0, :2] = [2 + 1j, 2 + 3j]  # a tie of the real part: NumPy's maximum takes the larger imaginary part
    for axis in [None, 0, 1]:
        got = getattr(tb.special, name)(x, axis=axis)
        want = scipy_of(name, x, axis=axis)
        assert got.dtype == want.dtype == np.complex128
        # log_softmax's (x - max) - log(sum) cancels: absolute to the inputs' scale
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14 * np.abs(x).max())
    got = getattr(tb.special, name)(x.astype(np.complex64))
    assert got.dtype == np.complex64


def test_errstate_reports_scipys_singularities():
    with tb.special.errstate(singular="raise"):
        with pytest.raises(tb.special.SpecialFunctionError, match="lambertw: singularity"):
            tb.special.lambertw(0.0, 1)
        with pytest.raises(tb.special.SpecialFunctionError, match="loggamma: singularity"):
            tb.special.loggamma(np.array([1 + 1j, -2 + 0j]))
        with pytest.raises(tb.special.SpecialFunctionError, match="gamma: singularity"):
            tb.special.gamma(0j)
        with pytest.raises(tb.special.SpecialFunctionError, match="digamma: singularity"):
            tb.special.digamma(-3 + 0j)
        tb.special.lambertw(0.0)  # the principal branch: W(0) = 0
        tb.special.lambertw(np.array([1.0, 0.0]), k=np.array([1, 0]))
        tb.special.rgamma(-1 + 0j)  # rgamma's zeros are no singularity
        tb.special.loggamma(-1 + 1e-300j)


def test_requires_grad_is_refused():
    torch = pytest.importorskip("torch")
    z = torch.tensor([0.5 + 0.5j], dtype=torch.complex128, requires_grad=True)
    for name in ["loggamma", "gamma", "digamma", "exp1", "spence", "ndtr"]:
        with pytest.raises(tb.NotDifferentiableError):
            getattr(tb.special, name)(z)


@pytest.mark.gpu
def test_cuda_input_is_refused_with_the_routines_name():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    z = torch.tensor([0.5 + 0.5j], device="cuda")
    for name in ["loggamma", "gamma", "digamma", "exp1", "spence", "ndtr"]:
        with pytest.raises(tb.UnsupportedParameterError, match=f"special.{name} .*CPU only"):
            getattr(tb.special, name)(z)
    with pytest.raises(tb.UnsupportedParameterError, match="lambertw .*CPU only"):
        tb.special.lambertw(z)
    got = tb.special.lambertw(z, device="cpu")
    np.testing.assert_allclose(to_numpy(got), sc.lambertw(0.5 + 0.5j), rtol=1e-13)
