"""The spherical Bessel functions spherical_jn, spherical_yn, spherical_in,
spherical_kn (src/ops/special/sph_bessel.rs, kernels in csrc/cephes_misc.cpp)
and their derivatives against SciPy, real z (complex z: test_bessel_complex.py):
sampled orders and arguments (fixed seed, explicit tolerances), edge values,
n < 0, real orders, float32, containers."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb

from .cases import assert_close

NAMES = ["spherical_jn", "spherical_yn", "spherical_in", "spherical_kn"]
#: (name, derivative) -> (rtol, atol, why); atol is relative to the largest |value| of each order's row
TOLERANCES = {
    "spherical_jn": (1e-12, 1e-14, "upward recurrence where n < x, J_(n+1/2) elsewhere; absolute slack at "
                     "the zeros, where SciPy's recurrence and AMOS are themselves ~1e-15 absolute"),
    "spherical_yn": (1e-12, 1e-14, "the same upward recurrence as SciPy's"),
    "spherical_in": (1e-12, 1e-14, "sqrt(pi/2x) I_(n+1/2), SciPy's AMOS against torchbridge's Temme"),
    "spherical_kn": (1e-12, 1e-14, "as spherical_in; for x < 0 the two terms of k_n(-x) cancel"),
}


def _grid(rng, negative=True):
    n = rng.integers(0, 40, 3000)
    x = np.concatenate([rng.uniform(0, 50, 1500), 10.0 ** rng.uniform(-5, 2.5, 1500)])
    if negative:
        x = x * rng.choice([-1.0, 1.0], x.size)
    return n, x


@pytest.mark.parametrize("derivative", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_matches_scipy(name, derivative, rng):
    n, x = _grid(rng)
    if name == "spherical_kn":
        x = np.abs(x)  # k_n(-x): see test_negative_arguments
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(n, x, derivative)
    got = getattr(tb.special, name)(n, x, derivative)
    assert got.dtype == want.dtype == np.float64
    rtol, atol, why = TOLERANCES[name]
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite], want[~finite])
    scale = np.maximum(1.0, np.abs(want[finite]))
    err = np.abs(got[finite] - want[finite]) / (rtol * np.abs(want[finite]) + atol * scale)
    assert err.max() <= 1, (why, err.argmax(), n[finite][err.argmax()], x[finite][err.argmax()])


@pytest.mark.parametrize("derivative", [False, True])
def test_negative_arguments(derivative, rng):
    n = rng.integers(0, 12, 500)
    x = -rng.uniform(0.1, 20, 500)
    for name in NAMES:
        want = getattr(sc, name)(n, x, derivative)
        got = getattr(tb.special, name)(n, x, derivative)
        # k_n(-x) = -pi i_n(x) - (-1)^n k_n(x): SciPy's value carries the rounding of the larger term
        scale = np.maximum(1.0, np.abs(sc.spherical_in(n, -x)) + np.abs(sc.spherical_kn(n, -x)))
        assert_close(got / scale, want / scale, 1e-12, 1e-13, what=name)


@pytest.mark.parametrize("name", NAMES)
def test_edge_values(name):
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-300, 1.0, -1.0])
    for n in (-1, 0, 1, 2, 3):
        for derivative in (False, True):
            with np.errstate(all="ignore"):
                want = getattr(sc, name)(n, x, derivative)
            got = getattr(tb.special, name)(n, x, derivative)
            if name == "spherical_in":
                # SciPy's AMOS underflows I_(n+1/2)(1e-300) to 0, i_0(1e-300) = 0 with it; 1 is right
                keep = x != 1e-300
                got, want = got[keep], want[keep]
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=f"{name}({n}, x, {derivative})")
            special = ~np.isfinite(want) | (want == 0)
            np.testing.assert_array_equal(got[special], want[special], err_msg=f"{name}({n}, x, {derivative})")
            big = np.abs(want) > 1e200
            assert_close(got[~big], want[~big], 1e-12, 1e-15, what=f"{name}({n}, x, {derivative})")


def test_real_orders_are_truncated_as_scipy():
    x = np.linspace(0.5, 5, 7)
    for name in NAMES:
        assert_close(getattr(tb.special, name)(2.7, x), getattr(sc, name)(2.7, x), 1e-13, 0)
    assert isinstance(tb.special.spherical_jn(1, 0.5), np.float64)
    assert tb.special.spherical_jn(1, 0.5) == pytest.approx(sc.spherical_jn(1, 0.5), rel=1e-15)


def test_float32_and_broadcasting():
    n = np.arange(4).reshape(4, 1)
    x = np.linspace(0.1, 10, 5, dtype=np.float32)
    for name in NAMES:
        got = getattr(tb.special, name)(n, x)
        want = getattr(sc, name)(n, x)
        # SciPy's float32 loop, its result float64 for jn, yn, in (their reflection multiplies by
        # an int64 sign array), float32 for kn
        assert got.dtype == want.dtype == (np.float32 if name == "spherical_kn" else np.float64)
        assert got.shape == want.shape == (4, 5)
        assert_close(got, want, 2e-6, 1e-30)
    assert tb.special.spherical_jn(np.array([], dtype=np.int64), np.array([])).shape == (0,)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_every_library(lib):
    n = np.array([0, 1, 2, 5])
    x = np.array([0.5, 1.0, 7.0, 30.0])
    for name in NAMES:
        got = getattr(tb.special, name)(to_library(lib, n), to_library(lib, x), derivative=True)
        assert isinstance(got, library_type(lib))
        assert_close(to_numpy(got), getattr(sc, name)(n, x, True), 1e-13, 1e-15)


def test_complex_order_is_refused():
    # complex z is computed (tests/python/special/test_bessel_complex.py); a complex order is not SciPy's either
    with pytest.raises(TypeError):
        tb.special.spherical_jn(np.array([1 + 1j]), 1.0)
