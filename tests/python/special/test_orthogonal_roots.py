"""Gauss quadrature nodes and weights (``roots_*``) against SciPy and mpmath.

Tolerances: the nodes agree with SciPy to 1e-12 relative for n <= 150 (1e-11 for
the shifted rules, whose nodes near 0 come from ``(x + 1) / 2`` with x near -1).
SciPy's own weights are off by up to ~3e-11 relative at the ends of the interval
(``roots_legendre(150)``: 2.6e-11 against mpmath, ours 7e-14: Christoffel sums
instead of ``1 / (P_{n-1} P_n')``), so the weights are compared with SciPy at
1e-9 relative (1e-7 above n = 150) and with mpmath at 1e-12. Above n = 150
SciPy's ``roots_hermite`` is an asymptotic expansion: nodes within 2e-12
relative, the weights compared where they are above 1e-280.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp

CASES = [
    ("roots_legendre", ()),
    ("roots_sh_legendre", ()),
    ("roots_hermite", ()),
    ("roots_hermitenorm", ()),
    ("roots_laguerre", ()),
    ("roots_genlaguerre", (2.5,)),
    ("roots_genlaguerre", (-0.7,)),
    ("roots_jacobi", (0.3, -0.6)),
    ("roots_jacobi", (2.0, 5.0)),
    ("roots_jacobi", (1.5, 1.5)),
    ("roots_jacobi", (0.0, 0.0)),
    ("roots_sh_jacobi", (3.0, 1.5)),
    ("roots_gegenbauer", (0.7,)),
    ("roots_gegenbauer", (-0.3,)),
    ("roots_gegenbauer", (0.0,)),
    ("roots_gegenbauer", (200.0,)),
    ("roots_chebyt", ()),
    ("roots_chebyu", ()),
    ("roots_chebyc", ()),
    ("roots_chebys", ()),
    ("roots_sh_chebyt", ()),
    ("roots_sh_chebyu", ()),
]
NAMES = sorted({name for name, _ in CASES})


def _rel(ours, theirs, floor=0.0):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    keep = np.abs(theirs) > floor
    scale = np.where(theirs != 0, np.abs(theirs), 1.0)
    return float(np.max(np.where(keep, np.abs(ours - theirs) / scale, 0.0), initial=0.0))


@pytest.mark.parametrize("name,args", CASES, ids=[f"{n}{a}" for n, a in CASES])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 10, 16, 31, 64, 100, 149, 150])
def test_matches_scipy(name, args, n):
    x, w, m = getattr(tb.special, name)(n, *args, mu=True)
    X, W, M = getattr(sc, name)(n, *args, mu=True)
    assert isinstance(x, np.ndarray) and x.dtype == np.float64 and x.shape == (n,)
    assert isinstance(w, np.ndarray) and w.dtype == np.float64 and w.shape == (n,)
    # the shifted rules map x -> (x + 1) / 2: a node near 0 keeps only the absolute accuracy of x near -1
    assert _rel(x, X) <= (1e-11 if name.startswith("roots_sh_") else 1e-12)
    assert _rel(w, W) <= 1e-9
    np.testing.assert_allclose(m, M, rtol=1e-14)
    x2, w2 = getattr(tb.special, name)(n, *args)
    np.testing.assert_array_equal(x2, x)
    np.testing.assert_array_equal(w2, w)


@pytest.mark.parametrize("name,args", CASES, ids=[f"{n}{a}" for n, a in CASES])
@pytest.mark.parametrize("n", [151, 300])
def test_large_n(name, args, n):
    x, w = getattr(tb.special, name)(n, *args)
    X, W = getattr(sc, name)(n, *args)
    assert _rel(x, X) <= (1e-11 if name.startswith("roots_sh_") else 2e-12)
    assert _rel(w, W, floor=1e-280) <= 1e-7
    assert np.all(np.diff(x) > 0)


@pytest.mark.parametrize("n", [5, 40, 150])
def test_legendre_weights_against_mpmath(n):
    x, w = tb.special.roots_legendre(n)
    for i in sorted({0, 1, n // 3, n // 2}):
        xi = mp.findroot(lambda t: mp.legendre(n, t), mp.mpf(float(x[i])))
        d = mp.diff(lambda t: mp.legendre(n, t), xi)
        wi = 2 / ((1 - xi**2) * d**2)
        assert abs(x[i] - float(xi)) <= 1e-15 * max(abs(float(xi)), 1e-3)
        assert abs(w[i] - float(wi)) <= 1e-12 * float(wi)


def test_integrates_polynomials_exactly():
    x, w = tb.special.roots_laguerre(20)
    # int_0^inf x^k e^-x dx = k!
    for k in range(0, 39, 5):
        np.testing.assert_allclose(np.sum(w * x**k), float(mp.factorial(k)), rtol=1e-12)
    x, w = tb.special.roots_hermite(30)
    np.testing.assert_allclose(np.sum(w * x**4), 3 * np.sqrt(np.pi) / 4, rtol=1e-13)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [0, -1, 2.5])
def test_bad_order_raises_as_scipy(name, n):
    args = dict(CASES)[name]
    with pytest.raises(ValueError) as theirs:
        getattr(sc, name)(n, *args)
    with pytest.raises(ValueError, match=str(theirs.value).replace("(", r"\(").replace(")", r"\)")):
        getattr(tb.special, name)(n, *args)


@pytest.mark.parametrize(
    "name,args",
    [
        ("roots_jacobi", (-1.0, 0.5)),
        ("roots_jacobi", (0.5, -1.5)),
        ("roots_genlaguerre", (-1.5,)),
        ("roots_gegenbauer", (-0.75,)),
        ("roots_sh_jacobi", (1.0, 0.0)),
        ("roots_sh_jacobi", (0.5, 2.0)),
    ],
)
def test_bad_parameters_raise_as_scipy(name, args):
    with pytest.raises(ValueError) as theirs:
        getattr(sc, name)(4, *args)
    with pytest.raises(ValueError) as ours:
        getattr(tb.special, name)(4, *args)
    assert str(ours.value) == str(theirs.value)


def test_float_order_and_device_keyword():
    x, w = tb.special.roots_legendre(4.0, device="cpu")
    X, W = sc.roots_legendre(4)
    np.testing.assert_allclose(x, X, rtol=1e-15)
    np.testing.assert_allclose(w, W, rtol=1e-13)
    x, w, m = tb.special.roots_genlaguerre(1, 0.5, mu=True)
    X, W, M = sc.roots_genlaguerre(1, 0.5, mu=True)
    np.testing.assert_allclose([*x, *w, m], [*X, *W, M], rtol=1e-15)
