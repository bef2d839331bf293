"""torchbridge.signal.windows against scipy.signal.windows 1.17.1: values,
dtypes and types, sym, small and large M, xp/device, get_window's names,
tuples and refusals.

Tolerances (max abs error over the window, whose peak is 1): closed forms
1e-14 (measured <= 1.2e-15: libtorch's cos/exp/i0 differ from NumPy's by an
ulp); chebwin 1e-10 (an FFT of values up to 10**(at/20), measured 8e-12 at
M=1000); dpss 1e-10 (a dense eigendecomposition instead of LAPACK's
tridiagonal stebz/stein, measured 4e-12).
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
import scipy.signal as ss
import scipy.signal.windows as sw
import torch
from conftest import library_type, to_numpy

import torchbridge.signal as ts
import torchbridge.signal.windows as tw

# name -> (parameters after M, tolerance)
WINDOWS = {
    **{
        name: ((), 1e-14)
        for name in (
            "boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris", "flattop",
            "bartlett", "barthann", "hamming", "cosine", "hann", "lanczos", "exponential", "tukey", "taylor",
        )
    },
    "kaiser": ((8.6,), 1e-14),
    "gaussian": ((2.5,), 1e-14),
    "general_gaussian": ((1.5, 7.0), 1e-14),
    "general_hamming": ((0.6,), 1e-14),
    "general_cosine": (([1, 1.942604, 1.340318, 0.440811, 0.043097],), 1e-14),
    "chebwin": ((60,), 1e-10),
    "dpss": ((2.5,), 1e-10),
}
LENGTHS = [0, 1, 2, 3, 4, 7, 8, 64, 65, 300, 1000, 1001]


@pytest.mark.parametrize("name", sorted(WINDOWS))
@pytest.mark.parametrize("sym", [True, False])
def test_values_match_scipy(name, sym):
    args, tol = WINDOWS[name]
    for m in LENGTHS:
        if name == "dpss" and (1 < m <= 2 * args[0] or m > 300):
            continue  # (dense eigh is O(M^3): 1000 samples take seconds)
        want = getattr(sw, name)(m, *args, sym=sym)
        got = getattr(tw, name)(m, *args, sym=sym)
        assert type(got) is np.ndarray and got.dtype == np.float64 and got.shape == want.shape, (name, m)
        np.testing.assert_allclose(got, want, rtol=0, atol=tol, err_msg=f"{name}({m}, sym={sym})")


@pytest.mark.parametrize(
    ("name", "args"),
    [("tukey", (0.0,)), ("tukey", (1.0,)), ("tukey", (0.25,)), ("taylor", (6, 45, False)), ("exponential", (None, 3.0)),
     ("kaiser", (0.0,)), ("kaiser", (40.0,)), ("chebwin", (-90,)), ("general_gaussian", (0.5, 3.0))],
)
def test_parameters_match_scipy(name, args):
    for m in (5, 6, 33):
        np.testing.assert_allclose(getattr(tw, name)(m, *args), getattr(sw, name)(m, *args), rtol=0, atol=1e-13)


def test_kaiser_bessel_derived():
    for m in (0, 2, 8, 100):
        np.testing.assert_allclose(tw.kaiser_bessel_derived(m, 4.0), sw.kaiser_bessel_derived(m, 4.0), atol=1e-14)
    assert tw.kaiser_bessel_derived(-3, 4.0).shape == (0,)
    with pytest.raises(ValueError, match="only defined for symmetric"):
        tw.kaiser_bessel_derived(8, 4.0, sym=False)
    with pytest.raises(ValueError, match="even number of points"):
        tw.kaiser_bessel_derived(7, 4.0)


def test_exponential_center():
    np.testing.assert_allclose(tw.exponential(9, 0, 2.0, False), sw.exponential(9, 0, 2.0, False), atol=1e-15)
    with pytest.raises(ValueError, match="If sym==True, center must be None."):
        tw.exponential(9, 0)


def test_chebwin_warns_below_45_db():
    with pytest.warns(UserWarning, match="not suitable for spectral analysis"):
        got = tw.chebwin(9, 30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(got, sw.chebwin(9, 30), atol=1e-12)


@pytest.mark.parametrize("kmax", [1, 3])
@pytest.mark.parametrize("norm", [None, 2, "approximate", "subsample"])
@pytest.mark.parametrize("m", [16, 17])
def test_dpss_tapers_norms_and_ratios(kmax, norm, m):
    want, want_r = sw.dpss(m, 3.0, Kmax=kmax, norm=norm, return_ratios=True)
    got, got_r = tw.dpss(m, 3.0, Kmax=kmax, norm=norm, return_ratios=True)
    assert got.shape == want.shape and got_r.shape == want_r.shape
    np.testing.assert_allclose(got, want, atol=1e-10)
    np.testing.assert_allclose(got_r, want_r, atol=1e-10)


def test_dpss_singleton_and_edges():
    w, r = tw.dpss(32, 2.5, return_ratios=True)
    want_w, want_r = sw.dpss(32, 2.5, return_ratios=True)
    assert w.shape == (32,) and np.ndim(r) == 0
    np.testing.assert_allclose(w, want_w, atol=1e-10)
    np.testing.assert_allclose(r, want_r, atol=1e-10)
    assert tw.dpss(1, 2.0, return_ratios=True)[1] == 1.0
    assert tw.dpss(1, 2.0, Kmax=3).shape == (1,)
    with pytest.raises(ValueError, match="norm must be one of"):
        tw.dpss(8, 2.0, norm="l1")
    with pytest.raises(ValueError, match="Kmax must be greater than 0"):
        tw.dpss(8, 2.0, Kmax=9)
    with pytest.raises(ValueError, match="NW must be less than M/2."):
        tw.dpss(8, 4.0)
    with pytest.raises(ValueError, match="NW must be positive"):
        tw.dpss(8, -1.0)


@pytest.mark.parametrize("m", [-1, 2.5, -0.5])
def test_bad_lengths_raise_scipys_value_error(m):
    with pytest.raises(ValueError, match="Window length M must be a non-negative integer"):
        tw.hann(m)
    with pytest.raises(ValueError, match="Window length M must be a non-negative integer"):
        sw.hann(m)


def test_integral_float_length_is_a_type_error_as_in_scipy():
    with pytest.raises(TypeError):
        sw.hann(5.0)
    with pytest.raises(TypeError):
        tw.hann(5.0)
    with pytest.raises(TypeError):
        tw.hann("5")
    np.testing.assert_array_equal(tw.hann(np.int64(5)), sw.hann(5))


def test_namespaces_and_devices():
    w = tw.hann(8, xp=torch)
    assert isinstance(w, torch.Tensor) and w.dtype == torch.float64
    np.testing.assert_allclose(w.numpy(), sw.hann(8), atol=1e-15)
    assert tw.kaiser(8, 3.0, xp=torch, device="cpu").device.type == "cpu"
    assert tw.hann(8, xp=np).dtype == np.float64
    assert tw.hann(8, device="cpu").dtype == np.float64
    with pytest.raises(ValueError, match="Unsupported device for NumPy"):
        tw.hann(8, device="cuda")
    import jax
    import jax.numpy as jnp

    j = tw.tukey(8, xp=jnp)
    assert isinstance(j, jax.Array) and str(j.dtype) == "float64"  # the tests enable x64
    r = tw.dpss(8, 2.0, Kmax=2, xp=torch, return_ratios=True)
    assert all(isinstance(x, torch.Tensor) for x in r) and r[0].shape == (2, 8)
    try:
        import array_api_strict as xps
    except ImportError:
        return
    s = tw.blackman(9, xp=xps)
    assert isinstance(s, library_type("array_api_strict")) and s.dtype == xps.float64
    np.testing.assert_allclose(to_numpy(s), sw.blackman(9), atol=1e-15)


def test_general_cosine_follows_its_coefficients():
    a = [0.5, 0.5]
    got = tw.general_cosine(9, torch.tensor(a))
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float64
    np.testing.assert_allclose(got.numpy(), sw.general_cosine(9, np.array(a)), atol=1e-15)
    assert type(tw.general_cosine(9, (0.5, 0.5))) is np.ndarray
    with pytest.raises(ValueError, match="1-D"):
        tw.general_cosine(9, np.ones((2, 2)))


NAMED = [
    "barthann", "brthan", "bth", "bartlett", "bart", "brt", "blackman", "black", "blk", "blackmanharris",
    "blackharr", "bkh", "bohman", "bman", "bmn", "boxcar", "box", "ones", "rect", "rectangular", "cosine",
    "halfcosine", "exponential", "poisson", "flattop", "flat", "flt", "hamming", "hamm", "ham", "hann", "han",
    "lanczos", "sinc", "nuttall", "nutl", "nut", "parzen", "parz", "par", "taylor", "taylorwin", "triangle",
    "triang", "tri", "tukey", "tuk", "hann_periodic", "hamming_symmetric",
]
TUPLES = [
    ("kaiser", 8.6), ("ksr", 2.0), ("chebwin", 80), ("cheb", 50), ("dpss", 3.0), ("gaussian", 3.0), ("gss", 1.0),
    ("general_gaussian", 1.5, 4.0), ("ggs", 2, 3), ("general gauss", 1.0, 2.0), ("general_hamming", 0.7),
    ("general hamming", 0.6), ("kaiser_bessel_derived", 4.0), ("kbd", 3.0), ("exponential", None, 2.0),
    ("poisson", 3.0, 1.5), ("taylor", 5, 40, False), ("tukey", 0.7), ("general_cosine", [1, 0.5, 0.2]),
    ("kaiser_symmetric", 5.0),
]


@pytest.mark.parametrize("fftbins", [True, False])
def test_get_window_takes_every_name_and_tuple_scipy_takes(fftbins):
    for window in NAMED + TUPLES:
        for nx in (1, 8, 9):
            try:
                want = ss.get_window(window, nx, fftbins=fftbins)
            except ValueError as error:  # kbd: symmetric and even only
                with pytest.raises(ValueError, match=str(error)[:20]):
                    ts.get_window(window, nx, fftbins=fftbins)
                continue
            got = ts.get_window(window, nx, fftbins=fftbins)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-10, err_msg=f"{window}, {nx}, {fftbins}")
    np.testing.assert_allclose(ts.get_window(7.5, 16), ss.get_window(7.5, 16), atol=1e-14)
    assert tw.get_window("hann", 4, xp=torch).dtype == torch.float64
    assert ts.get_window is not tw.get_window and ts.get_window.__module__ == "torchbridge.signal"
    assert pickle.loads(pickle.dumps(ts.get_window)) is ts.get_window


@pytest.mark.parametrize(
    ("window", "nx", "kwargs", "error", "message"),
    [
        ("hann", 0, {}, ValueError, "Parameter Nx=0 is not a positive integer"),
        ("hann", 4.0, {}, ValueError, "Parameter Nx=4.0 is not a positive integer"),
        ("hann", 4, {"fftbins": 1}, ValueError, "Parameter fftbins=1 is not of type bool!"),
        ("hann", 4, {"fftbins": None}, ValueError, "is not of type bool!"),
        ([1, 2], 4, {}, ValueError, "must be a tuple, a string or a float!"),
        ((3, 2), 4, {}, ValueError, "First tuple entry of parameter window=(3, 2) is not a str!"),
        ("hanning", 4, {}, ValueError, "Invalid window name 'hanning'"),
        (("hann", 3), 4, {}, ValueError, "'hann' does not allow parameters"),
        ("kaiser", 4, {}, ValueError, "'kaiser' must have parameters"),
        (("dpss", 1, 2), 4, {}, ValueError, "Window dpss must have one parameter"),
        (("general_cosine", [1, 1]), 4, {"xp": torch}, ValueError, "'general_cosine' does not accept"),
    ],
)
def test_get_window_refusals_are_scipys(window, nx, kwargs, error, message):
    with pytest.raises(error, match=_literal(message)):
        ts.get_window(window, nx, **kwargs)
    with pytest.raises(error, match=_literal(message)):
        ss.get_window(window, nx, **kwargs)


def _literal(text: str) -> str:
    import re

    return re.escape(text)


def test_windows_are_fresh_arrays():
    a = tw.hann(16)
    a[:] = 5
    assert tw.hann(16)[0] == 0.0


def test_large_m():
    m = 1_000_001
    for name in ("hann", "kaiser", "taylor"):
        args = (14.0,) if name == "kaiser" else ()
        np.testing.assert_allclose(getattr(tw, name)(m, *args), getattr(sw, name)(m, *args), rtol=0, atol=1e-12)
