"""torchbridge.fft as SciPy's fft backend (python/torchbridge/fft/_backend.py):
SciPy's own calls under ``scipy.fft.set_backend(torchbridge.fft, only=True)``
against SciPy without it (pyFFTW's approach), SciPy routines built on
scipy.fft routed through it, declining (``NotImplemented``), the cost model,
``set_workers``/``get_workers``; and ``fht``/``ifht``/``fhtoffset``
(python/torchbridge/fft/_fftlog.py) against SciPy.

The served calls are counted at ``_backend._routine`` (the torchbridge
routine a call goes to), so a test that expects torchbridge to compute fails
when SciPy computed instead.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
import scipy.fft as sf
import scipy.linalg
import scipy.signal
import torch
from scipy._lib.uarray import BackendNotImplementedError

import torchbridge.fft as tf
from torchbridge.fft import _backend

from .cases import F32_TOL, F64_TOL, assert_close, input_for

ALWAYS = {"single": (0, None), "rows": (0, None)}

#: fht/ifht against SciPy, relative to the largest |value|. SciPy's own
#: coefficients are off by up to 2.9e-12 (relative, in the element whose
#: phase is near pi/2) from a 40-digit mpmath reference at dln=0.3, and
#: torchbridge's by 1.6e-12: the phase is a sum of log-gamma imaginary parts
#: of size up to about 10, rounded at 1e-15 each.
FHT_TOL = 1e-11


@pytest.fixture
def counted(monkeypatch):
    """The served names under the measured cost model."""
    calls: list[str] = []
    routine = _backend._routine

    def counting(name):
        calls.append(name)
        return routine(name)

    monkeypatch.setattr(_backend, "_routine", counting)
    return calls


@pytest.fixture
def served(monkeypatch, counted):
    """Every transform served (the cost model off); yields the list of served names."""
    for kind in _backend.CROSSOVER:
        monkeypatch.setitem(_backend.CROSSOVER, kind, dict(ALWAYS))
    return counted


def dispatchable_names() -> set[str]:
    return {name for name in dir(sf) if type(getattr(sf, name)).__name__ == "_Function"}


def test_protocol_and_the_28_functions():
    assert tf.__ua_domain__ == "numpy.scipy.fft"
    assert tf.__ua_function__ is _backend.__ua_function__ and tf.__ua_convert__ is _backend.__ua_convert__
    names = dispatchable_names()
    assert len(names) == 28
    assert names == set(_backend._SIGNATURES)
    for name in names:
        assert callable(getattr(tf, name)), name  # fht/ifht are torchbridge.fft's too
    with sf.set_backend(tf):
        pass
    assert {"fht", "ifht", "fhtoffset", "set_workers", "get_workers"} <= set(tf.__all__)


BASIC_1D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
BASIC_ND = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn",
            "hfftn", "ihfftn"]
R2R_1D = ["dct", "idct", "dst", "idst"]
R2R_ND = ["dctn", "idctn", "dstn", "idstn"]


def under_backend(name, *args, **kwargs):
    with sf.set_backend(tf, only=True):
        return getattr(sf, name)(*args, **kwargs)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", BASIC_1D)
def test_1d_transforms_equal_scipy(name, dtype, served, rng):
    tol = F64_TOL if dtype == np.float64 else F32_TOL
    x = input_for(name, rng, (3, 20), dtype)
    for kwargs in [{}, dict(n=7), dict(n=33, axis=0), dict(norm="ortho"), dict(norm="forward", axis=-1),
                   dict(workers=1), dict(overwrite_x=True)]:
        assert_close(under_backend(name, x, **kwargs), getattr(sf, name)(x, **kwargs), tol)
    assert_close(under_backend(name, x, 9, 0, "ortho"), getattr(sf, name)(x, 9, 0, "ortho"), tol)
    assert served.count(name) == 8


@pytest.mark.parametrize("name", BASIC_ND)
def test_nd_transforms_equal_scipy(name, served, rng):
    x = input_for(name, rng, (4, 5, 6))
    for kwargs in [{}, dict(axes=(0, 2)), dict(s=(3, 8), axes=(1, 2)), dict(norm="ortho"), dict(workers=-1)]:
        assert_close(under_backend(name, x, **kwargs), getattr(sf, name)(x, **kwargs))
    assert served.count(name) == 5


@pytest.mark.parametrize("name", R2R_1D + R2R_ND)
def test_real_transforms_equal_scipy(name, served, rng):
    x = rng.standard_normal((6, 7))
    count = 0
    for type_ in (1, 2, 3, 4):
        for norm in (None, "ortho", "forward"):
            kwargs = dict(type=type_, norm=norm)
            if name in R2R_1D:
                kwargs["axis"] = 0 if type_ % 2 else -1
            assert_close(under_backend(name, x, **kwargs), getattr(sf, name)(x, **kwargs))
            count += 1
    assert_close(under_backend(name, x, 2, None, 0 if name in R2R_1D else None, orthogonalize=False),
                 getattr(sf, name)(x, 2, None, 0 if name in R2R_1D else None, orthogonalize=False))
    assert_close(under_backend(name, x.astype(np.float32)), getattr(sf, name)(x.astype(np.float32)), F32_TOL)
    assert served.count(name) == count + 2


@pytest.mark.parametrize("name", ["fht", "ifht"])
def test_fht_under_backend_equals_scipy(name, served, rng):
    a = rng.standard_normal((2, 64))
    for mu, offset, bias in [(0.0, 0.0, 0.0), (0.5, 0.1, 0.0), (-1.5, 0.0, 0.7), (2.0, -0.3, -0.4)]:
        got = under_backend(name, a, 0.05, mu, offset=offset, bias=bias)
        want = getattr(sf, name)(a, 0.05, mu, offset=offset, bias=bias)
        assert_close(got, want, FHT_TOL)
    assert served.count(name) == 4


def test_lists_and_integers_give_numpy(served):
    got = under_backend("fft", [1, 2, 3, 4])
    assert_close(got, sf.fft([1, 2, 3, 4]))
    got = under_backend("dct", (1, 2, 3))
    assert_close(got, sf.dct((1, 2, 3)))
    got = under_backend("rfft", np.arange(10, dtype=np.int16))
    assert_close(got, sf.rfft(np.arange(10, dtype=np.int16)))
    assert served == ["fft", "dct", "rfft"]


def test_empty_axes_and_errors_as_scipy(served, rng):
    x = rng.standard_normal((3, 4))
    assert under_backend("fftn", x, axes=()) is sf.fftn(x, axes=())
    with pytest.raises(ValueError):
        under_backend("fft", x, n=0)
    with pytest.raises(ValueError):
        sf.fft(x, n=0)
    with pytest.raises(ValueError, match="workers"):
        under_backend("fft", x, workers=0)
    with pytest.raises(TypeError):
        under_backend("rfft", x + 1j)


# ---------------------------------------------------------------- declining


def test_plan_is_declined(served, rng):
    x = rng.standard_normal(32)
    with pytest.raises(BackendNotImplementedError), sf.set_backend(tf, only=True):
        sf.fft(x, plan=object())
    with sf.set_backend(tf):  # SciPy's backend next: it refuses plans itself
        with pytest.raises(NotImplementedError):
            sf.fft(x, plan=object())
    assert served == []


@pytest.mark.parametrize(
    "make",
    [
        lambda x: torch.from_numpy(x),
        lambda x: np.ma.masked_array(x, mask=x > 1),
        lambda x: x.astype(np.longdouble),
        lambda x: x.astype(object),
    ],
    ids=["torch", "masked", "longdouble", "object"],
)
def test_inputs_it_cannot_import_fall_back_to_scipy(make, served, rng):
    x = make(rng.standard_normal(16))
    with sf.set_backend(tf):
        got = sf.fft(x)
    want = sf.fft(x)
    assert type(got) is type(want) and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    with pytest.raises(BackendNotImplementedError), sf.set_backend(tf, only=True):
        sf.fft(x)
    assert served == []


def test_the_measured_cost_model_declines_small_transforms(counted, rng):
    x = rng.standard_normal(64) + 0j
    with sf.set_backend(tf):
        assert_close(sf.fft(x), np.fft.fft(x))
    with pytest.raises(BackendNotImplementedError), sf.set_backend(tf, only=True):
        sf.fft(x)
    assert counted == []
    first, end = _backend.CROSSOVER["c2c"]["rows"]
    big = rng.standard_normal((first // 256, 256)) + 0j
    assert_close(under_backend("fft", big), sf.fft(big))
    assert counted == ["fft"]
    for kind, regimes in _backend.CROSSOVER.items():
        assert set(regimes) == {"single", "rows"}, kind
        for band in regimes.values():
            assert band is None or (band[0] > 0 and (band[1] is None or band[1] > band[0]))


def test_cost_model_bands(monkeypatch, counted, rng):
    monkeypatch.setitem(_backend.CROSSOVER, "c2c", {"single": (1000, 5000), "rows": None})
    for size, served in [(999, False), (1000, True), (4999, True), (5000, False)]:
        x = rng.standard_normal(size) + 0j
        with sf.set_backend(tf):
            assert_close(sf.fft(x), np.fft.fft(x))
        assert (counted[-1:] == ["fft"]) == served, size
        counted.clear()
    assert _backend._FLOOR == 1000  # assigning an entry keeps the fast decline's floor current
    with sf.set_backend(tf):
        sf.fft(rng.standard_normal(1200) + 0j, n=4000)  # padded to 4000: served
        sf.fft(rng.standard_normal(1200) + 0j, n=6000)  # padded past the band: declined
        sf.fft(rng.standard_normal(600) + 0j, n=2000)  # an array below every band: declined, whatever n
        sf.fft(rng.standard_normal((16, 100)) + 0j)  # 16 rows: the "rows" regime, None
        sf.fft(rng.standard_normal((4, 2000)) + 0j)  # 4 transforms of 2000: "single" on 2000
    assert counted == ["fft", "fft"]
    assert sf.fft(np.ones(3)).shape == (3,)


# ---------------------------------------------------------------- SciPy's routines through the backend


@pytest.mark.parametrize(
    "name, call",
    [
        ("fftconvolve", lambda rng: scipy.signal.fftconvolve(rng.standard_normal((3, 500)),
                                                             rng.standard_normal((1, 70)), axes=-1)),
        ("oaconvolve", lambda rng: scipy.signal.oaconvolve(rng.standard_normal(3000), rng.standard_normal(40))),
        ("welch", lambda rng: scipy.signal.welch(rng.standard_normal(5000), nperseg=256)[1]),
        ("hilbert", lambda rng: scipy.signal.hilbert(rng.standard_normal((2, 301)))),
        ("matmul_toeplitz", lambda rng: scipy.linalg.matmul_toeplitz(
            (rng.standard_normal(40), rng.standard_normal(40)), rng.standard_normal((40, 3)))),
        ("resample", lambda rng: scipy.signal.resample(rng.standard_normal(200), 150)),
    ],
)
def test_scipy_routines_run_through_it(name, call, served):
    want = call(np.random.default_rng(7))
    assert served == []
    with sf.set_backend(tf, only=True):
        got = call(np.random.default_rng(7))
    assert len(served) > 0, name
    assert type(got) is type(want) and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12 * np.abs(want).max())


def test_global_backend_with_the_measured_cost_model(counted, rng):
    """Set globally with SciPy behind it: every call works, small ones stay SciPy's."""
    x = rng.standard_normal(5000)
    want = scipy.signal.welch(x, nperseg=256)[1]
    sf.set_global_backend(tf)
    try:
        sf.register_backend("scipy")
        got = scipy.signal.welch(x, nperseg=256)[1]
        small = sf.fft(np.arange(8.0))
    finally:
        sf.set_global_backend("scipy")
    np.testing.assert_allclose(got, want, rtol=1e-10)
    assert_close(small, sf.fft(np.arange(8.0)))


