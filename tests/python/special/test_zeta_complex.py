"""Riemann's zeta function of complex argument (csrc/zeta_complex_math.h):
``zeta(z)`` for complex z, Euler-Maclaurin summation in long double for
Re z >= 0 and the reflection formula below, against mpmath (40 digits, inside
``mp.workdps``) over the critical strip, both half-planes and large |Im z|,
where SciPy itself is up to 1e-9 off; SciPy's special values; Hurwitz's
``zeta(z, q)`` of complex z is nan + nanj, as SciPy's.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb

from .cases import mp

SEED = 20261208


def mp_zeta(z):
    with mp.workdps(40):
        return np.array([complex(mp.zeta(mp.mpc(float(v.real), float(v.imag)))) for v in z])


def rel(got, want):
    return np.abs(got - want) / np.abs(want)


@pytest.mark.parametrize(("re", "im", "tol"), [
    ((-30, 30), (-60, 60), 1e-15),        # both half-planes, moderate |Im z|
    ((0, 1), (-1000, 1000), 5e-15),        # the critical strip
    ((-5, 5), (2, 4), 2e-14),              # |Im z| from 1e2 to 1e4 (exponents)
    ((-3, 3), (4, 5), 2e-13),              # |Im z| from 1e4 to 1e5
], ids=["moderate", "strip", "im-1e2-1e4", "im-1e4-1e5"])
def test_complex_zeta_against_mpmath(re, im, tol):
    rng = np.random.default_rng(SEED)
    n = 40
    x = rng.uniform(*re, n)
    y = rng.uniform(*im, n) if im[0] < 0 or im[1] < 10 else 10.0 ** rng.uniform(*im, n)
    z = x + 1j * y * rng.choice([-1, 1], n)
    want = mp_zeta(z)
    got = tb.special.zeta(z)
    assert got.dtype == np.complex128
    assert rel(got, want).max() < tol, rel(got, want).max()


def test_complex_zeta_follows_scipy_and_its_zeros():
    rng = np.random.default_rng(SEED + 1)
    z = rng.uniform(-20, 20, 2000) + 1j * rng.uniform(-50, 50, 2000)
    want = sc.zeta(z)
    assert rel(tb.special.zeta(z), want).max() < 1e-8  # SciPy's own error (mpmath: 1e-15 here)
    first_zero = 0.5 + 14.134725141734693790j
    assert abs(tb.special.zeta(np.array([first_zero]))[0]) < 1e-14
    # the real axis through the complex loop: the real values, exact zeros at -2, -4, ...
    x = np.array([-40.0, -7.5, -4.0, -2.0, -1.0, -0.5, 0.0, 0.5, 2.0, 3.5, 50.0])
    got = tb.special.zeta(x + 0j)
    np.testing.assert_allclose(got.real, sc.zeta(x), rtol=1e-15)
    assert (got.imag == 0).all() and got[2] == 0 and got[3] == 0


def test_complex_zeta_special_values_follow_scipy():
    inf, nan = np.inf, np.nan
    z = np.array([1 + 0j, complex(1, -0.0), complex(nan, 1), complex(1, nan), complex(inf, 1), complex(-inf, 1),
                  complex(2, inf), 0j, complex(-0.0, 0), 1 + 1e-20j, complex(0.5, 1e10)])
    np.testing.assert_allclose(tb.special.zeta(z), sc.zeta(z), rtol=1e-15, equal_nan=True)
    assert tb.special.zeta(np.zeros(0, np.complex128)).shape == (0,)
    got64 = tb.special.zeta(np.complex64(2 + 1j))
    assert got64.dtype == np.complex64
    np.testing.assert_allclose(got64, sc.zeta(np.complex64(2 + 1j)), rtol=1e-6)


def test_hurwitz_zeta_of_complex_is_nan_as_scipy():
    z = np.array([2 + 1j, 0.5 + 0j])
    got, want = tb.special.zeta(z, 1.5), sc.zeta(z, 1.5)
    assert got.dtype == want.dtype
    np.testing.assert_equal(got, want)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_complex_zeta_in_each_container(lib):
    z = np.array([0.5 + 14j, -3 + 2j, 4 - 1j])
    got = tb.special.zeta(to_library(lib, z))
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), mp_zeta(z), rtol=1e-14)
