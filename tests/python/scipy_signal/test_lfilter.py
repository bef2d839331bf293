"""The linear filters (SciPy's ``_signaltools.py``; src/ops/signal/signaltools/lfilter.rs):
lfilter, lfilter_zi, lfiltic, sosfilt, sosfilt_zi, filtfilt, sosfiltfilt, against scipy.signal."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.signal as ss
import torch
from conftest import LIBRARIES, library_type, to_library, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

from torchbridge import signal as ts


def rel(ours, ref) -> float:
    """max |ours - ref| relative to max |ref| (the brief's measure)."""
    ours, ref = to_numpy(ours), np.asarray(ref)
    assert ours.shape == ref.shape
    scale = max(np.abs(ref).max(initial=0.0), 1e-300)
    return float(np.abs(ours - ref).max(initial=0.0) / scale)


BA = {
    "butter4": ss.butter(4, 0.1),
    "cheby1_6": ss.cheby1(6, 1, 0.3),
    "highpass3": ss.butter(3, 0.4, btype="high"),
    "fir": (np.array([0.25, 0.5, 0.25]), np.array([1.0])),
    "a0_not_1": (np.array([2.0, 1.0]), np.array([4.0, -1.0, 0.5])),
}
#: sosfiltfilt's tolerance vs SciPy: 1e-12, looser where SciPy's own float64 steady
#: state (``lfilter_zi`` by ``linalg.solve`` on ``I - A``, condition ~ 1/(1-r)^2) differs
#: from the double-double one torchbridge computes.
SOSFILTFILT_TOL = {"butter2_slow": 5e-12, "poles_0999": 5e-12}
SOS = {
    "butter8": ss.butter(8, 0.05, output="sos"),
    "cheby1_8": ss.cheby1(8, 1, 0.05, output="sos"),
    "butter2_slow": ss.butter(2, 0.002, output="sos"),  # poles at radius 0.9956
    "poles_0999": ss.zpk2sos([-1, -1, -1, -1], [0.999 * np.exp(1j * t) for t in (0.01, -0.01, 0.03, -0.03)], 1),
    "butter5_odd": ss.butter(5, 0.2, output="sos"),
}


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", sorted(BA))
@pytest.mark.parametrize("n", [0, 1, 2, 31, 32, 33, 100, 1001])
def test_lfilter_matches_scipy(lib, name, n, rng):
    b, a = BA[name]
    x = rng.standard_normal(n)
    y = ts.lfilter(to_library(lib, b), to_library(lib, a), to_library(lib, x))
    assert isinstance(y, library_type(lib))
    if n == 0 and len(a) == 1:  # SciPy's FIR path raises numpy.convolve's "v cannot be empty"
        assert to_numpy(y).shape == (0,)
        return
    assert rel(y, ss.lfilter(b, a, x)) < 1e-12


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_lfilter_zi_zf_axis_and_shapes(lib, axis, rng):
    b, a = BA["cheby1_6"]
    x = rng.standard_normal((5, 70, 3))
    zshape = list(x.shape)
    zshape[axis] = 6
    zi = rng.standard_normal(zshape)
    y, zf = ts.lfilter(to_library(lib, b), to_library(lib, a), to_library(lib, x), axis=axis, zi=to_library(lib, zi))
    ry, rzf = ss.lfilter(b, a, x, axis=axis, zi=zi)
    assert to_numpy(zf).shape == rzf.shape == tuple(zshape)
    assert rel(y, ry) < 1e-12 and rel(zf, rzf) < 1e-12


def test_lfilter_zi_broadcasts_singleton_dims_and_short_signals(rng):
    b, a = BA["butter4"]
    x = rng.standard_normal((3, 2))  # shorter than the state along axis 0
    zi = rng.standard_normal((4, 1))
    y, zf = ts.lfilter(b, a, x, axis=0, zi=zi)
    ry, rzf = ss.lfilter(b, a, x, axis=0, zi=zi)
    assert rel(y, ry) < 1e-13 and rel(zf, rzf) < 1e-13


def test_zi_is_an_extra_input(rng):
    """lfilter(b, a, x, zi) == the all-pole filter 1/a on (b * x + zi padded with zeros)."""
    b, a = BA["butter4"]
    x, zi = rng.standard_normal(200), rng.standard_normal(4)
    v = ss.lfilter(b, [1.0], x)
    v[:4] += zi
    assert rel(ts.lfilter(b, a, x, zi=zi)[0], ts.lfilter([1.0], a, v)) < 1e-12


@pytest.mark.parametrize("name", sorted(SOS))
@pytest.mark.parametrize("n", [1, 5, 64, 999])
def test_sosfilt_matches_scipy_with_and_without_zi(name, n, rng):
    sos = SOS[name]
    x = rng.standard_normal((2, n))
    assert rel(ts.sosfilt(sos, x), ss.sosfilt(sos, x)) < 1e-12
    zi = rng.standard_normal((len(sos), 2, 2))
    y, zf = ts.sosfilt(sos, x, zi=zi)
    ry, rzf = ss.sosfilt(sos, x, zi=zi)
    assert to_numpy(zf).shape == rzf.shape
    assert rel(y, ry) < 1e-12 and rel(zf, rzf) < 1e-12


def test_sosfilt_zi_layout_along_axis_0(rng):
    sos = SOS["butter5_odd"]
    x = rng.standard_normal((50, 4))
    zi = rng.standard_normal((3, 2, 4))
    y, zf = ts.sosfilt(sos, x, axis=0, zi=zi)
    ry, rzf = ss.sosfilt(sos, x, axis=0, zi=zi)
    assert rel(y, ry) < 1e-12 and rel(zf, rzf) < 1e-12


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
@pytest.mark.parametrize("name", sorted(SOS))
def test_sosfiltfilt_within_1e12_edges_included(lib, padtype, name, rng):
    sos = SOS[name]
    x = rng.standard_normal(3000)
    ours = ts.sosfiltfilt(to_library(lib, sos), to_library(lib, x), padtype=padtype)
    assert isinstance(ours, library_type(lib))
    ref = ss.sosfiltfilt(sos, x, padtype=padtype)
    tol = SOSFILTFILT_TOL.get(name, 1e-12)
    assert rel(ours, ref) < tol
    assert np.abs(to_numpy(ours)[:50] - ref[:50]).max() / np.abs(ref).max() < tol


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
@pytest.mark.parametrize("name", sorted(BA))
@pytest.mark.parametrize("padlen", [None, 0, 7])
def test_filtfilt_within_1e12(padtype, name, padlen, rng):
    b, a = BA[name]
    x = rng.standard_normal((2, 400))
    assert (
        rel(ts.filtfilt(b, a, x, padtype=padtype, padlen=padlen), ss.filtfilt(b, a, x, padtype=padtype, padlen=padlen))
        < 1e-12
    )


def test_filtfilt_order8_butter_and_axis(rng):
    b, a = ss.butter(8, 0.3)
    x = rng.standard_normal((600, 3))
    assert rel(ts.filtfilt(b, a, x, axis=0), ss.filtfilt(b, a, x, axis=0)) < 1e-12


def test_error_does_not_grow_along_a_long_signal(rng):
    sos = SOS["poles_0999"]
    x = rng.standard_normal(10**6)
    ours, ref = to_numpy(ts.sosfilt(sos, x)), ss.sosfilt(sos, x)
    scale = np.abs(ref).max()
    head = np.abs(ours[: 10**5] - ref[: 10**5]).max() / scale
    tail = np.abs(ours[-(10**5) :] - ref[-(10**5) :]).max() / scale
    assert tail < 1e-11 and tail < 20 * max(head, 1e-14)
    b, a = BA["butter4"]
    ours, ref = to_numpy(ts.lfilter(b, a, x)), ss.lfilter(b, a, x)
    assert rel(ours, ref) < 1e-12


def test_initial_condition_helpers():
    for b, a in BA.values():
        assert rel(ts.lfilter_zi(b, a), ss.lfilter_zi(b, a)) < 1e-12
        assert (
            rel(ts.lfiltic(b, a, [1.0, -2.0, 0.5], [0.3, 0.1]), ss.lfiltic(b, a, [1.0, -2.0, 0.5], [0.3, 0.1])) < 1e-13
        )
        assert rel(ts.lfiltic(b, a, [1.0]), ss.lfiltic(b, a, [1.0])) < 1e-13
    for sos in SOS.values():
        assert rel(ts.sosfilt_zi(sos), ss.sosfilt_zi(sos)) < 1e-11
    assert to_numpy(ts.lfiltic([1, 2], [1, 1], [1])).dtype == np.float64


@pytest.mark.parametrize(
    ("xdtype", "cdtype"),
    [
        (np.float32, np.float32),
        (np.float32, np.float64),
        (np.int64, np.float64),
        (np.bool_, np.float32),
        (np.complex64, np.float32),
        (np.complex128, np.float64),
        (np.float64, np.complex128),
    ],
)
def test_result_dtypes_follow_scipy(xdtype, cdtype, rng):
    b, a = (c.astype(cdtype) for c in BA["butter4"])
    x = (
        (rng.standard_normal(100) * 3).astype(xdtype)
        if xdtype != np.complex64
        else (rng.standard_normal(100) + 1j).astype(xdtype)
    )
    ref = ss.lfilter(b, a, x)
    ours = to_numpy(ts.lfilter(b, a, x))
    assert ours.dtype == ref.dtype
    tol = 1e-4 if ref.dtype in (np.float32, np.complex64) else 1e-12
    assert rel(ours, ref) < tol
    sos = SOS["butter8"].astype(cdtype)
    assert to_numpy(ts.sosfilt(sos, x)).dtype == ss.sosfilt(sos, x).dtype
    assert to_numpy(ts.filtfilt(b, a, x)).dtype == ss.filtfilt(b, a, x).dtype
    assert to_numpy(ts.sosfiltfilt(sos, x)).dtype == ss.sosfiltfilt(sos, x).dtype


def test_nan_inf_and_signed_zero_propagate_as_in_scipy():
    b, a = BA["butter4"]
    x = np.array([0.0, -0.0, 1.0, np.nan, 2.0, 3.0])
    np.testing.assert_array_equal(np.isnan(to_numpy(ts.lfilter(b, a, x))), np.isnan(ss.lfilter(b, a, x)))
    assert np.all(
        np.isnan(to_numpy(ts.lfilter(b, a, np.array([np.inf, 1.0])))[1:])
        | np.isinf(to_numpy(ts.lfilter(b, a, np.array([np.inf, 1.0])))[1:])
    )
    assert np.all(to_numpy(ts.lfilter(b, a, np.zeros(40))) == 0)
    fir = to_numpy(ts.lfilter([1.0, 1.0], [1.0], x))
    np.testing.assert_array_equal(np.isnan(fir), np.isnan(ss.lfilter([1.0, 1.0], [1.0], x)))
    y, zf = ts.lfilter(b, a, np.ones(5), zi=np.array([np.nan, 0, 0, 0]))
    assert np.all(np.isnan(to_numpy(y))) and np.all(np.isnan(to_numpy(zf)))


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: ts.lfilter([1.0, 2.0], [0.0, 1.0], [1.0, 2.0]), ValueError, "a\\[0\\] == 0"),
        (lambda: ts.lfilter([], [1.0], [1.0]), ValueError, "Parameter b is not a non-empty 1d array"),
        (lambda: ts.lfilter([[1.0]], [1.0], [1.0]), ValueError, "Parameter b is not a non-empty 1d array"),
        (lambda: ts.lfilter([1.0], [1.0, 2.0], 5.0), ValueError, "at least 1-D"),
        (lambda: ts.lfilter([1.0], [1.0, 2.0], [1.0], axis=2), ValueError, "axis is out of range"),
        (
            lambda: ts.lfilter([1.0, 2.0], [1.0, 2.0], [1.0, 2.0], zi=[1.0, 2.0, 3.0]),
            ValueError,
            "Unexpected shape for zi",
        ),
        (lambda: ts.lfilter([1, 2], [2, 1], np.ones(4, int)), NotImplementedError, "int64"),
        (
            lambda: ts.lfilter(np.ones(2, np.float16), np.ones(2, np.float16), np.ones(4, np.float16)),
            NotImplementedError,
            "float16",
        ),
        (lambda: ts.sosfilt(np.ones((2, 5)), np.ones(10)), ValueError, "shape \\(n_sections, 6\\)"),
        (
            lambda: ts.sosfilt(np.array([[1.0, 0, 0, 2, 0, 0]]), np.ones(10)),
            ValueError,
            "sos\\[:, 3\\] should be all ones",
        ),
        (lambda: ts.sosfilt(SOS["butter8"], np.ones(10), zi=np.ones((4, 3))), ValueError, "Invalid zi shape"),
        (lambda: ts.filtfilt(*BA["butter4"], np.ones(10)), ValueError, "greater than padlen, which is 15"),
        (lambda: ts.filtfilt(*BA["butter4"], np.ones(100), padtype="mirror"), ValueError, "Unknown value 'mirror'"),
        (lambda: ts.filtfilt(*BA["butter4"], np.ones(100), method="gust"), NotImplementedError, "gust"),
        (
            lambda: ts.filtfilt(*BA["butter4"], np.ones(100), method="fast"),
            ValueError,
            "method must be 'pad' or 'gust'",
        ),
        (lambda: ts.sosfiltfilt(SOS["butter8"], np.ones(20)), ValueError, "greater than padlen"),
        (lambda: ts.lfilter_zi([1.0], [0.0]), ValueError, "at least one nonzero `a`"),
        (lambda: ts.sosfilt_zi(np.ones(6)), ValueError, "sos must be shape"),
    ],
)
def test_bad_input_raises_clearly(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_scipy_raises_the_same_classes():
    with pytest.raises(ValueError):
        ss.lfilter([1.0, 2.0], [0.0, 1.0], [1.0, 2.0])
    with pytest.raises(NotImplementedError):
        ss.lfilter([1, 2], [2, 1], np.ones(4, int))


@pytest.mark.parametrize("lib", LIBRARIES)
def test_inputs_are_not_modified(lib, rng):
    b, a = BA["butter4"]
    x, zi = rng.standard_normal(100), rng.standard_normal(4)
    args = [to_library(lib, v) for v in (b, a, x, zi)]
    before = [to_numpy(v).copy() for v in args]
    ts.lfilter(*args[:3], zi=args[3])
    ts.filtfilt(*args[:3])
    sos = to_library(lib, SOS["butter8"])
    ts.sosfiltfilt(sos, args[2])
    for v, old in zip(args, before):
        np.testing.assert_array_equal(to_numpy(v), old)
    np.testing.assert_array_equal(to_numpy(sos), SOS["butter8"])


def test_torch_float32_stays_float32_on_its_device():
    b, a = (torch.tensor(c, dtype=torch.float32) for c in BA["butter4"])
    x = torch.randn(3, 500)
    y = ts.lfilter(b, a, x)
    assert y.dtype == torch.float32 and y.device == x.device and y.shape == x.shape
    assert rel(y, ss.lfilter(b.numpy(), a.numpy(), x.numpy())) < 1e-4


@st.composite
def stable_filters(draw):
    """A random real filter with poles inside radius 0.95 and a random shape/axis."""
    npairs = draw(st.integers(0, 3))
    nreal = draw(st.integers(0 if npairs else 1, 2))
    radii = draw(st.lists(st.floats(0.05, 0.95), min_size=npairs + nreal, max_size=npairs + nreal))
    angles = draw(st.lists(st.floats(0.05, 3.0), min_size=npairs, max_size=npairs))
    poles = [r * np.exp(1j * t) for r, t in zip(radii, angles)]
    poles = poles + [np.conj(p) for p in poles] + [(-1) ** i * r for i, r in enumerate(radii[npairs:])]
    a = np.real(np.poly(poles))
    b = np.array(draw(st.lists(st.floats(-2, 2), min_size=1, max_size=len(a) + 1)))
    shape = draw(st.lists(st.integers(1, 40), min_size=1, max_size=3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    return b, a, shape, axis


@settings(max_examples=40, deadline=None)
@given(stable_filters(), st.integers(0, 2**32 - 1))
def test_random_stable_filters_and_shapes(case, seed):
    b, a, shape, axis = case
    x = np.random.default_rng(seed).standard_normal(shape)
    assert rel(ts.lfilter(b, a, x, axis=axis), ss.lfilter(b, a, x, axis=axis)) < 1e-11
    zshape = list(shape)
    zshape[axis] = max(len(a), len(b)) - 1
    zi = np.random.default_rng(seed + 1).standard_normal(zshape)
    y, zf = ts.lfilter(b, a, x, axis=axis, zi=zi)
    ry, rzf = ss.lfilter(b, a, x, axis=axis, zi=zi)
    assert rel(y, ry) < 1e-11 and rel(zf, rzf) < 1e-11


#: Shapes for the CPU kernel: one row; rows in lanes of eight plus a remainder, with
#: a tile tail (257 = 64 tiles of 4 + 1); enough samples for two threads, the second
#: holding a partial lane group.
KERNEL_SHAPES = [(1001,), (11, 257), (21, 20_000)]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", KERNEL_SHAPES)
def test_cpu_kernel_is_scipys_loop_bit_for_bit(shape, dtype, threads, rng):
    """On the CPU the filters run SciPy's own loops in SciPy's operation order: the
    same bits as SciPy for IIR (b, a) filters and every sos filter, zf included."""
    x = rng.standard_normal(shape).astype(dtype)
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for name in ("butter4", "cheby1_6", "a0_not_1"):
            b, a = (c.astype(dtype) for c in BA[name])
            zi = rng.standard_normal((*shape[:-1], max(len(a), len(b)) - 1)).astype(dtype)
            np.testing.assert_array_equal(to_numpy(ts.lfilter(b, a, x)), ss.lfilter(b, a, x))
            y, zf = ts.lfilter(b, a, x, zi=zi)
            ry, rzf = ss.lfilter(b, a, x, zi=zi)
            np.testing.assert_array_equal(to_numpy(y), ry)
            np.testing.assert_array_equal(to_numpy(zf), rzf)
        for name in ("butter8", "poles_0999", "butter5_odd"):
            sos = SOS[name].astype(dtype)
            zi = rng.standard_normal((len(sos), *shape[:-1], 2)).astype(dtype)
            y, zf = ts.sosfilt(sos, x, zi=zi)
            ry, rzf = ss.sosfilt(sos, x, zi=zi)
            np.testing.assert_array_equal(to_numpy(y), ry)
            np.testing.assert_array_equal(to_numpy(zf), rzf)
    finally:
        torch.set_num_threads(before)



def test_baseline_kernels_are_scipys_loop_too():
    """The kernels built for the baseline x86-64 target (what a CPU without AVX2
    runs; TORCHBRIDGE_IIR_BASELINE selects them here) give SciPy's bits as well."""
    script = textwrap.dedent(
        """
        import numpy as np, scipy.signal as ss
        from torchbridge import signal as ts
        rng = np.random.default_rng(5)
        for shape in [(1001,), (11, 257), (21, 20000)]:
            for dtype in (np.float32, np.float64):
                x = rng.standard_normal(shape).astype(dtype)
                b, a = (c.astype(dtype) for c in ss.cheby1(6, 1, 0.3))
                sos = ss.butter(8, 0.05, output="sos").astype(dtype)
                np.testing.assert_array_equal(ts.lfilter(b, a, x), ss.lfilter(b, a, x))
                np.testing.assert_array_equal(ts.sosfilt(sos, x), ss.sosfilt(sos, x))
        print("baseline ok")
        """
    )
    env = {**os.environ, "TORCHBRIDGE_IIR_BASELINE": "1"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "baseline ok" in done.stdout


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(BA))
@pytest.mark.parametrize("shape", [(1,), (2,), (5,), (100,), (3, 40), (2, 1, 17)])
def test_lfilter_small_calls_equal_scipy_bit_for_bit(dtype, name, shape, rng):
    """Small real calls whose arrays are ready (the host path of ``lfilter``): SciPy's
    values exactly, with and without ``zi``, along the last axis."""
    b, a = (np.asarray(c, dtype=dtype) for c in BA[name])
    x = rng.standard_normal(shape).astype(dtype)
    y = ts.lfilter(b, a, x)
    assert y.dtype == np.dtype(dtype) and y.shape == x.shape
    if len(a) > 1:  # (SciPy convolves FIR filters: equal to rounding only)
        np.testing.assert_array_equal(y, ss.lfilter(b, a, x))
    else:
        assert rel(y, ss.lfilter(b, a, x)) < 1e-6
    k = max(len(a), len(b)) - 1
    zi = rng.standard_normal((*shape[:-1], k)).astype(dtype)
    y, zf = ts.lfilter(b, a, x, zi=zi)
    ry, rzf = ss.lfilter(b, a, x, zi=zi)
    assert zf.dtype == np.dtype(dtype) and zf.shape == rzf.shape
    tol = 1e-12 if dtype == "float64" else 1e-5
    assert rel(y, ry) < tol and rel(zf, rzf) < tol
    # the same call through the general path (another axis, a broadcast zi) agrees
    if len(shape) > 1:
        yt = ts.lfilter(b, a, np.moveaxis(x, -1, 0).copy(), axis=0)
        np.testing.assert_array_equal(np.moveaxis(yt, 0, -1), ts.lfilter(b, a, x))


def test_lfilter_small_calls_edge_cases(rng):
    """Inputs the host path leaves to the general one, and its own edge cases."""
    b, a = BA["butter4"]
    x = rng.standard_normal(50)
    ref = ss.lfilter(b, a, x)
    np.testing.assert_array_equal(ts.lfilter(list(b), list(a), list(x)), ref)  # lists: float64 arrays
    x32 = x.astype(np.float32)
    assert rel(ts.lfilter(b, a, x32), ss.lfilter(b, a, x32)) < 1e-12  # mixed dtypes: general path
    assert rel(ts.lfilter(b, a, x[::2]), ss.lfilter(b, a, x[::2])) < 1e-12  # strided x
    xc = x + 1j * rng.standard_normal(50)
    assert rel(ts.lfilter(b, a, xc), ss.lfilter(b, a, xc)) < 1e-12  # complex: general path
    assert ts.lfilter(b, a, np.zeros(0)).shape == (0,)
    assert ts.lfilter(b, a, np.zeros((3, 0))).shape == (3, 0)
    np.testing.assert_array_equal(ts.lfilter([2.0], [4.0], x), ss.lfilter([2.0], [4.0], x))  # a gain
    y, zf = ts.lfilter([3.0], [2.0], x, zi=np.zeros(0))
    ry, rzf = ss.lfilter([3.0], [2.0], x, zi=np.zeros(0))
    np.testing.assert_array_equal(y, ry)
    assert zf.shape == rzf.shape == (0,)
    # a[0] != 1 and negative: normalised as SciPy
    np.testing.assert_array_equal(ts.lfilter(b, -2 * a, x), ss.lfilter(b, -2 * a, x))
    with pytest.raises(ValueError):
        ts.lfilter(b, np.array([0.0, 1.0]), x)
    # non-finite values propagate as in SciPy's loop
    xn = x.copy()
    xn[10] = np.nan
    np.testing.assert_array_equal(ts.lfilter(b, a, xn), ss.lfilter(b, a, xn))
    # torch on the CPU takes it too (and autograd keeps the differentiable scan)
    xt = torch.from_numpy(x)
    np.testing.assert_array_equal(ts.lfilter(torch.from_numpy(b), torch.from_numpy(a), xt).numpy(), ref)
    xg = xt.clone().requires_grad_(True)
    yg = ts.lfilter(torch.from_numpy(b), torch.from_numpy(a), xg)
    assert yg.requires_grad
    assert rel(yg.detach().numpy(), ref) < 1e-12
