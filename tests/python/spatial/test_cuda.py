"""On a GPU: cdist and pdist on CUDA tensors compute there and return CUDA
tensors equal to SciPy's (every metric), numpy input with ``device="cuda"``
comes back as numpy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.spatial.distance as sd
from conftest import require_cuda

from torchbridge.spatial import distance as td

METRICS = ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski", "cosine", "correlation", "hamming",
           "jaccard", "braycurtis", "canberra", "seuclidean", "mahalanobis", "jensenshannon", "dice", "russellrao"]


@pytest.mark.gpu
@pytest.mark.parametrize("metric", METRICS)
def test_cdist_and_pdist_on_cuda_tensors(rng, metric):
    require_cuda()
    import torch

    xa, xb = rng.random((300, 8)), rng.random((200, 8))
    if metric in ("jaccard", "dice", "russellrao", "hamming"):
        xa, xb = xa > 0.5, xb > 0.5
    got = td.cdist(torch.from_numpy(xa).cuda(), torch.from_numpy(xb).cuda(), metric)
    assert isinstance(got, torch.Tensor) and got.is_cuda
    np.testing.assert_allclose(got.cpu().numpy(), sd.cdist(xa, xb, metric), rtol=1e-11, atol=1e-13)
    condensed = td.pdist(torch.from_numpy(xa).cuda(), metric)
    assert condensed.is_cuda
    np.testing.assert_allclose(condensed.cpu().numpy(), sd.pdist(xa, metric), rtol=1e-11, atol=1e-13)
    on_device = td.cdist(xa, xb, metric, device="cuda")
    assert type(on_device) is np.ndarray
    np.testing.assert_allclose(on_device, sd.cdist(xa, xb, metric), rtol=1e-11, atol=1e-13)
