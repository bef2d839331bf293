"""torchbridge.signal's waveforms against scipy.signal 1.17.1 over the four
CPU containers: values, dtypes (SciPy's: float64 results, chirp's float32
phase for float32 t), broadcasting, nan/inf/empty/0-d inputs, refusals, and
that inputs are left alone.

Tolerances: absolute, scaled by the phase's magnitude where the phase is
large (cos of a phase of size P carries P * 1e-16 of rounding): 1e-13 for
t in [-10, 10] (chirp quadratic/logarithmic: libtorch's pow(t, 3) differs from
NumPy's by an ulp), 1e-15 elsewhere; float32 phases 1e-6.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
import torch
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy

import torchbridge.signal as ts

METHODS = ["linear", "quadratic", "logarithmic", "hyperbolic", "lin", "quad", "log", "hyp", "li", "q", "lo"]


@pytest.fixture
def times(rng):
    return np.concatenate([rng.uniform(-10, 10, 257), [0.0, -0.0, 1.0, 7.0]])


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("method", METHODS)
def test_chirp_matches_scipy(lib, method, times):
    for vertex_zero in (True, False):
        for complex_ in (False, True):
            for phi in (0, 30.5):
                t = to_library(lib, times)
                got = ts.chirp(t, 1.5, 7.0, 4.0, method=method, phi=phi, vertex_zero=vertex_zero, complex=complex_)
                want = ss.chirp(times, 1.5, 7.0, 4.0, method=method, phi=phi, vertex_zero=vertex_zero, complex=complex_)
                assert isinstance(got, library_type(lib)) and dtype_name(got) == want.dtype.name
                np.testing.assert_allclose(to_numpy(got), want, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(to_numpy(t), times)  # input untouched


def test_chirp_dtypes_follow_numpy(times):
    t32 = times.astype(np.float32)
    for phi in (0, np.float32(10)):
        want = ss.chirp(t32, 1.5, 7, 4.0, phi=phi)
        got = ts.chirp(t32, 1.5, 7, 4.0, phi=phi)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
    ints = np.arange(-5, 6)
    got = ts.chirp(ints, 1, 3, 2, method="hyp")
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, ss.chirp(ints, 1, 3, 2, method="hyp"), atol=1e-13)
    z = ts.chirp(torch.from_numpy(t32), 1, 3, 2, complex=True)
    assert z.dtype == torch.complex128


def test_chirp_phi_array_broadcasts(times):
    phi = np.array([0.0, 45.0, 90.0])[:, None]
    got = ts.chirp(times, 1, 3, 2, phi=phi)
    want = ss.chirp(times, 1, 3, 2, phi=phi)
    assert got.shape == want.shape == (3, times.size)
    np.testing.assert_allclose(got, want, atol=1e-13)


def test_chirp_edges():
    t = np.array([np.nan, np.inf, -np.inf, 0.0])
    with np.errstate(all="ignore"):
        want = ss.chirp(t, 1, 2, 3)
    np.testing.assert_array_equal(np.isnan(ts.chirp(t, 1, 2, 3)), np.isnan(want))
    assert ts.chirp(np.zeros(0), 1, 2, 3).shape == (0,)
    zero_d = ts.chirp(np.float64(0.25), 1, 2, 3)
    assert np.ndim(zero_d) == 0
    np.testing.assert_allclose(zero_d, ss.chirp(0.25, 1, 2, 3), atol=1e-15)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "cubic"}, "method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic'"),
        ({"method": "log", "f0": 0.0}, "f0 and f1 must be nonzero and have the same sign"),
        ({"method": "log", "f0": -1.0}, "f0 and f1 must be nonzero and have the same sign"),
        ({"method": "hyperbolic", "f0": 0.0}, "f0 and f1 must be nonzero"),
    ],
)
def test_chirp_refusals_are_scipys(kwargs, message):
    args = {"f0": 1.0, "t1": 2.0, "f1": 3.0} | kwargs
    method = args.pop("method")
    with pytest.raises(ValueError, match=message):
        ts.chirp(np.ones(3), args["f0"], args["t1"], args["f1"], method=method)
    with pytest.raises(ValueError, match=message):
        ss.chirp(np.ones(3), args["f0"], args["t1"], args["f1"], method=method)


@pytest.mark.parametrize("method", ["linear", "quadratic", "logarithmic", "hyperbolic"])
@pytest.mark.parametrize("vertex_zero", [True, False])
def test_chirp_in_place_and_autograd_paths_agree(method, vertex_zero, times):
    # without grad the intermediates are updated in place; a torch input that
    # requires grad takes the allocating path: the same values, and gradients
    t = torch.tensor(times, requires_grad=True)
    args = (t, 1.5, 7.0, 4.0)
    for phi in (0, 20.0, torch.tensor(12.5, dtype=torch.float64)):
        for complex_ in (False, True):
            kwargs = {"method": method, "phi": phi, "vertex_zero": vertex_zero, "complex": complex_}
            tracked = ts.chirp(*args, **kwargs)
            plain = ts.chirp(t.detach(), *args[1:], **kwargs)
            assert tracked.requires_grad and not plain.requires_grad
            torch.testing.assert_close(tracked.detach(), plain, rtol=0, atol=0)
    np.testing.assert_array_equal(t.detach().numpy(), times)  # input untouched
    x = torch.tensor([0.5, 1.0, 2.5], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x: ts.chirp(x, 1.5, 7.0, 4.0, method=method, vertex_zero=vertex_zero), (x,))
    phi = torch.tensor(30.0, dtype=torch.float64, requires_grad=True)
    (grad,) = torch.autograd.grad(ts.chirp(x.detach(), 1.5, 7.0, 4.0, method=method, phi=phi).sum(), phi)
    phase = np.deg2rad(30.0) + np.angle(ss.chirp(x.detach().numpy(), 1.5, 7.0, 4.0, method=method, complex=True))
    np.testing.assert_allclose(grad.item(), -np.sin(phase).sum() * np.pi / 180, rtol=1e-10)


def test_chirp_float32_in_place_path(times):
    # float32 phase, then float64: the in-place steps keep NumPy's dtypes and
    # the allocating path's values
    t32 = torch.tensor(times, dtype=torch.float32)
    for method in ("linear", "quadratic", "logarithmic", "hyperbolic"):
        kwargs = {"method": method, "vertex_zero": False, "phi": 10.0}
        got = ts.chirp(t32, 1.5, 7.0, 4.0, **kwargs)
        assert got.dtype == torch.float64
        tracked = ts.chirp(t32.clone().requires_grad_(), 1.5, 7.0, 4.0, **kwargs)
        torch.testing.assert_close(got, tracked.detach(), rtol=0, atol=0)
        # a float32 phase of up to ~1e3 radians carries ~1e-4 of rounding
        want = ss.chirp(times.astype(np.float32), 1.5, 7.0, 4.0, **kwargs)
        np.testing.assert_allclose(got.numpy(), want, rtol=0, atol=1e-3)
    np.testing.assert_array_equal(t32.numpy(), times.astype(np.float32))


def test_complex_time_is_refused():
    with pytest.raises(TypeError, match="real input"):
        ts.chirp(np.ones(3, complex), 1, 2, 3)
    with pytest.raises(TypeError, match="real input"):
        ts.sawtooth(np.ones(3, complex))


@pytest.mark.parametrize("lib", LIBRARIES)
def test_sawtooth_and_square_match_scipy(lib, times):
    t = to_library(lib, times)
    for shape in (0, 0.25, 0.5, 1, 1.5, -0.1):
        with np.errstate(all="ignore"):
            want_saw, want_sq = ss.sawtooth(times, shape), ss.square(times, shape)
        got_saw, got_sq = ts.sawtooth(t, shape), ts.square(t, shape)
        assert isinstance(got_saw, library_type(lib)) and dtype_name(got_saw) == "float64"
        np.testing.assert_allclose(to_numpy(got_saw), want_saw, rtol=0, atol=1e-14, equal_nan=True)
        np.testing.assert_array_equal(to_numpy(got_sq), want_sq)
    widths = to_library(lib, np.array([[0.2], [0.5], [0.9]]))
    got = ts.sawtooth(t, widths)
    assert tuple(got.shape) == (3, times.size)
    np.testing.assert_allclose(to_numpy(got), ss.sawtooth(times, np.array([[0.2], [0.5], [0.9]])), atol=1e-14)


def test_sawtooth_square_dtypes_and_edges():
    t32 = np.linspace(-7, 7, 33, dtype=np.float32)
    assert ts.sawtooth(t32).dtype == ss.sawtooth(t32).dtype == np.float64
    np.testing.assert_allclose(ts.sawtooth(t32, np.float32(0.3)), ss.sawtooth(t32, np.float32(0.3)), atol=1e-6)
    np.testing.assert_array_equal(ts.square(np.arange(-4, 5)), ss.square(np.arange(-4, 5)))
    t = np.array([np.nan, np.inf, 0.0])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ts.square(t), ss.square(t))
        np.testing.assert_allclose(ts.sawtooth(t), ss.sawtooth(t), equal_nan=True)
    assert ts.square(np.zeros((2, 0))).shape == (2, 0)
    with pytest.raises(ValueError, match="broadcast"):
        ts.square(np.zeros(3), np.zeros(2))


@pytest.mark.parametrize("lib", LIBRARIES)
def test_gausspulse_matches_scipy(lib, rng):
    times = rng.uniform(-3e-3, 3e-3, 101)
    t = to_library(lib, times)
    for retquad in (False, True):
        for retenv in (False, True):
            want = ss.gausspulse(times, fc=2e3, bw=0.3, retquad=retquad, retenv=retenv)
            got = ts.gausspulse(t, fc=2e3, bw=0.3, retquad=retquad, retenv=retenv)
            if not isinstance(want, tuple):
                want, got = (want,), (got,)
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                assert isinstance(g, library_type(lib)) and dtype_name(g) == "float64"
                np.testing.assert_allclose(to_numpy(g), w, rtol=0, atol=1e-15)


def test_gausspulse_cutoff_and_refusals():
    for kwargs in ({}, {"fc": 5e3, "bw": 0.2, "bwr": -3, "tpr": -40}):
        got, want = ts.gausspulse("cutoff", **kwargs), ss.gausspulse("cutoff", **kwargs)
        assert type(got) is type(want) and got == pytest.approx(want, rel=1e-15)
    for kwargs, message in [
        ({"fc": -1}, r"Center frequency \(fc=-1.00\) must be >=0."),
        ({"bw": 0}, r"Fractional bandwidth \(bw=0.00\) must be > 0."),
        ({"bwr": 1}, r"Reference level for bandwidth \(bwr=1.00\) must be < 0 dB"),
    ]:
        with pytest.raises(ValueError, match=message):
            ts.gausspulse(np.zeros(2), **kwargs)
        with pytest.raises(ValueError, match=message):
            ss.gausspulse(np.zeros(2), **kwargs)
    with pytest.raises(ValueError, match="Reference level for time cutoff"):
        ts.gausspulse("cutoff", tpr=0)
    with pytest.raises(ValueError, match="it must be 'cutoff'"):
        ts.gausspulse("middle")


@pytest.mark.parametrize("lib", LIBRARIES)
def test_sweep_poly_matches_scipy(lib, times):
    t = to_library(lib, times / 5)
    for poly in (np.poly1d([0.025, -0.36, 1.25, 2.0]), [1.0, 2.0, 3.0], np.array([4]), (0.5, -1)):
        for phi in (0, 12.5):
            got = ts.sweep_poly(t, poly, phi=phi)
            want = ss.sweep_poly(times / 5, poly, phi=phi)
            assert isinstance(got, library_type(lib)) and dtype_name(got) == "float64"
            np.testing.assert_allclose(to_numpy(got), want, rtol=0, atol=1e-13)
    got = ts.sweep_poly(t, to_library(lib, np.array([1.0, 2.0])))
    np.testing.assert_allclose(to_numpy(got), ss.sweep_poly(times / 5, [1.0, 2.0]), atol=1e-13)
    with pytest.raises(ValueError, match="1-D"):
        ts.sweep_poly(t, np.ones((2, 2)))


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((5,), {}), ((5, "mid"), {}), ((6, 2), {}), ((4, -1), {}), (((3, 3),), {}), (((3, 4), "mid"), {}),
     (((2, 3), (1, 2)), {}), (((2, 3), (1,)), {}), ((4,), {"dtype": int}), ((4,), {"dtype": np.float32}),
     ((4,), {"dtype": bool}), ((3,), {"dtype": complex}), (((),), {})],
)
def test_unit_impulse_matches_scipy(args, kwargs):
    got, want = ts.unit_impulse(*args, **kwargs), ss.unit_impulse(*args, **kwargs)
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_unit_impulse_refusals():
    with pytest.raises(IndexError, match="out of bounds"):
        ts.unit_impulse(3, 3)
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        ts.unit_impulse(0)
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        ss.unit_impulse(0)
    with pytest.raises(IndexError, match="too many indices"):
        ts.unit_impulse(3, (0, 0))
    with pytest.raises(ValueError, match="negative dimensions"):
        ts.unit_impulse(-1)
    with pytest.raises(NotImplementedError, match="fancy indexing"):
        ts.unit_impulse(5, [1, 2])
    with pytest.raises(NotImplementedError, match="not supported"):
        ts.unit_impulse(5, dtype="U3")
