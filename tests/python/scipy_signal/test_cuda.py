"""On a GPU: torchbridge.signal on CUDA tensors computes there and returns CUDA
tensors equal to SciPy's results (within the CPU tests' tolerances, times ten
for CUDA's own kernels); numpy input with ``device="cuda"`` comes back as numpy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
from conftest import require_cuda

from torchbridge import signal as ts


def _cases(rng):
    """(name, positional arrays, keyword options): one call per routine that takes arrays."""
    x, h = rng.standard_normal(5000), rng.standard_normal(31)
    image, kernel = rng.standard_normal((64, 48)), rng.standard_normal((5, 3))
    b, a = ss.butter(4, 0.1)
    sos = ss.butter(8, 0.1, output="sos")
    t = np.linspace(0, 1, 2000)
    return [
        ("convolve", (x, h), {}),
        ("correlate", (x, h), {"mode": "same", "method": "direct"}),
        ("fftconvolve", (x, h), {"mode": "valid"}),
        ("oaconvolve", (x, h), {}),
        ("convolve2d", (image, kernel), {"boundary": "symm"}),
        ("correlate2d", (image, kernel), {"mode": "same", "boundary": "wrap"}),
        ("lfilter", (b, a, x), {}),
        ("sosfilt", (sos, x), {}),
        ("filtfilt", (b, a, x), {}),
        ("sosfiltfilt", (sos, x), {}),
        ("chirp", (t, 1.0, 1.0, 50.0), {}),
        ("sawtooth", (t * 40,), {"width": 0.3}),
        ("square", (t * 40,), {}),
        ("lombscargle", (np.sort(t * 30), np.cos(t * 30) + x[:2000], np.linspace(0.1, 20, 3000)),
         {"floating_mean": True, "normalize": "amplitude"}),
        ("upfirdn", (h, x), {"up": 3, "down": 2, "mode": "wrap"}),
        ("upfirdn", (rng.standard_normal(900), x), {"up": 2, "down": 3}),
        ("resample", (x,), {"num": 7001}),
        ("resample_poly", (x,), {"up": 3, "down": 2}),
        ("resample_poly", (x,), {"up": 2, "down": 5, "padtype": "mean"}),
        ("decimate", (x,), {"q": 4}),
        ("decimate", (x,), {"q": 3, "ftype": "fir", "zero_phase": False}),
    ]


@pytest.mark.gpu
def test_signal_routines_compute_on_cuda_tensors(rng):
    require_cuda()
    import torch

    for name, arrays, options in _cases(rng):
        cuda = [torch.from_numpy(np.ascontiguousarray(arr)).cuda() for arr in arrays]
        got = getattr(ts, name)(*cuda, **options)
        assert isinstance(got, torch.Tensor) and got.is_cuda, name
        want = getattr(ss, name)(*arrays, **options)
        scale = np.abs(want).max()
        np.testing.assert_allclose(got.cpu().numpy(), want, rtol=0, atol=1e-11 * scale, err_msg=name)


@pytest.mark.gpu
def test_numpy_input_computed_on_cuda_comes_back_as_numpy(rng):
    require_cuda()
    for name, arrays, options in _cases(rng):
        got = getattr(ts, name)(*arrays, **options, device="cuda")
        assert type(got) is np.ndarray, name
        want = getattr(ss, name)(*arrays, **options)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-11 * np.abs(want).max(), err_msg=name)


@pytest.mark.gpu
def test_windows_are_placed_on_the_requested_device():
    require_cuda()
    import torch

    w = ts.windows.hann(64, xp=torch, device="cuda")
    assert isinstance(w, torch.Tensor) and w.is_cuda
    np.testing.assert_allclose(w.cpu().numpy(), ss.windows.hann(64), rtol=0, atol=1e-15)


@pytest.mark.gpu
def test_lombscargle_on_cuda_chunks_and_matches_scipy(rng):
    """1e4 samples x 1e4 frequencies (24 chunks of the phase matrix) on the GPU, every normalize."""
    require_cuda()
    import torch

    x = np.sort(rng.uniform(0, 1000, 10_000))
    y = np.sin(0.7 * x) + rng.standard_normal(10_000)
    freqs = np.linspace(0.01, 10, 10_000)
    weights = rng.uniform(0.5, 2.0, 10_000)
    cuda = [torch.from_numpy(a).cuda() for a in (x, y, freqs, weights)]
    for normalize in (False, True, "amplitude"):
        got = ts.lombscargle(*cuda[:3], weights=cuda[3], normalize=normalize, floating_mean=True)
        assert isinstance(got, torch.Tensor) and got.is_cuda and got.dtype in (torch.float64, torch.complex128)
        want = ss.lombscargle(x, y, freqs, weights=weights, normalize=normalize, floating_mean=True)
        # phases up to 1e4 rad: cos/sin of each differ by ~1e-12 between libms
        scale = np.abs(want).max()
        np.testing.assert_allclose(got.cpu().numpy(), want, rtol=0, atol=1e-10 * scale, err_msg=str(normalize))
def test_filter_design_routines_on_cuda_tensors():
    """The conversions and frequency responses return CUDA tensors equal to SciPy's."""
    require_cuda()
    import torch

    z, p, k = ss.butter(8, [0.1, 0.3], btype="band", output="zpk")
    b, a = ss.butter(8, 0.2)
    sos = ss.zpk2sos(z, p, k)
    cases = [
        ("freqz", (b, a), {"worN": 8192}),
        ("freqz", (b,), {"worN": 1000, "whole": True}),
        ("freqz_zpk", (z, p), {"worN": 300}),
        ("freqz_sos", (sos,), {"worN": 300}),
        ("zpk2sos", (z, p), {}),
        ("sos2tf", (sos,), {}),
    ]
    for name, arrays, options in cases:
        extra = (k,) if name in ("freqz_zpk", "zpk2sos") else ()
        cuda = [torch.from_numpy(np.ascontiguousarray(arr)).cuda() for arr in arrays]
        got = getattr(ts, name)(*cuda, *extra, **options)
        want = getattr(ss, name)(*arrays, *extra, **options)
        got, want = (got, want) if isinstance(got, tuple) else ((got,), (want,))
        for g, w in zip(got, want):
            assert isinstance(g, torch.Tensor) and g.is_cuda, name
            np.testing.assert_allclose(g.cpu().numpy(), w, rtol=0, atol=1e-10 * np.abs(w).max(), err_msg=name)