# ---------------------------------------------------------------- workers


def test_set_workers_sets_and_restores_threads():
    before = torch.get_num_threads()
    assert tf.get_workers() == 1  # SciPy's default
    with tf.set_workers(1):
        assert tf.get_workers() == 1
        assert torch.get_num_threads() == 1
        with tf.set_workers(-1):
            assert tf.get_workers() == os.cpu_count()
            assert torch.get_num_threads() == os.cpu_count()
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with pytest.raises(RuntimeError), tf.set_workers(1):
        raise RuntimeError("inside")
    assert torch.get_num_threads() == before
    assert tf.get_workers() == 1
    for bad in (0, -(os.cpu_count() or 1) - 1):
        with pytest.raises(ValueError), tf.set_workers(bad):
            pass
    assert torch.get_num_threads() == before


def test_workers_argument_runs_on_that_many_threads(monkeypatch, served, rng):
    seen = []
    routine = _backend._routine

    def recording(name):
        inner = routine(name)

        def call(*args, **kwargs):
            seen.append(torch.get_num_threads())
            return inner(*args, **kwargs)

        return call

    monkeypatch.setattr(_backend, "_routine", recording)
    before = torch.get_num_threads()
    x = rng.standard_normal(64)
    cpus = os.cpu_count() or 1
    under_backend("rfft", x)
    under_backend("rfft", x, workers=-1)
    under_backend("rfft", x, None, -1, None, False, 1)
    with tf.set_workers(-1):
        under_backend("rfft", x)
    assert seen == [1, cpus, 1, cpus]
    assert torch.get_num_threads() == before


