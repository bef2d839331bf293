"""On a GPU: dask arrays of cupy chunks stay cupy (meta and results), computed
on the device by libtorch, for each chunking class."""

from __future__ import annotations

import dask.array as da
import numpy as np
import pytest

import torchbridge as tb


def _cupy_or_skip():
    cupy = pytest.importorskip("cupy")
    if cupy.cuda.runtime.getDeviceCount() == 0:
        pytest.skip("no CUDA device visible")
    return cupy


@pytest.mark.gpu
@pytest.mark.parametrize(
    "call",
    [
        lambda x: tb.special.erf(x),
        lambda x: tb.special.logsumexp(x, axis=0),
        lambda x: tb.fft.rfft(x, axis=1),
        lambda x: tb.linalg.norm(x, axis=1),
        lambda x: tb.stats.skew(x, axis=0),
        lambda x: tb.stats.iqr(x, axis=1),
        lambda x: tb.spatial.distance.cdist(x, x[:5], "cityblock"),
        lambda x: tb.ndimage.gaussian_filter(x, 1.5, mode="wrap"),
        lambda x: tb.ndimage.median_filter(x, size=(3, 4), mode="mirror"),
        lambda x: tb.signal.lfilter([0.2, 0.3], [1.0, -0.5], x, axis=0),
    ],
    ids=[
        "elementwise", "reduction", "along-axis", "norm", "partial-moments", "whole-axis", "row-blocks", "stencil",
        "stencil-rank", "recurrence",
    ],
)
def test_cupy_chunks_stay_cupy(call):
    cupy = _cupy_or_skip()
    host = np.random.default_rng(0).standard_normal((12, 16))
    lazy = call(da.from_array(cupy.asarray(host), chunks=(4, 16), asarray=False))
    assert isinstance(lazy._meta, cupy.ndarray)
    got = lazy.compute()
    assert isinstance(got, cupy.ndarray)
    np.testing.assert_allclose(cupy.asnumpy(got), call(host), rtol=1e-12, atol=1e-14)
