"""On a GPU: torchbridge.ndimage on CUDA tensors computes there and returns CUDA
tensors equal to SciPy's results (CUDA's kernels round as the CPU's: within a
few ulps); numpy input with ``device="cuda"`` comes back as numpy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as sn
from conftest import require_cuda

from torchbridge import ndimage as tn

CASES = [
    ("correlate1d", ([1.0, -2.0, 0.5],), {"mode": "mirror"}),
    ("correlate", (np.arange(12.0).reshape(3, 4),), {"mode": "wrap"}),
    ("uniform_filter", (5,), {}),
    ("gaussian_filter", (3.0,), {"mode": "nearest"}),
    ("gaussian_filter1d", (2.0,), {"order": 2}),
    ("minimum_filter", (), {"size": 4}),
    ("maximum_filter", (), {"footprint": np.array([[1, 0, 1], [0, 1, 0]])}),
    ("median_filter", (), {"size": 5}),
    ("percentile_filter", (20,), {"size": 3, "mode": "constant", "cval": 1.0}),
    ("sobel", (), {}),
    ("laplace", (), {}),
    ("gaussian_gradient_magnitude", (1.5,), {}),
]


@pytest.mark.gpu
@pytest.mark.parametrize(("name", "args", "kwargs"), CASES)
def test_filters_compute_on_cuda_tensors(name, args, kwargs, rng):
    require_cuda()
    import torch

    x = rng.standard_normal((300, 200))
    got = getattr(tn, name)(torch.from_numpy(x).cuda(), *args, **kwargs)
    assert isinstance(got, torch.Tensor) and got.is_cuda
    want = getattr(sn, name)(x, *args, **kwargs)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=0, atol=1e-13 * np.abs(want).max())
    got = getattr(tn, name)(x, *args, **kwargs, device="cuda")
    assert type(got) is np.ndarray
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13 * np.abs(want).max())


MORPHOLOGY = [
    ("binary_erosion", {"iterations": 2}),
    ("binary_dilation", {"structure": sn.generate_binary_structure(2, 2)}),
    ("binary_closing", {}),
    ("binary_fill_holes", {}),
    ("binary_propagation", {}),
]


@pytest.mark.gpu
@pytest.mark.parametrize(("name", "kwargs"), MORPHOLOGY)
def test_binary_morphology_on_cuda_tensors(name, kwargs, rng):
    require_cuda()
    import torch

    x = rng.random((300, 200)) > 0.4
    got = getattr(tn, name)(torch.from_numpy(x).cuda(), **kwargs)
    assert isinstance(got, torch.Tensor) and got.is_cuda
    np.testing.assert_array_equal(got.cpu().numpy(), getattr(sn, name)(x, **kwargs))


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["grey_erosion", "grey_dilation", "white_tophat"])
def test_grey_morphology_on_cuda_tensors(name, rng):
    require_cuda()
    import torch

    x = rng.standard_normal((300, 200))
    fp = np.array([[1, 0, 1], [0, 1, 1]], bool)
    for kwargs in ({"size": 3}, {"footprint": fp}, {"structure": np.arange(6.0).reshape(2, 3)}):
        got = getattr(tn, name)(torch.from_numpy(x).cuda(), **kwargs)
        assert isinstance(got, torch.Tensor) and got.is_cuda
        np.testing.assert_array_equal(got.cpu().numpy(), getattr(sn, name)(x, **kwargs))


@pytest.mark.gpu
def test_distance_transforms_on_cuda_tensors(rng):
    require_cuda()
    import torch

    x = rng.random((300, 200)) > 0.02
    d, i = tn.distance_transform_edt(torch.from_numpy(x).cuda(), return_indices=True)
    assert d.is_cuda and i.is_cuda
    rd, ri = sn.distance_transform_edt(x, return_indices=True)
    np.testing.assert_allclose(d.cpu().numpy(), rd, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(i.cpu().numpy(), ri)
    far = np.ones((200, 150), bool)
    far[10, 140] = False
    np.testing.assert_allclose(tn.distance_transform_edt(far, device="cuda"), sn.distance_transform_edt(far),
                               rtol=0, atol=1e-12)
    got = tn.distance_transform_cdt(torch.from_numpy(x).cuda(), metric="taxicab")
    np.testing.assert_array_equal(got.cpu().numpy(), sn.distance_transform_cdt(x, metric="taxicab"))


@pytest.mark.gpu
def test_generic_routines_on_cuda_tensors(rng):
    require_cuda()
    import torch

    x = rng.standard_normal((60, 50))
    xc = torch.from_numpy(x).cuda()
    want = sn.generic_gradient_magnitude(x, sn.sobel)
    seen = []

    def derivative(input, axis, output, mode, cval):
        seen.append((type(input), input.device.type))
        return tn.sobel(input, axis, output, mode, cval)

    # the derivative gets the CUDA tensor; the sums and the square root stay on the device
    got = tn.generic_gradient_magnitude(xc, derivative)
    assert isinstance(got, torch.Tensor) and got.is_cuda
    assert seen and all(s == (torch.Tensor, "cuda") for s in seen)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=0, atol=1e-13 * np.abs(want).max())
    got = tn.generic_gradient_magnitude(x, tn.sobel, device="cuda")
    assert type(got) is np.ndarray
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13 * np.abs(want).max())
    got = tn.generic_laplace(xc, lambda i, a, o, m, c: tn.correlate1d(i, [1, -2, 1], a, o, m, c))
    assert got.is_cuda
    np.testing.assert_allclose(got.cpu().numpy(), sn.laplace(x), rtol=0, atol=1e-12)

    # the generic filters: copied to the host once, the function runs there, the result goes back
    def spread(values):
        assert type(values) is np.ndarray
        return values.max() - values.min()

    got = tn.generic_filter(xc, spread, size=(3, 2), mode="wrap")
    assert isinstance(got, torch.Tensor) and got.is_cuda
    np.testing.assert_array_equal(got.cpu().numpy(), sn.generic_filter(x, spread, size=(3, 2), mode="wrap"))

    def line(iline, oline):
        oline[...] = iline[:-2] - iline[2:]

    got = tn.generic_filter1d(xc, line, 3, axis=0)
    assert got.is_cuda
    np.testing.assert_array_equal(got.cpu().numpy(), sn.generic_filter1d(x, line, 3, axis=0))

    b = rng.random((40, 50)) < 0.8
    dt, ft = tn.distance_transform_bf(torch.from_numpy(b).cuda(), metric="taxicab", return_indices=True)
    assert dt.is_cuda and ft.is_cuda
    want_dt, want_ft = sn.distance_transform_bf(b, metric="taxicab", return_indices=True)
    np.testing.assert_array_equal(dt.cpu().to(torch.int64).numpy(), want_dt)
    np.testing.assert_array_equal(ft.cpu().numpy(), want_ft)