# ---------------------------------------------------------------- fht, ifht, fhtoffset


FHT_CASES = [
    (n, dln, mu, offset, bias)
    for n in (1, 2, 7, 64, 101)
    for dln in (0.05, 0.3)
    for mu, offset, bias in [(0.0, 0.0, 0.0), (0.5, 0.2, 0.0), (-0.5, 0.0, 0.3), (2.0, -0.1, -0.7),
                             (3.7, 0.0, 1.0), (-20.5, 0.2, -1.0)]
]


@pytest.mark.parametrize("name", ["fht", "ifht"])
def test_fht_equals_scipy(name, rng):
    worst = 0.0
    for n, dln, mu, offset, bias in FHT_CASES:
        a = rng.standard_normal((3, n))
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            want = getattr(sf, name)(a, dln, mu, offset=offset, bias=bias)
        with warnings.catch_warnings(record=True) as ours:
            warnings.simplefilter("always")
            got = getattr(tf, name)(a, dln, mu, offset=offset, bias=bias)
        assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]
        assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
        scale = np.abs(want).max()
        err = np.abs(got - want).max() / scale
        assert err <= FHT_TOL, (n, dln, mu, offset, bias, err)
        worst = max(worst, err)
    assert worst < FHT_TOL


def test_fht_inverts_and_takes_float32_and_torch(rng):
    a = rng.standard_normal(128)
    back = tf.ifht(tf.fht(a, 0.1, 1.5, offset=0.05, bias=0.2), 0.1, 1.5, offset=0.05, bias=0.2)
    np.testing.assert_allclose(back, a, rtol=1e-10, atol=1e-12)
    a32 = a.astype(np.float32)
    got, want = tf.fht(a32, 0.1, 0.0), sf.fht(a32, 0.1, 0.0)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(got, want, atol=1e-5 * np.abs(want).max())
    t = tf.fht(torch.from_numpy(a), 0.1, 0.0)
    assert isinstance(t, torch.Tensor) and t.dtype == torch.float64
    np.testing.assert_allclose(t.numpy(), sf.fht(a, 0.1, 0.0), atol=FHT_TOL * np.abs(t.numpy()).max())


