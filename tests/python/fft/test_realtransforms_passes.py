"""The one-pass CPU kernels around the FFT of the DCT/DST of types 2 and 3
(csrc/realtransforms.cpp, taken by float32/float64 CPU input that records no
gradient): against SciPy on edge layouts and values, and against the
composite of libtorch ops they replace (which input recording a gradient
still takes), to an ulp (libtorch's vectorized complex product may round
its terms differently from the passes' plain one)."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import scipy.fft as sf
import torch

from torchbridge import fft as tf

from .cases import F32_TOL, F64_TOL, NORMS, R2R, assert_close, signal

LENGTHS = [1, 2, 3, 4, 5, 6, 7, 8, 13, 16, 100, 101]


def _assert_like_composite(ours, composite):
    """Within an ulp of the largest output: the composite's values."""
    assert ours.dtype == composite.dtype and ours.shape == composite.shape
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(composite))
    np.testing.assert_array_equal(np.isinf(ours), np.isinf(composite))
    finite = np.isfinite(composite)
    if finite.any():
        scale = np.abs(composite[finite]).max()
        eps = np.finfo(ours.dtype).eps
        assert np.abs(ours[finite] - composite[finite]).max() <= 2 * eps * scale


def _composite(f, x, *args, **kwargs):
    """The composite path: the same call on input that records a gradient."""
    t = torch.from_numpy(np.ascontiguousarray(x)).requires_grad_(True)
    return f(t, *args, **kwargs).detach().numpy()


@pytest.mark.parametrize("name", R2R)
@pytest.mark.parametrize("type_", [2, 3])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_passes_give_the_composites_values(name, type_, dtype, rng):
    f = getattr(tf, name)
    for m in LENGTHS:
        x = signal(rng, (3, m), dtype=dtype)
        for norm in NORMS:
            for orth in (None, True, False):
                ours = f(x, type_, norm=norm, orthogonalize=orth)
                _assert_like_composite(ours, _composite(f, x, type_, norm=norm, orthogonalize=orth))
                tol = F64_TOL if dtype == np.float64 else F32_TOL
                assert_close(ours, getattr(sf, name)(x, type_, norm=norm, orthogonalize=orth), tol)


@pytest.mark.parametrize("name", R2R)
@pytest.mark.parametrize("type_", [2, 3])
def test_passes_layouts_axes_and_batches(name, type_, rng):
    f, ref = getattr(tf, name), getattr(sf, name)
    x = signal(rng, (4, 6, 9))
    cases = [
        (x, dict()),
        (x, dict(axis=1)),
        (x, dict(axis=0, norm="ortho")),
        (x.transpose(2, 0, 1), dict(axis=-1)),  # non-contiguous
        (x[::-1, :, ::-1], dict()),  # negative strides
        (x[:, ::-2, 1::3], dict(axis=1)),
        (x[1:2, 2, :], dict(n=12)),  # padded
        (x, dict(n=5, axis=-1)),  # truncated
        (x[0, 0, 3:4], dict()),  # one point
        (x[0, 0, :2], dict(norm="forward")),  # two points
        (np.float32(2.5) * x[:, :, :7].astype(np.float32), dict(axis=-1)),
        (np.asfortranarray(x[0]), dict(axis=0)),
    ]
    for data, kwargs in cases:
        tol = F64_TOL if data.dtype == np.float64 else F32_TOL
        assert_close(f(data, type_, **kwargs), ref(data, type_, **kwargs), tol)
    # a batch large enough to take threads, and one long signal
    for shape in ((600, 257), (1, 100_000)):
        data = signal(rng, shape)
        assert_close(f(data, type_), ref(data, type_))
        assert_close(f(data.T, type_, axis=0), ref(data.T, type_, axis=0))


@pytest.mark.parametrize("name", R2R)
@pytest.mark.parametrize("type_", [2, 3])
def test_passes_empty_nan_and_inf(name, type_, rng):
    f, ref = getattr(tf, name), getattr(sf, name)
    for shape, axis in (((0, 5), -1), ((3, 0, 4), -1), ((0, 7), 0)):
        x = np.zeros(shape)
        if x.shape[axis] == 0:
            continue
        assert_close(f(x, type_, axis=axis), ref(x, type_, axis=axis))
    x = signal(rng, (4, 9))
    x[1, 4] = np.nan
    x[2, 0] = np.inf
    x[3, 8] = -np.inf
    ours = f(x, type_)
    _assert_like_composite(ours, _composite(f, x, type_))  # nan and inf where the composite has them
    assert np.isnan(ours[1]).all() and np.isnan(ref(x, type_)[1]).all()
    assert_close(ours[:1], ref(x, type_)[:1])


def _assert_as_accurate_as_composite(ours, composite, f, x, *args, **kwargs):
    """No further from the exact transform (SciPy's in long double; of float32
    input, in float64) than the composite is, to 2 ulps of the largest output
    (on random input from 8192 to 1e5 points both are up to about 4 ulps off
    it, ours at most 1 further)."""
    exact = f(x.astype(np.longdouble if x.dtype == np.float64 else np.float64), *args, **kwargs)
    scale = np.abs(exact).max()
    slack = 2 * np.finfo(ours.dtype).eps * scale
    assert np.abs(ours - exact).max() <= np.abs(composite - exact).max() + slack


