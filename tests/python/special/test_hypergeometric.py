"""Hypergeometric and Struve functions (csrc/hypergeometric_kernels.h,
csrc/struve_kernels.h): hyp2f1, hyp1f1, hyp0f1, struve, modstruve.

The CASES rows (cases.py) compare them with SciPy (float64, float32, the four
CPU containers, the edge grids); here SciPy is compared on wider grids where
it is accurate, and mpmath (50 digits) is the judge where SciPy is not
(hyp2f1 for x < -1, hyp0f1 for x < 0, hyp1f1's cancelling series, struve of
negative order), with the special values of each (poles, terminating series,
x = 1, infinities, nan, -0.0, empty arrays).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from hypothesis import given, settings
from hypothesis import strategies as st

import torchbridge as tb

from .cases import mp, rel_err

SEED = 20261206


def mp_values(f, *args):
    out = []
    for p in zip(*args):
        try:
            v = f(*(mp.mpf(float(a)) for a in p))
            out.append(float(v.real) if isinstance(v, mp.mpc) else float(v))
        except (ZeroDivisionError, ValueError, mp.libmp.NoConvergence):
            out.append(np.nan)
    return np.array(out)


# ---------------------------------------------------------------------------------------- hyp2f1

def test_hyp2f1_inside_the_unit_interval_follows_scipy():
    rng = np.random.default_rng(SEED)
    n = 20_000
    a, b, c = (rng.uniform(-10, 10, n) for _ in range(3))
    x = rng.uniform(-1, 1, n)
    assert rel_err(tb.special.hyp2f1(a, b, c, x), sc.hyp2f1(a, b, c, x)).max() < 1e-13
    # integer parameters: terminating series, c - a - b integers (the digamma expansion near 1)
    ai, bi, ci = np.round(a), np.round(b), np.round(c)
    x = rng.uniform(-3, 1, n)
    for args in ((ai, bi, ci, x), (ai, b, c, x), (a, b, ci, x), (a, b, a + b + ci, x)):
        got, want = tb.special.hyp2f1(*args), sc.hyp2f1(*args)
        err = rel_err(got, want)
        # c - a - b integer at x > 0.9 with c a large negative: Cephes' recurrence on c loses
        # everything there (both SciPy and torchbridge), skipped here
        hard = (args[3] > 0.9) & (args[2] < -5)
        assert err[~hard & (args[3] >= -1)].max() < 1e-12


def test_hyp2f1_near_one_against_mpmath():
    rng = np.random.default_rng(SEED + 1)
    n = 150
    a, b = rng.uniform(-5, 5, n), rng.uniform(-5, 5, n)
    c = np.concatenate([a[: n // 3] + b[: n // 3] + rng.integers(1, 4, n // 3),  # c - a - b integer
                        rng.uniform(0.5, 10, n - n // 3)])
    x = 1.0 - 10.0 ** rng.uniform(-12, -0.3, n)
    got = tb.special.hyp2f1(a, b, c, x)
    want = mp_values(mp.hyp2f1, a, b, c, x)
    # c - a - b within rounding of an integer but not one (a + b + n computed in floating point):
    # Cephes' 1-x transformation divides by Gamma at a pole there, SciPy and torchbridge give nan
    # (hyp2f1(-3.59.., -2.00.., -4.59.., 1 - 2e-8): mpmath 1.08e-4)
    shared_nan = np.isnan(got) & np.isnan(sc.hyp2f1(a, b, c, x))
    ok = np.isfinite(want) & (np.abs(want) < 1e300) & ~shared_nan
    assert ok.sum() > 120 and shared_nan.sum() < 3
    assert rel_err(got[ok], want[ok]).max() < 1e-10  # Cephes' psi-series and gamma products


def test_hyp2f1_below_minus_one_against_mpmath():
    # the 1/x and Pfaff transformations: SciPy's (Cephes') error is up to ~1e-10 here,
    # from the gamma-function products of DLMF 15.8.2; torchbridge's is of the same size
    rng = np.random.default_rng(SEED + 2)
    n = 150
    a, b, c = rng.uniform(-10, 10, n), rng.uniform(-10, 10, n), rng.uniform(0.5, 10, n)
    x = -(10.0 ** rng.uniform(0, 3, n))
    got = tb.special.hyp2f1(a, b, c, x)
    theirs = sc.hyp2f1(a, b, c, x)
    want = mp_values(mp.hyp2f1, a, b, c, x)
    ok = np.isfinite(want) & (np.abs(want) > 1e-280) & (np.abs(want) < 1e280)
    ours_err, scipy_err = rel_err(got[ok], want[ok]), rel_err(theirs[ok], want[ok])
    assert np.median(ours_err) < 1e-13
    assert np.quantile(ours_err, 0.9) < 1e-9
    assert np.quantile(ours_err, 0.9) <= 10 * max(np.quantile(scipy_err, 0.9), 1e-14)


@pytest.mark.parametrize(
    "args, want",
    [
        ((1.0, 1.0, 2.0, 1.0), np.inf),  # c - a - b = 0 at x = 1: divergent
        ((1.0, 1.0, 3.0, 1.0), 2.0),  # Gauss: Gamma(3) Gamma(1) / (Gamma(2) Gamma(2))
        ((0.5, 0.5, 2.0, 1.0), sc.hyp2f1(0.5, 0.5, 2.0, 1.0)),
        ((1.0, 1.0, -2.0, 0.5), np.inf),  # c a pole no a or b ends first
        ((-1.0, -1.0, -2.0, 0.5), 0.75),  # the series ends before the pole
        ((-3.0, 2.0, 1.5, 0.3), sc.hyp2f1(-3.0, 2.0, 1.5, 0.3)),  # a polynomial
        ((1.0, 1.0, 2.0, 2.0), np.inf),  # x > 1
        ((0.0, 1.0, 2.0, 0.5), 1.0),
        ((1.0, 2.0, 3.0, 0.0), 1.0),
        ((1.0, 2.0, 3.0, -0.0), 1.0),
        ((1.0, 2.0, 2.0, 0.5), 2.0),  # b = c: (1-x)^-a
        ((np.nan, 1.0, 2.0, 0.5), np.nan),
        ((1.0, 1.0, 2.0, np.nan), np.nan),
        ((1.0, 1.0, 2.0, -np.inf), np.nan),
        ((-1.0, -5.0, -1.0, -2.5), np.inf),  # SciPy 1.17's Cephes: c = -1 with a = -1 is the pole
    ],
)
def test_hyp2f1_special_values(args, want):
    got = tb.special.hyp2f1(*args)
    assert got == sc.hyp2f1(*args) or (np.isnan(got) and np.isnan(sc.hyp2f1(*args)))
    np.testing.assert_allclose(got, want, rtol=1e-14, equal_nan=True)


def test_hyp2f1_no_endless_recursion_where_scipy_crashes():
    # SciPy 1.17.1 recurses forever (a segfault) on hyp2f1(1e300, 0.5, 1e300, nan): the recurrence
    # on c cannot step 1e300; torchbridge gives nan
    assert np.isnan(tb.special.hyp2f1(1e300, 0.5, 1e300, np.nan))


def test_hyp2f1_edge_grid_follows_scipy():
    g = np.array([-np.inf, -2.5, -2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 1e300, np.inf, np.nan])
    a, b, c, x = (m.ravel() for m in np.meshgrid(g, g, g, g, indexing="ij"))
    crash = (a == 1e300) & (c == 1e300) & np.isnan(x)  # SciPy's endless recursion
    got = tb.special.hyp2f1(a[~crash], b[~crash], c[~crash], x[~crash])
    with np.errstate(all="ignore"):
        want = sc.hyp2f1(a[~crash], b[~crash], c[~crash], x[~crash])
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0, equal_nan=True)


# ---------------------------------------------------------------------------------------- hyp1f1

def test_hyp1f1_follows_scipy():
    rng = np.random.default_rng(SEED + 3)
    n = 20_000
    a, b, x = rng.uniform(-30, 30, n), rng.uniform(0.1, 30, n), rng.uniform(-50, 50, n)
    err = rel_err(tb.special.hyp1f1(a, b, x), sc.hyp1f1(a, b, x))
    assert np.quantile(err, 0.999) < 1e-12
    assert err.max() < 1e-9  # where the two differ, mpmath says which (next test)


def test_hyp1f1_against_mpmath():
    rng = np.random.default_rng(SEED + 4)
    n = 200
    a = rng.uniform(-30, 30, n)
    b = np.where(np.arange(n) % 3 == 0, rng.uniform(-30, 30, n), rng.uniform(0.1, 30, n))
    x = rng.uniform(-60, 60, n)
    want = mp_values(mp.hyp1f1, a, b, x)
    ok = np.isfinite(want) & (want != 0) & (np.abs(want) < 1e300)
    ours_err = rel_err(tb.special.hyp1f1(a, b, x)[ok], want[ok])
    # b > 0 within 5e-14; negative b (the series across its small denominators) within 1e-11
    assert ours_err[b[ok] > 0].max() < 5e-14
    assert ours_err.max() < 1e-11


def test_hyp1f1_large_arguments_against_mpmath():
    # the large-x expansion, and e^x M(b-a, b, -x) where e^-x alone underflows
    cases = [(0.5, 1.5, 200.0), (-5.3, 3.2, 300.0), (2.5, 4.0, -400.0), (-10.5, 1.5, 100.0),
             (3.0, 2.5, 700.0), (-66.69542542695706, -12.676724567608574, -486.076663828007)]
    for a, b, x in cases:
        want = float(mp.hyp1f1(a, b, x))
        assert tb.special.hyp1f1(a, b, x) == pytest.approx(want, rel=1e-12), (a, b, x)


@pytest.mark.parametrize(
    "args, want",
    [
        ((1.0, -2.0, 1.0), np.inf),  # b a pole
        ((-1.0, -2.0, 1.0), 1.5),  # the series ends first
        ((-2.0, -2.0, 1.0), 2.5),  # a = b = -2: 1 + x + x^2 / 2
        ((-3.0, -2.0, 1.0), np.inf),
        ((0.0, -2.0, 1.0), np.inf),
        ((0.0, 3.0, 1.0), 1.0),
        ((1.5, 2.0, 0.0), 1.0),
        ((1.5, 2.0, -0.0), 1.0),
        ((2.0, 2.0, 1.0), np.e ** 1.0),
        ((1.0, 2.0, np.inf), np.inf),
        ((1.0, 2.0, -np.inf), 0.0),
        ((1.0, 1.0, np.inf), np.nan),
        ((np.inf, 1.0, 1.0), np.nan),
        ((1.0, np.inf, 1.0), 1.0),
        ((np.nan, 1.0, 1.0), np.nan),
        ((1.0, 1.0, np.nan), np.nan),
    ],
)
def test_hyp1f1_special_values_follow_scipy(args, want):
    got = tb.special.hyp1f1(*args)
    np.testing.assert_allclose(got, sc.hyp1f1(*args), rtol=1e-15, equal_nan=True)
    np.testing.assert_allclose(got, want, rtol=1e-15, equal_nan=True)


def test_hyp1f1_where_scipy_is_wrong():
    # M(a, a - 1, x) = e^x (1 + x / (a - 1)): zero at a = 1/2, x = 1/2; SciPy (Boost) gives nan
    assert tb.special.hyp1f1(0.5, -0.5, 0.5) == 0.0
    # overflow with the sign of the function (mpmath: -1.4e351); SciPy gives +inf
    assert tb.special.hyp1f1(66.29669615289129, -38.07323326788972, 465.9142660527468) == -np.inf


# ---------------------------------------------------------------------------------------- hyp0f1

def test_hyp0f1_positive_x_follows_scipy():
    rng = np.random.default_rng(SEED + 5)
    n = 20_000
    v, x = rng.uniform(-20, 20, n), rng.uniform(0, 100, n)
    assert rel_err(tb.special.hyp0f1(v, x), sc.hyp0f1(v, x)).max() < 1e-12  # the two I_v kernels


def test_hyp0f1_negative_x_against_mpmath():
    # x < 0: Gamma(v) x^((1-v)/2) J_(v-1)(2 sqrt(-x)); SciPy's jv is up to 1e-9 off here
    rng = np.random.default_rng(SEED + 6)
    n = 200
    v, x = rng.uniform(-20, 20, n), -rng.uniform(0, 100, n)
    want = mp_values(mp.hyp0f1, v, x)
    got = tb.special.hyp0f1(v, x)
    ok = np.isfinite(want) & (want != 0)
    j = mp_values(lambda vv, xx: mp.besselj(vv - 1, 2 * mp.sqrt(-xx)), v[ok], x[ok])
    y = mp_values(lambda vv, xx: mp.bessely(vv - 1, 2 * mp.sqrt(-xx)), v[ok], x[ok])
    scale = np.abs(want[ok]) * np.hypot(j, y) / np.maximum(np.abs(j), 1e-300)  # near J's zeros
    assert (np.abs(got[ok] - want[ok]) / np.maximum(np.abs(want[ok]), scale)).max() < 1e-13


@pytest.mark.parametrize(
    "args, want",
    [((0.0, 1.0), np.nan), ((-2.0, 1.0), np.nan), ((1.5, 0.0), 1.0), ((1.5, -0.0), 1.0),
     ((2.0, 1e-20), 1.0 + 5e-21), ((np.nan, 1.0), np.nan), ((1.0, np.nan), np.nan),
     ((-1.5, 1e3), sc.hyp0f1(-1.5, 1e3)), ((2.0, -1e4), sc.hyp0f1(2.0, -1e4))],
)
def test_hyp0f1_special_values(args, want):
    np.testing.assert_allclose(tb.special.hyp0f1(*args), want, rtol=1e-13, equal_nan=True)


def test_hyp0f1_large_order_asymptotic():
    # where Gamma(v) x^((1-v)/2) over- or underflows: DLMF 10.41's expansion, as SciPy
    for v, x in ((300.0, 1e3), (200.0, 5.0), (-150.5, 1e4)):
        want = float(mp.hyp0f1(v, x))
        assert tb.special.hyp0f1(v, x) == pytest.approx(want, rel=1e-6)
        assert tb.special.hyp0f1(v, x) == pytest.approx(sc.hyp0f1(v, x), rel=1e-12)


# ---------------------------------------------------------------------------------------- struve

@pytest.mark.parametrize("name, mp_f", [("struve", "struveh"), ("modstruve", "struvel")])
def test_struve_against_mpmath(name, mp_f):
    rng = np.random.default_rng(SEED + 7)
    n = 150
    v = np.concatenate([rng.uniform(-20, 20, n - 20), np.round(rng.uniform(-20, 20, 20))])
    x = np.concatenate([rng.uniform(0, 60, n // 2), 10.0 ** rng.uniform(-3, 2.5, n - n // 2)])
    got = getattr(tb.special, name)(v, x)
    want = mp_values(getattr(mp, mp_f), v, x)
    ok = np.isfinite(want) & (np.abs(want) > 1e-290) & (np.abs(want) < 1e290)
    err = rel_err(got[ok], want[ok])
    assert np.median(err) < 1e-14
    assert err.max() < 1e-9  # Cephes' acceptance: 1e-12 of the error estimate; 1e-7 at worst


@pytest.mark.parametrize("name", ["struve", "modstruve"])
def test_struve_follows_scipy_and_its_special_values(name):
    rng = np.random.default_rng(SEED + 8)
    n = 20_000
    v, x = rng.uniform(-20, 20, n), rng.uniform(0, 100, n)
    ours, theirs = getattr(tb.special, name), getattr(sc, name)
    assert np.quantile(rel_err(ours(v, x), theirs(v, x)), 0.999) < 1e-12
    vi = np.round(v)
    assert rel_err(ours(vi, -x), theirs(vi, -x)).max() < 1e-11  # odd/even in x for integer v
    assert np.isnan(ours(0.5, -1.0))  # non-integer order, x < 0
    g = np.array([-np.inf, -2.5, -2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 1e300, np.inf, np.nan])
    a, b = (m.ravel() for m in np.meshgrid(g, g))
    if name == "struve":  # x = +-1e300: Y_v's phase is lost in both; only the size 1e-151 agrees
        a, b = a[np.abs(b) != 1e300], b[np.abs(b) != 1e300]
    with np.errstate(all="ignore"):
        want = theirs(a, b)
    np.testing.assert_allclose(ours(a, b), want, rtol=1e-13, atol=0, equal_nan=True)
    assert ours(-0.5 - 3, 2.0) == pytest.approx(theirs(-3.5, 2.0), rel=1e-14)  # Bessel closed form


# ---------------------------------------------------------------------------------------- common

ALL = {"hyp2f1": 4, "hyp1f1": 3, "hyp0f1": 2, "struve": 2, "modstruve": 2}


@pytest.mark.parametrize("name", sorted(ALL))
def test_empty_float32_and_complex_refusal(name):
    f = getattr(tb.special, name)
    empty = f(*([np.zeros((0, 3))] * ALL[name]))
    assert empty.shape == (0, 3) and empty.dtype == np.float64
    args32 = [np.array([0.5, 1.25], dtype=np.float32)] * (ALL[name] - 1) + [np.array([0.25, 0.5], np.float32)]
    got = f(*args32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, getattr(sc, name)(*args32), rtol=1e-6)
    if "D->D" in "".join(getattr(sc, name).types):
        # computed: test_hypergeometric_complex.py, test_airy_hyp0f1_complex.py
        z = [0.5] * (ALL[name] - 1) + [0.25 + 0.5j]
        np.testing.assert_allclose(f(*z), getattr(sc, name)(*z), rtol=1e-14)
    else:
        with pytest.raises(TypeError, match="complex"):
            f(*([0.5] * (ALL[name] - 1) + [0.25 + 0.5j]))


@pytest.mark.parametrize("name", sorted(ALL))
def test_torch_input_and_threads(name):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(SEED + 9)
    args = [rng.uniform(0.1, 3, 5000) for _ in range(ALL[name] - 1)] + [rng.uniform(0, 0.9, 5000)]
    f = getattr(tb.special, name)
    whole = f(*(torch.from_numpy(a) for a in args))
    assert isinstance(whole, torch.Tensor) and whole.dtype == torch.float64
    pieces = np.array([f(*(a[i] for a in args)) for i in range(40)])
    np.testing.assert_array_equal(whole.numpy()[:40], pieces)
    np.testing.assert_allclose(whole.numpy(), getattr(sc, name)(*args), rtol=1e-13)


@settings(max_examples=60, deadline=None)
@given(st.floats(-20, 20), st.floats(-20, 20), st.floats(-20, 20), st.floats(-0.999, 0.999))
def test_hyp2f1_any_parameters_inside_the_disc(a, b, c, x):
    got, want = tb.special.hyp2f1(a, b, c, x), sc.hyp2f1(a, b, c, x)
    if np.isfinite(want) and abs(want) < 1e300:
        # (SciPy's own loss-of-precision cases, which Cephes reports, agree less closely)
        np.testing.assert_allclose(got, want, rtol=1e-9, err_msg=f"hyp2f1({a}, {b}, {c}, {x})")


@settings(max_examples=60, deadline=None)
@given(st.floats(-30, 30), st.floats(0.01, 30), st.floats(-60, 60))
def test_hyp1f1_any_parameters(a, b, x):
    got, want = tb.special.hyp1f1(a, b, x), sc.hyp1f1(a, b, x)
    if np.isfinite(want) and 1e-280 < abs(want) < 1e280:
        if not np.isclose(got, want, rtol=1e-10, atol=0):
            # SciPy is not always the closer one (M(-22; 4; 4): 5.7e-10 off, ours 4.8e-13): mpmath decides
            want = float(mp.hyp1f1(a, b, x))
        np.testing.assert_allclose(got, want, rtol=1e-10, err_msg=f"hyp1f1({a}, {b}, {x})")


@pytest.mark.parametrize("n", [2, 5, 12, 22, 28, 45, 59])
def test_hyp1f1_negative_integer_a_on_the_oscillating_side(n):
    # a Laguerre polynomial: its series cancels (terms near 1e10 against 10 at
    # M(-28; 1; 10)), the recurrence in a does not
    rng = np.random.default_rng(n)
    b = np.concatenate([rng.uniform(0.01, 30, 40), np.arange(1.0, 6.0)])
    x = rng.uniform(0, 120, b.size)
    got = tb.special.hyp1f1(-float(n), b, x)
    want = np.array([float(mp.hyp1f1(-n, bi, xi)) for bi, xi in zip(b, x)])
    assert np.max(rel_err(got, want)) < 1e-11


@settings(max_examples=60, deadline=None)
@given(st.floats(-20, 20), st.floats(0, 200))
def test_hyp0f1_and_struve_any_parameters(v, x):
    for name in ("hyp0f1", "struve", "modstruve"):
        got, want = getattr(tb.special, name)(v, x), getattr(sc, name)(v, x)
        if np.isfinite(want) and 1e-280 < abs(want) < 1e280:
            np.testing.assert_allclose(got, want, rtol=1e-9, err_msg=f"{name}({v}, {x})")
