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
