"""torchbridge.special against scipy.special: values, dtypes, types, edges."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import torchbridge as tb

from conftest import LIBRARIES, library_type, to_library, to_numpy

# name -> (domain for random inputs, float64 rtol, atol, why that tolerance)
ROUTINES = {
    "erf": ((-6, 6), 1e-15, 0, "libtorch's erf is correctly rounded to about 1 ulp"),
    "erfc": ((-6, 26), 1e-13, 0, "libtorch's erfc keeps relative accuracy into the tail"),
    "expit": ((-700, 700), 1e-15, 0, "sigmoid via exp is within 1 ulp"),
    "logit": ((0, 1), 1e-15, 1e-15, "log(p/(1-p)); absolute slack at p = 0.5 where logit is 0"),
    "gammaln": ((-50, 170), 1e-13, 1e-13, "lgamma; absolute slack near its zeros at 1 and 2"),
}
EDGES = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-300, -1e-300, 5e-324, 1e300, -1e300,
                  0.5, 1.0, 2.0, -1.0, -2.5, 1 - 1e-16, 1e-16])


def sample(name: str, rng, n: int = 20_000, dtype=np.float64) -> np.ndarray:
    lo, hi = ROUTINES[name][0]
    return rng.uniform(lo, hi, n).astype(dtype)


@pytest.mark.parametrize("name", ROUTINES)
def test_matches_scipy_float64(name, rng):
    x = sample(name, rng)
    _, rtol, atol, _why = ROUTINES[name]
    got = getattr(tb.special, name)(x)
    want = getattr(sc, name)(x)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", ROUTINES)
def test_edge_values(name):
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(EDGES)
    if name == "gammaln":
        # SciPy overflows to inf at the smallest subnormal; the true value,
        # -log(5e-324) = 744.44, is what libtorch returns.
        want[EDGES == 5e-324] = -np.log(5e-324)
        # Next to the zero at 1, gammaln(1 - e) = euler_gamma * e + O(e^2):
        # 6.4e-17 here, which libtorch returns and SciPy rounds to 2.2e-16.
        near_one = EDGES == 1 - 1e-16
        want[near_one] = np.euler_gamma * (1 - EDGES[near_one])
    got = getattr(tb.special, name)(EDGES)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0, equal_nan=True)
    # signed zeros survive where SciPy keeps them
    assert np.array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))


def test_erfc_lower_and_upper_tail():
    x = np.array([-30.0, -8.0, 5.0, 10.0, 20.0, 26.0, 27.0])
    # At 27 the true value, 5.2e-319, is subnormal: libtorch returns it, SciPy
    # flushes to 0. The absolute slack covers only that.
    np.testing.assert_allclose(tb.special.erfc(x), sc.erfc(x), rtol=1e-13, atol=1e-318)


@pytest.mark.parametrize("name", ROUTINES)
def test_float32_stays_float32(name, rng):
    x = sample(name, rng, dtype=np.float32)
    got = getattr(tb.special, name)(x)
    want = getattr(sc, name)(x)
    assert got.dtype == want.dtype == np.float32
    # float32 kernels in libtorch are not correctly rounded: a few ulp, and
    # erfc loses relative accuracy deep in its tail where values are subnormal.
    mask = np.abs(want) > 1e-30
    np.testing.assert_allclose(got[mask], want[mask], rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name", ROUTINES)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
                                   "int64", "uint64", "float16", "float32", "float64"])
def test_result_dtype_matches_scipy_for_every_input_dtype(name, dtype):
    x = np.array([0, 1, 1, 0]).astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(x)
    got = getattr(tb.special, name)(x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", ROUTINES)
@pytest.mark.parametrize("value", [0.25, np.float64(0.25), np.float32(0.25), np.array(0.25), 1, True])
def test_scalars_give_numpy_scalars_like_scipy(name, value):
    want = getattr(sc, name)(value)
    got = getattr(tb.special, name)(value)
    assert type(got) is type(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("name", ROUTINES)
def test_lists_and_shapes(name):
    x = [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]
    got = getattr(tb.special, name)(x)
    want = getattr(sc, name)(x)
    assert type(got) is np.ndarray and got.shape == want.shape == (2, 3)
    np.testing.assert_allclose(got, want, rtol=1e-14)


@pytest.mark.parametrize("name", ROUTINES)
def test_empty_input(name):
    for shape in [(0,), (3, 0), (0, 4, 2)]:
        got = getattr(tb.special, name)(np.empty(shape))
        assert got.shape == shape and got.dtype == np.float64


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", ROUTINES)
def test_every_library(lib, name, rng):
    a = sample(name, rng, 500)
    got = getattr(tb.special, name)(to_library(lib, a))
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), getattr(sc, name)(a), rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("name", ROUTINES)
def test_read_only_input_is_never_written(name, rng):
    x = sample(name, rng, 5000)
    x.flags.writeable = False
    snapshot = x.copy()
    getattr(tb.special, name)(x)
    getattr(tb.special, name)(x[::-1])
    np.testing.assert_array_equal(x, snapshot)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(max_dims=3, max_side=6),
                  elements=st.floats(allow_nan=True, allow_infinity=True, width=64)))
def test_erf_and_expit_any_float64(x):
    for name in ("erf", "expit", "erfc"):
        with np.errstate(all="ignore"):
            want = getattr(sc, name)(x)
        np.testing.assert_allclose(getattr(tb.special, name)(x), want, rtol=1e-13, atol=1e-300,
                                   equal_nan=True)


def test_complex_input():
    z = np.array([0.5 + 0.5j])
    with pytest.raises(tb.UnsupportedParameterError, match="complex"):
        tb.special.erf(z)  # SciPy has complex erf; libtorch does not
    with pytest.raises(tb.DtypeError, match="expit does not accept complex128"):
        tb.special.expit(z)  # SciPy has no complex expit either
    with pytest.raises(TypeError):
        tb.special.gammaln(z)


def test_unsupported_ufunc_options_are_named():
    x = np.ones(3)
    with pytest.raises(NotImplementedError, match="out="):
        tb.special.erf(x, out=np.empty(3))
    with pytest.raises(NotImplementedError, match="where"):
        tb.special.erf(x, where=x > 0)
    np.testing.assert_allclose(tb.special.erf(x, out=None), sc.erf(x))
