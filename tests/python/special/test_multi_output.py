"""SciPy's multi-output ufuncs (the ``*_multi`` groups of src/ops/special/ufuncs.rs,
kernels in csrc/cephes_misc.cpp): sici, shichi, fresnel, airy, airye, ellipj
against SciPy (fixed seed, explicit tolerances), their edge values, the tuple
they return in every container, SciPy's loops, float32, scalars, empty input,
and what is refused."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb

from .cases import assert_close, log_uniform, mix, near_one, uniform

#: name -> (samplers, rtol, atol, why): |got - want| <= atol + rtol |want| for every output
MULTI = {
    "sici": ((mix(uniform(-30, 30), log_uniform(-300, 8.9, negative=True)),), 1e-13, 2e-15,
             "series to 2, the continued fraction of E1(ix) beyond (1e-15 absolute: Ci's zeros, where "
             "SciPy's rational approximations are the closer to mpmath, by 1e-15 at most). "
             "Beyond 1e9 SciPy keeps only the leading asymptotic term (1/x relative in Ci)"),
    "shichi": ((mix(uniform(-30, 30), uniform(-716, 716), log_uniform(-300, 2.5, negative=True)),), 1e-13,
               1e-15, "series to 50, the asymptotic series of Ei beyond; absolute slack at Chi's zero 0.52"),
    "fresnel": ((mix(uniform(-10, 10), log_uniform(-300, 6, negative=True)),), 1e-13, 1e-16,
                "series to 1.5, the continued fraction of erfc beyond, the phase reduced exactly"),
    "airy": ((mix(uniform(-10, 10), uniform(-200, 103), log_uniform(-300, 1, negative=True)),), 1e-11,
             1e-14, "series to |x| = 2, Bessel functions of orders 1/3, 2/3 beyond; absolute slack at the "
             "zeros on the negative axis, where SciPy's asymptotic forms are ~1e-15 absolute"),
    "airye": ((mix(uniform(-10, 10), uniform(-200, 1e3), log_uniform(-300, 5, negative=True)),), 1e-11, 1e-14,
              "as airy"),
    "ellipj": ((mix(uniform(-20, 20), log_uniform(-300, 3, negative=True)),
                mix(uniform(0, 1), near_one(-16, -1), log_uniform(-16, 0))), 1e-13, 1e-14,
               "the arithmetic-geometric mean as SciPy's; absolute slack at the zeros of sn, cn"),
}
NOUT = {"sici": 2, "shichi": 2, "fresnel": 2, "airy": 4, "airye": 4, "ellipj": 4}
NAMES = sorted(MULTI)
EDGES = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-300, -1e-300, 5e-324, 1e-5, 0.5, 1.0, 1.5, 2.0,
                  2.1, -1.0, -2.0, -2.1, 3.0, 8.0, 30.0, -30.0, 50.0, 51.0, 100.0, -100.0, 103.2, 103.3,
                  700.0, 720.0, -720.0, 36974.5, 1e5, 1048575.0, 1048576.0, -1048576.0, 1e9, 1e300])


def sample(name, rng, n=4000, dtype=np.float64):
    return [draw(rng, n).astype(dtype) for draw in MULTI[name][0]]


def scipy_call(name, *args):
    with np.errstate(all="ignore"):
        return getattr(sc, name)(*args)


@pytest.mark.parametrize("name", NAMES)
def test_loop_strings_and_nout_are_scipys(name):
    assert tb.special._special._ufunc_types(name) == getattr(sc, name).types
    assert NOUT[name] == getattr(sc, name).nout


@pytest.mark.parametrize("name", NAMES)
def test_matches_scipy_float64(name, rng):
    args = sample(name, rng)
    _, rtol, atol, why = MULTI[name]
    got = getattr(tb.special, name)(*args)
    want = scipy_call(name, *args)
    assert isinstance(got, tuple) and len(got) == NOUT[name]
    for i, (g, w) in enumerate(zip(got, want)):
        assert isinstance(g, np.ndarray) and g.dtype == np.float64 and g.shape == w.shape
        if name.startswith("airy"):
            # on the negative axis the phase 2/3 |x|^1.5 carries the rounding of x: an absolute
            # error of zeta ulps times the amplitude |x|^(+-1/4), in SciPy's values as in ours
            x = args[0]
            zeta = np.where(x < 0, 2 / 3 * np.abs(x) ** 1.5, 0.0)
            # (airye's Bi, Bi' there: SciPy's scaled AMOS path is up to 3e-14 off mpmath, ours 2e-15)
            slack = 5e-14 if name == "airye" else atol
            bound = slack + rtol * np.abs(w) + 4e-16 * zeta * np.maximum(1.0, np.abs(x)) ** 0.25
            same = (g == w) | (np.isnan(g) & np.isnan(w))
            assert (same | (np.abs(g - w) <= bound)).all(), (name, i, x[~(same | (np.abs(g - w) <= bound))][:5])
            continue
        assert_close(g, w, rtol, atol, what=f"{name} output {i}: {why}")


@pytest.mark.parametrize("name", sorted(set(NAMES) - {"ellipj"}))
def test_edge_values(name):
    got = getattr(tb.special, name)(EDGES)
    want = scipy_call(name, EDGES)
    for i, (g, w) in enumerate(zip(got, want)):
        # the special values exactly (nan, infinities, zeros and their signs where SciPy gives them)
        special = ~np.isfinite(w) | (w == 0)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{name} output {i}: nan")
        np.testing.assert_array_equal(g[special & ~np.isnan(w)], w[special & ~np.isnan(w)],
                                      err_msg=f"{name} output {i}")
        assert_close(g, w, 1e-11, 1e-300, what=f"{name} output {i}")


def test_edge_values_ellipj():
    u = np.array([0.0, -0.0, 0.5, 0.5, 0.5, 0.5, np.nan, np.inf, 0.5, 0.5, -1.0, 1e10, 0.5, 3.0])
    m = np.array([0.5, 0.5, 0.0, 1.0, -0.1, 1.1, 0.5, 0.5, np.nan, 1e-12, 1 - 1e-12, 0.5, -np.inf, np.inf])
    got = tb.special.ellipj(u, m)
    want = scipy_call("ellipj", u, m)
    for g, w in zip(got, want):
        assert_close(g, w, 1e-13, 1e-16)
        np.testing.assert_array_equal(np.signbit(g[w == 0]), np.signbit(w[w == 0]))


def test_special_values_are_scipys():
    si, ci = tb.special.sici(np.array([0.0, -0.0, np.inf, -np.inf]))
    assert list(si) == [0.0, 0.0, np.pi / 2, -np.pi / 2] and not np.signbit(si[1])
    assert ci[0] == ci[1] == -np.inf and ci[2] == 0.0 and np.isnan(ci[3])
    shi, chi = tb.special.shichi(np.array([0.0, np.inf, -np.inf, 720.0]))
    assert list(shi) == [0.0, np.inf, -np.inf, np.inf] and list(chi) == [-np.inf, np.inf, np.inf, np.inf]
    s, c = tb.special.fresnel(np.array([np.inf, -np.inf, -0.0]))
    assert list(s) == [0.5, -0.5, 0.0] and list(c) == [0.5, -0.5, 0.0]
    ai = tb.special.airy(np.array([np.inf, -np.inf, np.nan, 2.0**20, 200.0]))
    assert np.isnan(np.stack(ai)[:, :4]).all()
    assert ai[0][4] == ai[1][4] == 0.0 and np.isnan(ai[2][4]) and np.isnan(ai[3][4])
    eai = tb.special.airye(np.array([-1.0, 0.0]))
    assert np.isnan(eai[0][0]) and np.isnan(eai[1][0]) and np.isfinite(eai[2][0]) and eai[0][1] == sc.airy(0.0)[0]
    assert np.isnan(np.stack(tb.special.ellipj(0.5, np.array([-0.1, 1.1, np.nan])))).all()


@pytest.mark.parametrize("name", NAMES)
def test_float32_stays_float32(name, rng):
    args = sample(name, rng, n=2000, dtype=np.float32)
    got = getattr(tb.special, name)(*args)
    want = scipy_call(name, *args)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype == np.float32
        # both round the float64 kernel once; 1e-30 absolute for airy's underflowing tails
        assert_close(g, w, 2e-6, 1e-30 if name != "airy" else 1e-7)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", NAMES)
def test_every_library_gets_a_tuple_of_its_arrays(lib, name, rng):
    args = sample(name, rng, n=50)
    got = getattr(tb.special, name)(*(to_library(lib, a) for a in args))
    want = scipy_call(name, *args)
    assert isinstance(got, tuple) and len(got) == NOUT[name]
    _, rtol, atol, _ = MULTI[name]
    for g, w in zip(got, want):
        assert isinstance(g, library_type(lib))
        assert_close(to_numpy(g), w, rtol, atol)


@pytest.mark.parametrize("name", NAMES)
def test_scalars_and_empty_input(name):
    args = (0.75,) * (2 if name == "ellipj" else 1)
    got = getattr(tb.special, name)(*args)
    want = scipy_call(name, *args)
    assert isinstance(got, tuple) and len(got) == NOUT[name]
    for g, w in zip(got, want):
        assert type(g) is type(w) is np.float64
        assert_close(g, w, 1e-13, 1e-16)
    empty = (np.empty((0, 3)),) * len(args)
    for g in getattr(tb.special, name)(*empty):
        assert isinstance(g, np.ndarray) and g.shape == (0, 3) and g.dtype == np.float64


def test_broadcasting_and_integer_input():
    u = np.arange(6, dtype=np.int32).reshape(2, 3)
    m = np.array([0.1, 0.5, 0.9])
    got = tb.special.ellipj(u, m)
    want = sc.ellipj(u, m)
    for g, w in zip(got, want):
        assert g.shape == (2, 3) and g.dtype == w.dtype
        assert_close(g, w, 1e-13, 1e-15)
    got = tb.special.sici([1, 2, 3])
    assert all(g.dtype == np.float64 for g in got)


def test_refused():
    with pytest.raises(NotImplementedError, match="out="):
        tb.special.sici(np.ones(3), out=(np.empty(3), np.empty(3)))
    with pytest.raises(TypeError):
        tb.special.ellipj(np.ones(3, dtype=np.complex128), 0.5)
    with pytest.raises(NotImplementedError, match="where"):
        tb.special.fresnel(np.ones(3), where=np.array([True, False, True]))
    np.testing.assert_array_equal(tb.special.fresnel(np.ones(3), where=True), tb.special.fresnel(np.ones(3)))


def test_torch_input_stays_torch_and_needs_no_grad():
    torch = pytest.importorskip("torch")
    x = torch.linspace(-3, 3, 7, dtype=torch.float64)
    got = tb.special.fresnel(x)
    want = sc.fresnel(x.numpy())
    for g, w in zip(got, want):
        assert isinstance(g, torch.Tensor) and g.dtype == torch.float64
        assert_close(g.numpy(), w, 1e-13, 1e-16)
