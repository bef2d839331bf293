"""torchbridge.spatial.distance.cdist on dask arrays: one task per pair of row
blocks, each the eager call on those rows (bit for bit, except ``cosine``,
whose libtorch kernel rounds by the rows' memory alignment: the eager call on
a copy of the same rows moves by 1 ulp too), the whole within 1e-12 relative
of the eager result and of SciPy; lazy; the default ``V`` of ``seuclidean``
and ``VI`` of ``mahalanobis`` reductions first."""

from __future__ import annotations

import dask.array as da
import numpy as np
import pytest
import scipy.spatial.distance as sd

import torchbridge as tb
from torchbridge.errors import UnsupportedParameterError

from .cases import no_compute

METRICS = [
    ("euclidean", {}),
    ("sqeuclidean", {}),
    ("cityblock", {"w": np.arange(1.0, 6.0)}),
    ("minkowski", {"p": 3}),
    ("minkowski", {"p": 1.5, "w": np.linspace(0.5, 2, 5)}),
    ("cosine", {}),
    ("correlation", {}),
    ("chebyshev", {}),
    ("canberra", {}),
    ("braycurtis", {}),
    ("seuclidean", {"V": np.arange(1.0, 6.0)}),
    ("seuclidean", {}),
    ("mahalanobis", {"VI": np.linalg.inv(np.cov(np.random.default_rng(9).standard_normal((40, 5)).T))}),
    ("mahalanobis", {}),
    ("jensenshannon", {}),
    ("hamming", {}),
]

#: Metrics whose libtorch kernel depends on the rows' memory alignment (1 ulp of 1.0).
ALIGNMENT = {"cosine"}


def _rows(seed=0):
    rng = np.random.default_rng(seed)
    return np.abs(rng.standard_normal((50, 5))), np.abs(rng.standard_normal((30, 5)))


@pytest.mark.parametrize("metric,options", METRICS, ids=[f"{m}{'-' + '-'.join(o) if o else ''}" for m, o in METRICS])
def test_cdist_over_row_blocks(metric, options):
    a, b = _rows()
    xa, xb = da.from_array(a, chunks=(13, 2)), da.from_array(b, chunks=(7, 5))  # XA's columns chunked: rechunked
    with no_compute():
        lazy = tb.spatial.distance.cdist(xa, xb, metric, **options)
    assert lazy.chunks == ((13, 13, 13, 11), (7, 7, 7, 7, 2))
    eager = tb.spatial.distance.cdist(a, b, metric, **options)
    got = lazy.compute()
    assert got.dtype == eager.dtype and got.shape == eager.shape
    np.testing.assert_allclose(got, eager, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got, sd.cdist(a, b, metric, **options), rtol=1e-12, atol=1e-15)
    if metric in ("seuclidean", "mahalanobis") and not options:
        return  # a block's eager call would take V (VI) from its own rows
    block = lazy.blocks[1, 2].compute()
    eager_block = tb.spatial.distance.cdist(a[13:26], b[14:21], metric, **options)
    if metric in ALIGNMENT:
        np.testing.assert_allclose(block, eager_block, rtol=0, atol=4e-16)  # 1 - similarity: ulps of 1
    else:
        assert block.tobytes() == eager_block.tobytes()


def test_cdist_with_numpy_operand_and_float32():
    a, b = _rows(1)
    lazy = tb.spatial.distance.cdist(da.from_array(a.astype(np.float32), chunks=10), b.astype(np.float32))
    eager = tb.spatial.distance.cdist(a.astype(np.float32), b.astype(np.float32))
    assert lazy.dtype == eager.dtype
    np.testing.assert_allclose(lazy.compute(), eager, rtol=1e-6)


def test_mahalanobis_without_enough_rows_and_options_stay_options():
    a, b = _rows(2)
    xa, xb = da.from_array(a, chunks=10), da.from_array(b, chunks=10)
    with no_compute():
        with pytest.raises(ValueError, match="too small; the covariance matrix is singular"):
            tb.spatial.distance.cdist(xa[:3], xb[:2], "mahalanobis")
        with pytest.raises(UnsupportedParameterError, match="`w` as a dask array"):
            tb.spatial.distance.cdist(xa, xb, "cityblock", w=da.ones(5, chunks=5))
        with pytest.raises(UnsupportedParameterError, match="out="):
            tb.spatial.distance.cdist(xa, xb, out=np.empty((50, 30)))
        with pytest.raises(ValueError, match="columns"):
            tb.spatial.distance.cdist(xa, xb[:, :3])


def test_pdist_and_the_pair_functions_say_why():
    x = da.from_array(_rows()[0], chunks=10)
    with pytest.raises(UnsupportedParameterError, match="cdist"):
        tb.spatial.distance.pdist(x)
    with pytest.raises(UnsupportedParameterError, match="on dask arrays"):
        tb.spatial.distance.euclidean(x[0], x[1])


BOOLEAN = ["dice", "jaccard", "rogerstanimoto", "russellrao", "sokalsneath", "yule", "hamming"]


@pytest.mark.parametrize("metric", BOOLEAN)
def test_cdist_boolean_metrics(metric):
    rng = np.random.default_rng(3)
    a, b = rng.random((30, 6)) > 0.5, rng.random((20, 6)) > 0.5
    with no_compute():
        lazy = tb.spatial.distance.cdist(da.from_array(a, chunks=7), da.from_array(b, chunks=(6, 3)), metric)
    got, eager = lazy.compute(), tb.spatial.distance.cdist(a, b, metric)
    assert got.dtype == eager.dtype
    np.testing.assert_array_equal(np.isnan(got), np.isnan(eager))
    np.testing.assert_allclose(got, eager, rtol=1e-12)
    np.testing.assert_allclose(got, sd.cdist(a, b, metric), rtol=1e-12)