@pytest.mark.parametrize("mu, bias, name, message", [
    (0.0, -1.0, "fht", "singular transform"),  # (mu+1+bias)/2 = 0: a pole of Gamma, u0 infinite
    (0.0, 1.0, "ifht", "singular inverse transform"),  # (mu+1-bias)/2 = 0: u0 = 0
    (-1.0, 0.0, "fht", None),  # both at the pole: u0 = poch(0, 0) = 1
    (-3.0, 0.0, "ifht", None),  # both at -1: u0 finite from poch
])
def test_fht_singular_coefficients_as_scipy(mu, bias, name, message, rng):
    a = rng.standard_normal(32)
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        want = getattr(sf, name)(a, 0.1, mu, bias=bias)
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        got = getattr(tf, name)(a, 0.1, mu, bias=bias)
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]
    if message:
        assert any(message in str(w.message) for w in ours)
    else:
        assert ours == []
    assert np.isfinite(want).all()
    np.testing.assert_allclose(got, want, rtol=0, atol=FHT_TOL * np.abs(want).max())


def test_fht_refuses_what_scipy_refuses():
    with pytest.raises(TypeError):
        tf.fht(np.ones(4) + 1j, 0.1, 0.0)
    with pytest.raises(TypeError):
        sf.fht(np.ones(4) + 1j, 0.1, 0.0)


@pytest.mark.parametrize("dln, mu, initial, bias", [
    (0.1, 2.0, 0.5, 0.0), (0.05, -1.5, 0.0, 0.7), (0.3, 0.0, -3.0, 1.0), (0.01, 10.5, 2.0, -0.3),
])
def test_fhtoffset_equals_scipy(dln, mu, initial, bias):
    got = tf.fhtoffset(dln, mu, initial=initial, bias=bias)
    assert isinstance(got, float)
    assert got == pytest.approx(sf.fhtoffset(dln, mu, initial=initial, bias=bias), rel=1e-12, abs=1e-13)
