"""The Airy functions airy, airye (SciPy's ``D->DDDD``, ``F->FFFF`` loops) and
hyp0f1 (``dD->D``, ``fF->F``) of complex argument: the C++ kernels of
csrc/airy_complex.h and csrc/hyp0f1_complex.h, against SciPy (AMOS) over
grids across the plane (the negative real axis, where z^(3/2) has its cut,
with signed zero imaginary parts; |z| up to AMOS's limit ~2^20), and against
mpmath (40 digits) where SciPy is the less accurate of the two.

Where they differ on purpose (documented here, not hidden by tolerances):
- airy(x - 0j), airye(x - 0j) for x < -1: SciPy's AMOS takes the -0.0 as the
  upper side of the cut for its continuation but sqrt(z) from the lower one,
  and returns values that are not Ai(x) (airy(-5 - 0j)[0] is -0.175 + 0.069j,
  Ai(-5) = 0.3508). torchbridge gives Ai(x), ... as for x + 0j, and airye's
  eAi, eAi' there use zeta = +i 2/3 |x|^(3/2), the principal value at -0.0.
- Next to AMOS's overflow test (|ph z| > pi/3, |Re zeta| + ln|z| / 4 between
  ~693 and ELIM = 700.92) SciPy's airy returns Ai = Ai' = 0 at scattered
  points where |Ai| is ~1e300; torchbridge returns the value there (and nan,
  as SciPy, past ELIM).
- Far out (|z| > 1e3) both lose digits to the rounding of zeta = 2/3 z^(3/2)
  (the phase e^(+-i Im zeta)): about |zeta| eps. AMOS's airy on the negative
  real axis is worse there (1e-8 at |z| = 1e5, its "loss of precision"), and
  torchbridge within |zeta| eps of mpmath.
- hyp0f1: SciPy computes Gamma(v) a^(1-v) I_(v-1)(2a) (J for Re z <= 0) in
  double and gives nan where Gamma(v) overflows (v > 171.6) or AMOS reports
  overflow (0F1 itself finite, or infinite); torchbridge sums the power
  series where it converges without cancellation and otherwise takes the
  logarithms of the factors: finite values where 0F1 is finite, infinite
  components where it overflows (SciPy: nan + nanj). For large |v| both carry
  the absolute rounding of log Gamma(v) and of the phase (1 - v) arg sqrt(z)
  into the result: about |v| ln|v| eps.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.special as sc
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb
from torchbridge import special

from .cases import mp

#: |ours - SciPy| <= RTOL |SciPy| in complex128 where SciPy is accurate.
RTOL = 1e-13


def scipy_of(name, *args):
    with np.errstate(all="ignore"), sc.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sc, name)(*args)


def plane(rng, n, rmin, rmax):
    """Points of every argument with log-uniform |z|, and the axes (both signs of zero)."""
    r = np.exp(rng.uniform(np.log(rmin), np.log(rmax), n))
    z = r * np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    x = np.exp(rng.uniform(np.log(rmin), np.log(rmax), n // 8))
    axes = [x + 0j, -x + 0j, 1j * x, -1j * x, np.array([complex(-a, -0.0) for a in x]),
            np.array([complex(a, -0.0) for a in x])]
    return np.concatenate([z, *axes])


def mp_airy(z, scaled):
    """(Ai, Ai', Bi, Bi') of z by mpmath (40 digits), airye's scaling when `scaled`, zeta at
    x - 0j the principal value +i 2/3 |x|^(3/2); and the envelope of each (|Ai| + |Bi|-like
    sizes), for errors next to the zeros."""
    with mp.workdps(40):
        w = mp.mpc(z.real, z.imag)
        vals = [mp.airyai(w), mp.airyai(w, 1), mp.airybi(w), mp.airybi(w, 1)]
        zeta = 2 * w * mp.sqrt(w) / 3
        if z.imag == 0 and z.real < 0 and np.signbit(z.imag):
            zeta = mp.mpc(0, 2 * abs(w) ** 1.5 / 3)
        ea, eb = (mp.exp(zeta), mp.exp(-abs(mp.re(zeta)))) if scaled else (1, 1)
        vals = [vals[0] * ea, vals[1] * ea, vals[2] * eb, vals[3] * eb]
        # Ai, Bi oscillate with zeros where |ph z| > pi/3: their size there is that of the
        # exponentials e^(+-zeta) / z^(1/4) (Ai', Bi': z^(1/4))
        e = (abs(mp.exp(zeta)) + abs(mp.exp(-zeta))) / (2 * mp.sqrt(mp.pi))
        env = [e * abs(ea) / abs(w) ** 0.25, e * abs(ea) * abs(w) ** 0.25,
               e * eb / abs(w) ** 0.25, e * eb * abs(w) ** 0.25]
        return [complex(v) for v in vals], [float(x) for x in env]


def mp_err(z, scaled, k, values):
    """mpmath's error of each of `values` (output k), relative to the larger of the value and
    a quarter of its envelope (so that points next to a zero count by their absolute error)."""
    vals, env = mp_airy(z, scaled)
    size = max(abs(vals[k]), 0.25 * env[k])
    return [abs(complex(x) - vals[k]) / size for x in values]


def compare_airy(name, z, got, want, rtol):
    scaled = name == "airye"
    for k in range(4):
        g, w = np.asarray(got[k]), np.asarray(want[k])
        assert g.dtype == w.dtype
        for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
            bad = np.isnan(gp) != np.isnan(wp)
            assert not bad.any(), (name, k, z[bad][:4], g[bad][:4], w[bad][:4])
        # SciPy's spurious zeros: next to its overflow test (|Re zeta| + ln|z| / 4 from ~693 to
        # ELIM = 700.92, |ph z| > pi/3) AMOS's continuation returns Ai = Ai' = 0 at scattered
        # points where Ai is ~1e300 (torchbridge: the value)
        spurious = (w == 0) & (np.abs(g) > 1e295)
        zero = ((w == 0) != (g == 0)) & ~spurious
        assert not zero.any(), (name, k, z[zero][:4], g[zero][:4], w[zero][:4])
        assert spurious.sum() <= max(2, 0.01 * g.size)
        fin = np.isfinite(w) & (w != 0)
        with np.errstate(all="ignore"):
            err = np.where(fin, np.abs(g - w) / np.abs(w), 0)
        disputed = np.flatnonzero(err > np.broadcast_to(rtol, err.shape))
        # where they differ, mpmath decides: torchbridge within 2e-13 of it (or |zeta| eps far
        # out), or closer than SciPy
        for i in disputed[:: max(1, disputed.size // 30)]:
            ours, theirs = mp_err(z[i], scaled, k, [g[i], w[i]])
            zeta = 2 / 3 * abs(z[i]) ** 1.5
            assert ours < max(theirs, 2e-13, 4e-15 * zeta), (name, k, z[i], g[i], w[i], ours, theirs)
        assert disputed.size <= max(3, 0.03 * g.size), (name, k, disputed.size, z[disputed][:5])


@pytest.mark.parametrize("name", ["airy", "airye"])
def test_complex128_matches_scipy_across_the_plane(name, rng):
    z = plane(rng, 6000, 1e-3, 30.0)
    got = getattr(tb.special, name)(z)
    assert isinstance(got, tuple) and len(got) == 4 and all(g.dtype == np.complex128 for g in got)
    compare_airy(name, z, got, scipy_of(name, z), RTOL)


@pytest.mark.parametrize("name", ["airy", "airye"])
def test_large_arguments(name, rng):
    # to AMOS's limit ~2^20: overflow (nan) and underflow (0) where SciPy has them; the phase of
    # e^(+-zeta) costs both about |zeta| eps
    z = plane(rng, 4000, 30.0, 1.2e6)
    z = z[~((z.real < 0) & (z.imag == 0) & np.signbit(z.imag))]  # see test_negative_axis_minus_zero
    rtol = np.maximum(RTOL, 4e-16 * 2 / 3 * np.abs(z) ** 1.5)
    compare_airy(name, z, getattr(tb.special, name)(z), scipy_of(name, z), rtol)


@pytest.mark.parametrize("name", ["airy", "airye"])
def test_closer_to_mpmath_than_scipy(name, rng):
    z = plane(rng, 3000, 1e-2, 1e3)
    z = z[~((z.real < 0) & (z.imag == 0) & np.signbit(z.imag))]
    got, want = getattr(tb.special, name)(z), scipy_of(name, z)
    for k in range(4):
        g, w = np.asarray(got[k]), np.asarray(want[k])
        fin = np.isfinite(w) & (w != 0)
        with np.errstate(all="ignore"):
            err = np.where(fin, np.abs(g - w) / np.abs(w), 0)
        worst = np.argsort(err)[::-1][:6]
        errs = np.array([mp_err(z[i], name == "airye", k, [g[i], w[i]]) for i in worst])
        zeta = 2 / 3 * np.abs(z[worst]) ** 1.5
        assert np.all(errs[:, 0] <= np.maximum(np.maximum(errs[:, 1], 1e-13), 4e-15 * zeta)), (k, z[worst], errs)


def test_rays_where_the_connection_formulas_meet():
    # ph z = +-pi/3 (where the I and K forms switch), +-2 pi/3 (where AMOS's K continuation
    # changes), the imaginary axis, and both sides of the negative real axis
    for phase in (np.pi / 3, 2 * np.pi / 3, np.pi / 2, np.pi - 1e-12, np.pi):
        for sign in (1, -1):
            ph = sign * phase
            for r in (0.9, 1.1, 2.0, 5.0, 20.0, 80.0):
                for d in (-1e-15, 0.0, 1e-15):
                    z = r * np.exp(1j * (ph + d))
                    for scaled, f in ((False, tb.special.airy), (True, tb.special.airye)):
                        got = f(z)
                        vals, env = mp_airy(z, scaled)
                        for k in range(4):
                            size = max(abs(vals[k]), 0.25 * env[k])
                            assert abs(got[k] - vals[k]) <= 4e-15 * max(1.0, 2 / 3 * r**1.5) * size, (z, k, scaled)


def test_negative_axis_minus_zero():
    x = np.array([1.5, 5.0, 30.0, 300.0, 3e4])
    plus = np.array([complex(-a, 0.0) for a in x])
    minus = np.array([complex(-a, -0.0) for a in x])
    a_plus, a_minus = tb.special.airy(plus), tb.special.airy(minus)
    for k in range(4):
        # Ai, Bi are entire: the same real values on both sides, as SciPy's x + 0j (up to its
        # noise) and mpmath
        np.testing.assert_array_equal(a_plus[k], a_minus[k])
        assert np.all(a_plus[k].imag == 0)
        for z, g in zip(plus, a_plus[k]):
            vals, env = mp_airy(z, False)
            assert abs(g - vals[k]) <= 4e-15 * max(1.0, 2 / 3 * abs(z) ** 1.5) * max(abs(vals[k]), env[k]), (z, k)
    # SciPy's values at x - 0j are not Ai(x) (see the module docstring)
    assert abs(scipy_of("airy", complex(-5, -0.0))[0] - mp_airy(complex(-5, 0), False)[0][0]) > 0.1
    e_minus = tb.special.airye(minus)
    for k in range(4):
        for z, g in zip(minus, e_minus[k]):
            vals, env = mp_airy(z, True)
            assert abs(g - vals[k]) <= 4e-15 * max(1.0, 2 / 3 * abs(z) ** 1.5) * max(abs(vals[k]), env[k]), (z, k)
    # airye at x - 0j is the complex conjugate of airye at x + 0j
    e_plus = tb.special.airye(plus)
    for k in range(4):
        np.testing.assert_array_equal(e_minus[k], np.conj(e_plus[k]))


def test_real_axis_gives_exact_zero_imaginary_parts_and_agrees_with_the_real_loop(rng):
    x = np.concatenate([rng.uniform(-60, 60, 500), [0.0, -0.0, 1.0, -1.0, 103.2, 104.0]])
    real = tb.special.airy(x)
    cplx = tb.special.airy(x + 0j)
    # next to the zeros on the negative axis: by the envelope |x|^(+-1/4) / sqrt(pi)
    zeta = 2 / 3 * np.abs(x) ** 1.5
    for k in range(4):
        fin = np.isfinite(real[k])
        assert np.all(cplx[k][fin].imag == 0)
        env = np.where(x < 0, np.maximum(np.abs(x), 1) ** (0.25 if k % 2 else -0.25), 0)
        tol = 2e-13 * np.abs(real[k]) + 4e-15 * np.maximum(1, zeta) * env
        assert np.all(np.abs(cplx[k].real[fin] - real[k][fin]) <= tol[fin]), k


SPECIAL = np.array([complex(a, b) for a in (0.0, -0.0, 1.0, -1.0, 1e300, np.inf, -np.inf, np.nan)
                    for b in (0.0, -0.0, 2.0, -2.0, np.inf, -np.inf, np.nan)])


@pytest.mark.parametrize("name", ["airy", "airye"])
def test_special_values_are_scipys(name):
    got, want = getattr(tb.special, name)(SPECIAL), scipy_of(name, SPECIAL)
    for g, w in zip(got, want):
        for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
            assert np.array_equal(np.isnan(gp), np.isnan(wp)), SPECIAL[np.isnan(gp) != np.isnan(wp)]
        np.testing.assert_allclose(g, w, rtol=1e-14, atol=1e-16)


def test_overflow_and_underflow_thresholds_are_amos(rng):
    # along rays, the radii where SciPy's Ai, Ai' turn 0 and Bi, Bi' (and Ai past |ph z| = pi/3) nan
    for theta in np.concatenate([rng.uniform(-np.pi, np.pi, 40), [0.0, 0.5, 1.04, 2.0, 3.1]]):
        r = np.linspace(60.0, 7000.0, 4000) * (1 + rng.uniform(0, 1e-3))
        z = r * np.exp(1j * theta)
        got, want = tb.special.airy(z), scipy_of("airy", z)
        for k in range(4):
            g, w = got[k], want[k]
            assert np.array_equal(np.isnan(g), np.isnan(w)), (theta, k, z[np.isnan(g) != np.isnan(w)][:3])
            zero = ((g == 0) != (w == 0)) & ~((w == 0) & (np.abs(g) > 1e295))  # SciPy's spurious zeros
            assert not zero.any(), (theta, k, z[zero][:3])
    # AMOS's range: nan (no result) past (2^30 - 1/2)^(2/3)
    edge = 1048575.9996744784
    for f in (tb.special.airy, tb.special.airye):
        for z in (edge * 1.0000001 + 0j, -edge * 1.0000001j, 1.1e6 * np.exp(2j)):
            assert all(np.isnan(v) for v in f(z))
        assert all(np.isfinite(v) for v in tb.special.airye(edge * 0.9999999 * np.exp(1j)))


def test_empty_and_shapes():
    z = np.zeros((0,), np.complex128)
    for f in (tb.special.airy, tb.special.airye):
        out = f(z)
        assert len(out) == 4 and all(o.shape == (0,) and o.dtype == np.complex128 for o in out)
    z = (np.arange(12.0).reshape(3, 4) - 5) * (1 + 0.5j)
    out = tb.special.airy(z)
    want = scipy_of("airy", z)
    for g, w in zip(out, want):
        assert g.shape == (3, 4)
        np.testing.assert_allclose(g, w, rtol=RTOL)
    assert tb.special.hyp0f1(np.zeros((0, 2), np.float32), np.zeros((0, 2), np.complex64)).dtype == np.complex64
    assert tb.special.hyp0f1(np.zeros((0, 2)), np.zeros((0, 2), np.complex64)).dtype == np.complex128


@pytest.mark.parametrize("name", ["airy", "airye"])
def test_complex64_is_float32_level(name, rng):
    z = plane(rng, 2000, 1e-2, 50.0).astype(np.complex64)
    z = z[~((z.real < -1) & (z.imag == 0) & np.signbit(z.imag))]  # SciPy's x - 0j (module docstring)
    got = getattr(tb.special, name)(z)
    want32 = scipy_of(name, z)
    ref = scipy_of(name, z.astype(np.complex128))
    for g, w32, w in zip(got, want32, ref):
        assert g.dtype == w32.dtype == np.complex64
        fin = np.isfinite(w) & (np.abs(w) > 1e-30) & (np.abs(w) < 1e30)
        assert np.all(np.abs(g[fin] - w[fin]) <= 2.4e-7 * np.abs(w[fin]) + 1e-37)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_containers(lib):
    z = np.array([1 + 2j, -3 - 0.5j, 10j, 0.5 + 0j])
    for name in ("airy", "airye"):
        got = getattr(tb.special, name)(to_library(lib, z))
        assert isinstance(got, tuple) and all(isinstance(g, library_type(lib)) for g in got)
        for g, w in zip(got, scipy_of(name, z)):
            np.testing.assert_allclose(to_numpy(g), w, rtol=1e-13)
    v = np.array([0.5, -1.5, 3.0, 2.0])
    got = tb.special.hyp0f1(to_library(lib, v), to_library(lib, z))
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), scipy_of("hyp0f1", v, z), rtol=1e-13)


def test_large_arrays_split_over_threads_agree_with_one_element_calls(rng):
    z = plane(rng, 5000, 1e-2, 200.0)
    whole = tb.special.airye(z)
    one = [tb.special.airye(z[i]) for i in range(150)]
    for k in range(4):
        np.testing.assert_array_equal(whole[k][:150], np.array([o[k] for o in one]))
    v = rng.uniform(-20, 20, z.size)
    whole = tb.special.hyp0f1(v, z)
    np.testing.assert_array_equal(whole[:150], np.array([tb.special.hyp0f1(v[i], z[i]) for i in range(150)]))


def test_torch_round_trip_and_no_gradient():
    torch = pytest.importorskip("torch")
    z = torch.tensor([1 + 1j, 2 - 3j], dtype=torch.complex128)
    got = tb.special.airy(z)
    assert all(isinstance(g, torch.Tensor) and g.dtype == torch.complex128 for g in got)
    np.testing.assert_allclose(got[2].numpy(), sc.airy(z.numpy())[2], rtol=1e-13)
    with pytest.raises(tb.NotDifferentiableError):
        tb.special.airy(z.clone().requires_grad_())
    with pytest.raises(tb.NotDifferentiableError):
        tb.special.hyp0f1(1.5, z.clone().requires_grad_())


# ---------------------------------------------------------------------------------------------
# hyp0f1


def mp_hyp0f1(v, z):
    with mp.workdps(40):
        return complex(mp.hyp0f1(mp.mpf(v), mp.mpc(z.real, z.imag)))


def hyp0f1_grid(rng, n, rmax, vmax):
    z = plane(rng, n, 1e-8, rmax)
    v = rng.uniform(-vmax, vmax, z.size)
    kind = rng.integers(0, 4, z.size)
    v = np.where(kind == 0, np.round(v) + 0.5, np.where(kind == 1, np.round(v) + 1e-3, v))
    v = np.where(_pole(v), v + 0.25, v)
    return v, z


def _pole(v):
    return (v <= 0) & (v == np.floor(v))


def compare_hyp0f1(v, z, got, want, rtol, tol_mp=2e-13):
    """Where SciPy's value is finite and within rtol: fine; elsewhere mpmath decides (40
    digits): torchbridge within tol_mp of it, or closer than SciPy."""
    assert got.dtype == want.dtype
    with np.errstate(all="ignore"):
        err = np.abs(got - want) / np.abs(want)
    disputed = np.flatnonzero(~(err <= rtol))
    for i in disputed[:: max(1, disputed.size // 60)]:
        ref = mp_hyp0f1(v[i], z[i])
        if not np.isfinite(ref):
            assert not np.isfinite(got[i]) or abs(got[i]) > 1e307, (v[i], z[i], got[i], ref)
            continue
        ours = abs(got[i] - ref) / abs(ref) if ref != 0 else abs(got[i])
        theirs = abs(want[i] - ref) / abs(ref) if np.isfinite(want[i]) else np.inf
        assert ours <= max(theirs, tol_mp), (v[i], z[i], got[i], want[i], ref, ours, theirs)
    return disputed


def test_hyp0f1_matches_scipy_where_scipy_is_accurate(rng):
    v, z = hyp0f1_grid(rng, 8000, 1e3, 30.0)
    got = tb.special.hyp0f1(v, z)
    assert got.dtype == np.complex128
    disputed = compare_hyp0f1(v, z, got, scipy_of("hyp0f1", v, z), RTOL)
    # SciPy's Gamma(v) J_(v-1) loses up to 3e-12 for v within 1e-3 of a negative integer (a third
    # of the grid's negative v); elsewhere the two agree almost everywhere
    near = (v[disputed] < 0) & (np.abs(v[disputed] - np.round(v[disputed])) < 2e-3)
    assert (~near).sum() <= 0.005 * z.size, (v[disputed][~near][:5], z[disputed][~near][:5])


def test_hyp0f1_large_parameters_and_arguments(rng):
    # v up to 1e3 (SciPy: nan from v = 171.6 on, where Gamma(v) overflows) and |z| to 1e6
    v, z = hyp0f1_grid(rng, 3000, 1e6, 1e3)
    got, want = tb.special.hyp0f1(v, z), scipy_of("hyp0f1", v, z)
    # the phase (1 - v) arg(sqrt z) of a^(1-v) costs |v| eps in both
    compare_hyp0f1(v, z, got, want, np.maximum(RTOL, 4e-16 * np.abs(v)), tol_mp=np.inf)
    for i in np.flatnonzero(np.isfinite(got))[::60]:
        ref = mp_hyp0f1(v[i], z[i])
        # log Gamma(v) (~ v ln v) and the phase (1 - v) arg(b) carry their absolute rounding into
        # the result: about |v| ln|v| eps, as SciPy's Gamma(v) b^(1-v)
        tol = max(2e-13, 4e-16 * (abs(v[i]) * max(1.0, np.log(abs(v[i]))) + abs(z[i]) ** 0.5))
        assert abs(got[i] - ref) <= tol * abs(ref), (v[i], z[i], got[i], ref)


def test_hyp0f1_series_and_bessel_forms_meet():
    # the switch between the power series and the Bessel form: |z| = 16 and |z| = |v| ln|v| / 2
    for v in (0.5, 1.0, 2.5, -3.5, 10.25, 60.5, -60.5, 300.0, 1e4, -1e4 - 0.5):
        lim = max(16.0, 0.5 * abs(v) * np.log(abs(v)))
        for r in (lim * (1 - 1e-9), lim * (1 + 1e-9)):
            for ph in (0.0, 0.7, np.pi / 2, 2.5, np.pi):
                z = r * np.exp(1j * ph)
                got = tb.special.hyp0f1(v, z)
                ref = mp_hyp0f1(v, z)
                tol = max(1e-13, 4e-16 * abs(v) * np.log(abs(v)))  # as in the test above
                assert abs(got - ref) <= tol * abs(ref), (v, z, got, ref)


def test_hyp0f1_special_values_are_scipys():
    vs = [0.0, -0.0, -1.0, -2.0, 0.5, 1.0, 2.5, -2.5, np.inf, -np.inf, np.nan]
    parts = (0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan)
    zs = [complex(a, b) for a in parts for b in (0.0, -0.0, 2.0, np.inf, np.nan)]
    v, z = (a.ravel() for a in np.meshgrid(vs, zs))
    got, want = tb.special.hyp0f1(v, np.asarray(z)), scipy_of("hyp0f1", v, np.asarray(z))
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert np.array_equal(np.isnan(g), np.isnan(w)), (v[np.isnan(g) != np.isnan(w)], z[np.isnan(g) != np.isnan(w)])
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-300)


def test_hyp0f1_closer_to_mpmath_than_scipy():
    # SciPy: nan where Gamma(v) overflows (0F1 finite), nan where 0F1 overflows (torchbridge:
    # infinite components), and its truncated Taylor series next to v = -1
    cases = [(200.0, 1 + 1j), (200.0, 1e4 + 1j), (200.0, -1e4 + 1j), (1.5, 126380.25 + 1j), (250.5, -3e4 - 2e4j)]
    for v, z in cases:
        got, want, ref = tb.special.hyp0f1(v, z), scipy_of("hyp0f1", v, z), mp_hyp0f1(v, z)
        assert np.isnan(want) or abs(want - ref) > 1e-12 * abs(ref)
        assert abs(got - ref) <= 1e-13 * abs(ref), (v, z, got, ref)
    got = tb.special.hyp0f1(0.5, np.array([1e6 + 0j, 1e6 + 1e3j]))
    assert np.isinf(got.real).all() and np.all(np.isnan(scipy_of("hyp0f1", 0.5, np.array([1e6 + 0j, 1e6 + 1e3j]))))
    assert got[0].imag == 0


def test_hyp0f1_huge_parameters_terminate():
    v = np.array([1e300, -1e300 - 0.5, 2.0**62, -(2.0**62) + 0.5, 1e10, 1e7 + 0.5, -1e7 - 0.5])
    z = np.array([1 + 1j, 1e5 - 1e5j, 1e300 + 0j, -1e300j, 1e15 + 1e15j, 3e13j, 5e13 + 0j])
    got = tb.special.hyp0f1(v[:, None], z[None, :])
    assert got.shape == (7, 7)
    np.testing.assert_allclose(got[0, 0], 1 + 1e-300 + 1e-300j, rtol=1e-15)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_hyp0f1_complex64_is_float32_level(lib, rng):
    v, z = hyp0f1_grid(rng, 1000, 50.0, 10.0)
    v, z = v.astype(np.float32), z.astype(np.complex64)
    got = tb.special.hyp0f1(to_library(lib, v), to_library(lib, z))
    got = to_numpy(got)
    assert got.dtype == np.complex64 == scipy_of("hyp0f1", v, z).dtype
    ref = scipy_of("hyp0f1", v.astype(np.float64), z.astype(np.complex128))
    fin = np.isfinite(ref) & (np.abs(ref) > 1e-30) & (np.abs(ref) < 1e30)
    assert np.all(np.abs(got[fin] - ref[fin]) <= 4e-7 * np.abs(ref[fin]) + 1e-37)


# ---------------------------------------------------------------------------------------------
# errstate: AMOS's codes of complex airy and airye, as SciPy reports them


def _reports(module, name, z):
    with module.errstate(all="warn"), warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        getattr(module, name)(z)
    return {str(w.message) for w in record if issubclass(w.category, sc.SpecialFunctionWarning)}


@pytest.mark.parametrize("name", ["airy", "airye"])
def test_errstate_reports_are_scipys(name):
    from torchbridge.special._sf_error_table import COMPLEX_TABLE

    covered = {message for _, message, _ in COMPLEX_TABLE[name]}
    parts = [-np.inf, -1e300, -2.0, -0.0, 0.0, 0.5, 3.0, np.inf, np.nan]
    points = [complex(a, b) for a in parts for b in parts]
    points += [r * np.exp(1j * t) for r in (105.0, 200.0, 700.0, 1100.0, 5e4, 1.04e6, 1.1e6)
               for t in (0.0, 0.3, 1.0, 1.5, 2.0, 3.0, np.pi, -2.5)]
    mismatches = []
    for z in points:
        ours = _reports(special, name, np.complex128(z))
        theirs = _reports(sc, name, np.complex128(z)) & covered
        if ours != theirs:
            mismatches.append((z, sorted(theirs), sorted(ours)))
    assert not mismatches, mismatches[:8]