@pytest.mark.parametrize("name", R2R)
@pytest.mark.parametrize("type_", [2, 3])
def test_passes_split_and_real_fft_lengths(name, type_, rng):
    """Even lengths from 8192 run an N/2-point complex FFT split in the pass
    next to it (with N/2 odd and even), the others the N-point real FFT."""
    f, ref = getattr(tf, name), getattr(sf, name)
    for m in (998, 1000, 1001, 8190, 8191, 8192, 8194, 8196, 65536, 100_002):
        for dtype in (np.float64, np.float32):
            x = signal(rng, (2, m), dtype=dtype)
            for norm in (None, "ortho"):
                ours = f(x, type_, norm=norm)
                composite = _composite(f, x, type_, norm=norm)
                if m % 2 == 0 and m >= 8192:
                    _assert_as_accurate_as_composite(ours, composite, ref, x, type_, norm=norm)
                else:
                    _assert_like_composite(ours, composite)
                assert_close(ours, ref(x, type_, norm=norm), F64_TOL if dtype == np.float64 else F32_TOL)


def test_passes_scratch_in_turn_and_across_threads(rng):
    """Calls of sizes up and down, dtypes and batches in turn, on one thread
    and on several at once: each SciPy's values, each input left as it was."""
    shapes = [(1, 100_000), (3, 16), (1, 1001), (2, 50_000), (1, 3), (4, 8192), (1, 100_001), (1, 1), (3, 1000), (2, 2)]
    inputs = [signal(rng, shape, dtype=dtype) for shape in shapes for dtype in (np.float64, np.float32)]
    calls = [(i, name, type_) for i in range(len(inputs)) for name in R2R for type_ in (2, 3)]
    want = {(i, name, type_): getattr(sf, name)(inputs[i], type_) for i, name, type_ in calls}

    def run(order):
        for i, name, type_ in order:
            x = inputs[i]
            before = x.copy()
            got = getattr(tf, name)(x, type_)
            assert_close(got, want[i, name, type_], F64_TOL if x.dtype == np.float64 else F32_TOL)
            np.testing.assert_array_equal(x, before)

    run(calls)
    run(calls[::-1])
    orders = [calls[k::3] + calls[:k:-2] for k in range(3)] + [list(itertools.chain(*zip(calls, calls[::-1])))]
    with ThreadPoolExecutor(len(orders)) as pool:
        for done in [pool.submit(run, order) for order in orders]:
            done.result()


def test_passes_above_the_kept_scratch(rng):
    """Calls whose scratch is above the 16 MiB a thread keeps (a buffer of
    their own, freed after; the Rust unit tests check the bytes kept): an even
    batch (the split, N reals a row), an odd length (the real FFT, 2 (N/2 + 1)
    reals a row) and float32, each between small calls, on one thread and on
    two at once; each SciPy's values, each input left as it was."""
    big = [
        signal(rng, (3, 1 << 20)),  # 24 MiB of float64
        signal(rng, (1, 3**3 * 5**7)),  # odd: 2 (N/2 + 1) reals, 16.1 MiB
        signal(rng, (5, 1 << 20), dtype=np.float32),  # 20 MiB of float32
    ]
    small = [signal(rng, (2, 8192)), signal(rng, (1, 1001)), signal(rng, (3, 2), dtype=np.float32)]
    calls = [(x, name, type_) for x in big for name in ("dct", "idst") for type_ in (2, 3)]
    calls += [(x, name, type_) for x in small for name in R2R for type_ in (2, 3)]
    want = [getattr(sf, name)(x, type_) for x, name, type_ in calls]

    def run(order):
        for k in order:
            x, name, type_ = calls[k]
            before = x.copy()
            got = getattr(tf, name)(x, type_)
            assert_close(got, want[k], F64_TOL if x.dtype == np.float64 else F32_TOL)
            np.testing.assert_array_equal(x, before)

    interleaved = list(itertools.chain(*itertools.zip_longest(range(len(calls) - 1, -1, -1), range(len(calls)))))
    run(interleaved)
    with ThreadPoolExecutor(2) as pool:
        for done in [pool.submit(run, order) for order in (interleaved, interleaved[::-1])]:
            done.result()


def test_passes_keep_autograd_on_the_composite():
    x = torch.linspace(-1, 1, 10, dtype=torch.float64, requires_grad=True)
    y = tf.dct(x, 2, norm="ortho")
    assert y.requires_grad
    (y * torch.arange(10.0, dtype=torch.float64)).sum().backward()
    # DCT-II with norm="ortho" is orthogonal: the gradient is the inverse (DCT-III) of the weights
    expected = torch.from_numpy(sf.dct(np.arange(10.0), 3, norm="ortho"))
    assert torch.allclose(x.grad, expected, rtol=0, atol=1e-13)
