"""Bessel functions of real order and real argument (csrc/bessel_kernels.h):
jv (jn), yv, iv, kv, jve, yve, ive, kve, yn.

The CASES rows (cases.py) compare them with SciPy (float64, float32, the four
CPU containers, the binary edge grid); here mpmath (50 digits) is the judge,
over v in [-50, 50] and x in [0, 1e4], where SciPy itself is up to 1e-12 off.
J and Y oscillate: their error is measured against the modulus
sqrt(J^2 + Y^2) (DLMF 10.18.1), the scale of the function near its zeros.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp, scipy_call


def grid(seed: int, n: int, x_hi_exp: float = 4.0, negative_orders: bool = True):
    rng = np.random.default_rng(seed)
    lo = -50.0 if negative_orders else 0.0
    v = rng.uniform(lo, 50.0, n)
    v[: n // 5] = np.round(v[: n // 5])  # integer orders
    v[n // 5: 2 * n // 5] = np.round(v[n // 5: 2 * n // 5]) + 0.5  # half-integers
    x = np.concatenate([rng.uniform(0, 5, n // 3), 10.0 ** rng.uniform(-3, x_hi_exp, n - n // 3)])
    return v, x


def mp_pair(kind: str, v: float, x: float):
    v, x = mp.mpf(float(v)), mp.mpf(float(x))
    if kind == "jy":
        return mp.besselj(v, x), mp.bessely(v, x)
    return mp.besseli(v, x), mp.besselk(v, x)


@pytest.mark.parametrize("name", ["jv", "yv", "jve", "yve"])
def test_j_and_y_against_mpmath(name):
    v, x = grid(1, 240)
    got = getattr(tb.special, name)(v, x)
    scipy_err, our_err = [], []
    theirs = getattr(sc, name)(v, x)
    for vi, xi, g, s in zip(v, x, got, theirs):
        j, y = mp_pair("jy", vi, xi)
        want = j if name[0] == "j" else y
        modulus = float(mp.sqrt(j * j + y * y))
        if not np.isfinite(modulus) or modulus > 1e300:
            continue
        scale = max(abs(float(want)), modulus)
        our_err.append(abs(g - float(want)) / scale)
        scipy_err.append(abs(s - float(want)) / scale)
    assert max(our_err) < 2e-14, max(our_err)
    assert len(our_err) > 200
    # SciPy's own error on this grid, for the record (it is the less accurate one)
    assert max(scipy_err) > max(our_err)


@pytest.mark.parametrize("name", ["iv", "kv", "ive", "kve"])
def test_i_and_k_against_mpmath(name):
    v, x = grid(2, 240, x_hi_exp=4.0)
    got = getattr(tb.special, name)(v, x)
    errs = []
    for vi, xi, g in zip(v, x, got):
        i, k = mp_pair("ik", vi, xi)
        want = i if name[0] == "i" else k
        if name == "ive":
            want *= mp.exp(-xi)
        elif name == "kve":
            want *= mp.exp(xi)
        want = float(want)
        if want == 0 or not np.isfinite(want) or abs(want) < 1e-300:
            assert g == want or (abs(want) < 1e-300 and abs(g) < 1e-290), (name, vi, xi, g, want)
            continue
        errs.append(abs(g - want) / abs(want))
    assert max(errs) < 2e-14, max(errs)
    assert len(errs) > 150


def test_large_orders_and_arguments_against_mpmath():
    points = [(300.0, 500.0), (600.0, 300.0), (120.5, 119.0),
              (50.5, 1e4), (0.3, 1e10), (2.5, 1e-10), (0.5, 1e-300), (30.3, 1.5), (-40.7, 1e3)]
    for v, x in points:
        j, y = mp_pair("jy", v, x)
        modulus = float(mp.sqrt(j * j + y * y))
        # at x = 1e-300 Temme's (x/2)^-mu = exp(-mu log(x/2)) carries the rounding of the
        # logarithm (691 eps): 4e-14 relative
        tol = 2e-14 if x > 1e-100 else 1e-13
        for name, want in (("jv", j), ("yv", y)):
            got = float(getattr(tb.special, name)(v, x))
            assert abs(got - float(want)) <= tol * max(abs(float(want)), modulus), (name, v, x, got)
        if v >= 0:
            i, k = mp_pair("ik", v, x)
            for name, want in (("iv", i), ("kv", k), ("ive", i * mp.exp(-x)), ("kve", k * mp.exp(x))):
                want = float(want)
                got = float(getattr(tb.special, name)(v, x))
                if np.isinf(want) or want == 0:
                    assert got == want, (name, v, x, got)
                else:
                    assert got == pytest.approx(want, rel=tol), (name, v, x)


def test_subnormal_arguments_where_scipy_overflows():
    # Y and K are finite there (Y_0(5e-324) = (2/pi)(log(x/2) + gamma)); SciPy gives -inf / inf
    x = 5e-324
    assert tb.special.yv(0.0, x) == pytest.approx(float(mp.bessely(0, mp.mpf(x))), rel=1e-14)
    assert tb.special.kv(0.5, x) == pytest.approx(float(mp.besselk(0.5, mp.mpf(x))), rel=1e-13)
    assert tb.special.jv(0.0, x) == 1.0 and tb.special.iv(0.0, x) == 1.0
    assert sc.yv(0.0, x) == -np.inf


SPECIAL_VALUES = [
    # (name, v, x, value): SciPy's special values, followed
    ("jv", 0.0, 0.0, 1.0), ("jv", 2.0, 0.0, 0.0), ("jv", -3.0, 0.0, -0.0), ("jv", -2.5, 0.0, np.inf),
    ("jv", 2.5, 0.0, 0.0), ("jv", 1.0, -0.0, 0.0), ("jv", 0.5, -1.0, np.nan), ("jv", np.inf, 1.0, 0.0),
    ("jv", 1.0, np.inf, np.nan), ("jv", np.nan, 1.0, np.nan), ("jv", 1.0, np.nan, np.nan),
    ("yv", 0.0, 0.0, -np.inf), ("yv", -1.0, 0.0, np.inf), ("yv", -2.0, 0.0, -np.inf), ("yv", -2.5, 0.0, -np.inf),
    ("yv", 1.0, -1.0, np.nan), ("yv", 1.0, np.inf, np.nan), ("yv", np.inf, 1.0, np.nan),
    ("iv", 0.0, 0.0, 1.0), ("iv", -1.0, 0.0, 0.0), ("iv", -2.5, 0.0, np.inf), ("iv", 2.5, -1.0, np.nan),
    ("iv", np.inf, -1.0, 0.0), ("iv", 1.0, np.inf, np.nan),
    ("kv", 0.0, 0.0, np.inf), ("kv", np.nan, 0.0, np.inf), ("kv", 1.0, -1.0, np.nan), ("kv", 1.0, np.inf, 0.0),
    ("kv", np.inf, 1.0, np.nan),
    ("jve", -2.5, 0.0, np.nan), ("jve", np.inf, 1.0, np.nan), ("yve", 0.0, 0.0, np.nan),
    ("ive", -2.5, 0.0, np.nan), ("ive", np.inf, 1.0, np.nan), ("kve", 1.0, np.inf, np.nan),
    ("kve", 0.0, 0.0, np.inf), ("yn", np.inf, 1.0, -np.inf),
    ("yn", -1.0, 0.0, np.inf), ("yn", 2.0, -1.0, np.nan),
]


@pytest.mark.parametrize(("name", "v", "x", "value"), SPECIAL_VALUES)
def test_special_values_follow_scipy(name, v, x, value):
    got = getattr(tb.special, name)(v, x)
    theirs = scipy_call(name, v, x)  # (SciPy's yn warns where it truncates n)
    np.testing.assert_equal(theirs, value)  # the table is SciPy's
    np.testing.assert_equal(got, value)
    if value == 0:
        assert np.signbit(got) == np.signbit(value)


def test_integer_orders_at_negative_arguments_and_reflection():
    x = np.array([-7.5, -0.3, 0.3, 7.5])
    for n in (-3, -2, 0, 1, 4):
        for name, parity in (("jv", 1), ("iv", 1), ("ive", 1)):
            got = getattr(tb.special, name)(float(n), x)
            want = getattr(sc, name)(float(n), x)
            np.testing.assert_allclose(got, want, rtol=1e-14)
            np.testing.assert_allclose(got[:2], (-1.0) ** n * got[:1:-1] * parity, rtol=1e-15)
    # J_-n = (-1)^n J_n, Y_-n = (-1)^n Y_n, I_-n = I_n, K_-v = K_v exactly
    v = np.arange(1.0, 12.0)
    np.testing.assert_array_equal(tb.special.jv(-v, 3.7), (-1.0) ** v * tb.special.jv(v, 3.7))
    np.testing.assert_array_equal(tb.special.yv(-v, 3.7), (-1.0) ** v * tb.special.yv(v, 3.7))
    np.testing.assert_array_equal(tb.special.iv(-v, 3.7), tb.special.iv(v, 3.7))
    np.testing.assert_array_equal(tb.special.kv(-v - 0.3, 3.7), tb.special.kv(v + 0.3, 3.7))
    # yn truncates a real order, as SciPy's loop casts it; jn is jv
    assert tb.special.yn(1.5, 2.0) == tb.special.yn(1, 2.0) == pytest.approx(sc.yn(1, 2.0), rel=1e-15)
    np.testing.assert_array_equal(tb.special.jn(v, 3.7), tb.special.jv(v, 3.7))


def test_huge_orders_underflow_and_overflow_as_scipy():
    for name, value in (("jv", 0.0), ("yv", -np.inf), ("iv", 0.0), ("kv", np.inf), ("ive", 0.0), ("kve", np.inf)):
        assert getattr(tb.special, name)(1e10, 1.0) == value
        assert getattr(tb.special, name)(1e3, 1.0) == value == getattr(sc, name)(1e3, 1.0)
    assert tb.special.iv(1e5, 1e5) == np.inf and tb.special.kv(1e5, 1e5) == 0.0
    assert tb.special.jv(1e5, 1e5) == pytest.approx(sc.jv(1e5, 1e5), rel=1e-12)


def test_large_arrays_split_over_threads_agree_with_one_element_calls():
    v, x = grid(3, 3000)
    whole = tb.special.kv(v, x)
    pieces = np.array([tb.special.kv(a, b) for a, b in zip(v[:50], x[:50])])
    np.testing.assert_array_equal(whole[:50], pieces)


def test_float32_and_torch_device_paths():
    torch = pytest.importorskip("torch")
    v = torch.linspace(-5, 5, 11, dtype=torch.float32)
    x = torch.linspace(0.5, 20, 11, dtype=torch.float32)
    got = tb.special.jv(v, x)
    assert got.dtype == torch.float32
    np.testing.assert_allclose(got.numpy(), sc.jv(v.numpy(), x.numpy()), rtol=2e-6, atol=1e-7)
    assert tb.special.kv(torch.tensor([]), torch.tensor([])).shape == (0,)
