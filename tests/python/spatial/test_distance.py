"""torchbridge.spatial.distance against scipy.spatial.distance (SciPy 1.17.1)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.spatial.distance as sd
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb
from torchbridge.spatial import distance as td

REAL = ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski", "cosine", "correlation",
        "braycurtis", "canberra", "seuclidean", "mahalanobis", "jensenshannon"]
BOOLEAN = ["hamming", "jaccard", "dice", "rogerstanimoto", "russellrao", "sokalsneath", "yule"]
WEIGHTED = ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski", "cosine", "correlation",
            "braycurtis", "canberra", "hamming", "jaccard", "dice", "rogerstanimoto", "russellrao",
            "sokalsneath"]
RTOL = 1e-12


def data(rng, metric, ma=23, mb=17, n=6):
    if metric in BOOLEAN:
        return rng.integers(-1, 3, (ma, n)).astype(float), rng.integers(-1, 3, (mb, n)).astype(float)
    if metric == "jensenshannon":
        return rng.random((ma, n)), rng.random((mb, n))
    return rng.normal(size=(ma, n)), rng.normal(size=(mb, n))


def close(got, expected, rtol=RTOL, atol=1e-14):
    np.testing.assert_allclose(to_numpy(got), expected, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("metric", REAL + BOOLEAN)
def test_cdist_and_pdist_match_scipy(rng, lib, metric):
    a, b = data(rng, metric)
    a0, b0 = a.copy(), b.copy()
    kw = {"p": 3.5} if metric == "minkowski" else {}
    got = td.cdist(to_library(lib, a), to_library(lib, b), metric, **kw)
    assert isinstance(got, library_type(lib)) and got.shape == (23, 17) and str(got.dtype).endswith("float64")
    close(got, sd.cdist(a, b, metric, **kw))
    got = td.pdist(to_library(lib, a), metric, **kw)
    assert got.shape == (23 * 22 // 2,)
    close(got, sd.pdist(a, metric, **kw))
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)


@pytest.mark.parametrize("metric", WEIGHTED)
def test_weights(rng, metric):
    a, b = data(rng, metric)
    w = rng.random(6) * 3
    kw = {"p": 1.5} if metric == "minkowski" else {}
    close(td.cdist(a, b, metric, w=w, **kw), sd.cdist(a, b, metric, w=w, **kw))
    close(td.pdist(a, metric, w=w, **kw), sd.pdist(a, metric, w=w, **kw))


def test_weighted_yule_is_refused(rng):
    a, b = data(rng, "yule")
    with pytest.raises(NotImplementedError, match="yule"):
        td.cdist(a, b, "yule", w=np.ones(6))


@pytest.mark.parametrize("metric", ["seuclidean", "mahalanobis"])
def test_explicit_variances(rng, metric):
    a, b = data(rng, metric)
    kw = {"V": rng.random(6) + 0.5} if metric == "seuclidean" else {"VI": np.linalg.inv(np.cov(a.T))}
    close(td.cdist(a, b, metric, **kw), sd.cdist(a, b, metric, **kw))
    close(td.pdist(a, metric, **kw), sd.pdist(a, metric, **kw))


@pytest.mark.parametrize("metric", ["euclidean", "sqeuclidean", "seuclidean", "mahalanobis"])
def test_near_duplicates_with_large_offsets_every_pair_within_1e12(rng, metric):
    base = rng.normal(size=(60, 8)) * 1e-3 + 1e6
    near = base + rng.normal(size=base.shape) * 1e-9
    x = np.vstack([base, near, base[:3]])  # exact duplicates too
    # the default V of these points is ill-conditioned (its rounding differs by summation order): pass one
    kw = {"V": np.full(8, 2e-6)} if metric == "seuclidean" else {}
    ref = sd.cdist(x, near, metric, **kw)
    got = td.cdist(x, near, metric, **kw)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=0)
    np.testing.assert_allclose(td.pdist(x, metric, **kw), sd.pdist(x, metric, **kw), rtol=1e-12, atol=0)


def test_euclidean_large_random_every_pair(rng):
    a = rng.normal(size=(300, 64)) + 50
    b = np.vstack([rng.normal(size=(100, 64)) + 50, a[:50] + 1e-7])
    np.testing.assert_allclose(td.cdist(a, b), sd.cdist(a, b), rtol=1e-12, atol=0)


def test_non_finite_values():
    x = np.array([[0.0, 1.0], [np.inf, 2.0], [np.nan, 0.0], [3.0, -1.0], [-0.0, 1.0]])
    for metric in ["euclidean", "sqeuclidean", "cityblock"]:
        close(td.pdist(x, metric), sd.pdist(x, metric))
        close(td.cdist(x, x[::-1].copy(), metric), sd.cdist(x, x[::-1], metric))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "int8"])
def test_dtypes_give_float64(rng, dtype):
    a = (rng.random((5, 4)) * 3).astype(dtype)
    for metric in ["euclidean", "cosine", "jaccard", "dice", "hamming"]:
        got = td.cdist(a, a, metric)
        assert got.dtype == np.float64
        close(got, sd.cdist(a, a, metric), rtol=1e-6 if dtype == "float32" else RTOL)


def test_empty_and_single_rows():
    assert td.cdist(np.zeros((0, 3)), np.ones((2, 3))).shape == (0, 2)
    assert td.pdist(np.zeros((1, 3))).shape == (0,)
    close(td.cdist(np.zeros((2, 0)), np.ones((2, 0))), sd.cdist(np.zeros((2, 0)), np.ones((2, 0))))
    close(td.cdist(np.zeros((1, 3)), np.zeros((1, 3)), "cosine"), [[np.nan]])


def test_aliases_and_case():
    x = np.arange(12.0).reshape(4, 3)
    for alias in ["e", "EU", "Euclid", "sqe", "cb", "ch", "cos", "co", "matching", "mi", "js"]:
        close(td.pdist(x + 1, alias), sd.pdist(x + 1, alias))


def test_bad_input():
    x = np.ones((3, 2))
    with pytest.raises(ValueError, match="Unknown Distance Metric: bogus"):
        td.cdist(x, x, "bogus")
    with pytest.raises(TypeError, match="string identifier"):
        td.cdist(x, x, 3)
    with pytest.raises(NotImplementedError, match="callable metric"):
        td.cdist(x, x, sd.euclidean)
    with pytest.raises(ValueError, match="XA must be a 2-dimensional array"):
        td.cdist(x[0], x)
    with pytest.raises(ValueError, match="same number of columns"):
        td.cdist(x, np.ones((3, 3)))
    with pytest.raises(ValueError, match="A 2-dimensional array must be passed"):
        td.pdist(x[0])
    with pytest.raises(ValueError, match="Weights must have same size"):
        td.cdist(x, x, w=np.ones(3))
    with pytest.raises(ValueError, match="non-negative"):
        td.cdist(x, x, w=-np.ones(2))
    with pytest.raises(TypeError, match="unexpected keyword argument 'p'"):
        td.cdist(x, x, "euclidean", p=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'w'"):
        td.cdist(x, x, "jensenshannon", w=np.ones(2))
    with pytest.raises(ValueError, match="too small"):
        td.cdist(x[:1], x[:1], "mahalanobis")
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        td.cdist(x, x, "mahalanobis")
    with pytest.raises(ValueError, match="Variance vector V"):
        td.cdist(x, x, "seuclidean", V=np.ones(3))
    with pytest.raises(NotImplementedError, match="complex"):
        td.cdist(x + 1j, x)


def test_out(rng):
    a, b = rng.normal(size=(4, 3)), rng.normal(size=(5, 3))
    out = np.empty((4, 5))
    assert td.cdist(a, b, out=out) is out
    close(out, sd.cdist(a, b))
    out = np.empty(6)
    assert td.pdist(a, "cityblock", out=out) is out
    close(out, sd.pdist(a, "cityblock"))
    with pytest.raises(ValueError, match="incorrect shape"):
        td.cdist(a, b, out=np.empty((5, 4)))
    with pytest.raises(ValueError, match="double type"):
        td.cdist(a, b, out=np.empty((4, 5), dtype=np.float32))
    ro = np.empty((4, 5))
    ro.flags.writeable = False
    with pytest.raises(Exception, match="read-only"):
        td.cdist(a, b, out=ro)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_squareform_both_ways(rng, lib):
    y = rng.random(10)
    m = td.squareform(to_library(lib, y))
    assert isinstance(m, library_type(lib))
    np.testing.assert_array_equal(to_numpy(m), sd.squareform(y))
    back = td.squareform(m)
    np.testing.assert_array_equal(to_numpy(back), y)
    np.testing.assert_array_equal(td.squareform(np.zeros(0)), sd.squareform(np.zeros(0)))
    assert td.squareform(np.zeros((1, 1))).shape == (0,)
    assert td.squareform(np.arange(3, dtype=np.int32)).dtype == np.int32
    np.testing.assert_array_equal(td.squareform(y, force="tomatrix"), sd.squareform(y, force="tomatrix"))
    with pytest.raises(ValueError, match="Incompatible vector size"):
        td.squareform(np.ones(4))
    with pytest.raises(ValueError, match="must be symmetric"):
        td.squareform(np.arange(4.0).reshape(2, 2))
    np.testing.assert_array_equal(td.squareform(np.arange(4.0).reshape(2, 2), checks=False), [1.0])
    with pytest.raises(ValueError, match="Forcing 'tovector'"):
        td.squareform(y, force="tovector")
    with pytest.raises(ValueError, match="square"):
        td.squareform(np.ones((2, 3)))


def test_validity_checks():
    good = sd.squareform(np.arange(1.0, 7.0))
    assert td.is_valid_dm(good) and not td.is_valid_dm(good + 1)
    with pytest.raises(ValueError, match="Distance matrix 'D' diagonal must be zero"):
        td.is_valid_dm(good + np.eye(4), throw=True)
    with pytest.raises(ValueError, match="'X' must be symmetric"):
        td.is_valid_dm(np.triu(good), throw=True, name="X")
    assert td.is_valid_dm(good + 1e-3, tol=1e-2)
    assert td.is_valid_y(np.ones(6)) and not td.is_valid_y(np.ones(5))
    with pytest.raises(ValueError, match="binomial coefficient"):
        td.is_valid_y(np.ones(5), throw=True)
    with pytest.warns(UserWarning, match="one-dimensional"):
        assert not td.is_valid_y(np.ones((2, 2)), warning=True)
    assert td.num_obs_dm(good) == 4 and td.num_obs_y(np.ones(6)) == 4
    with pytest.raises(ValueError, match="empty distance matrix"):
        td.num_obs_y(np.ones(0))


PAIRS = ["braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine", "dice", "euclidean",
         "hamming", "jaccard", "rogerstanimoto", "russellrao", "sokalsneath", "sqeuclidean", "yule"]


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", PAIRS)
def test_single_pairs(rng, lib, name):
    u, v = rng.integers(-1, 3, 7).astype(float), rng.integers(-1, 3, 7).astype(float)
    u[0], v[0] = 1.0, 2.0  # never entirely false
    w = rng.random(7) + 0.1
    got = getattr(td, name)(to_library(lib, u), to_library(lib, v))
    close(got, getattr(sd, name)(u, v))
    close(getattr(td, name)(u, v, w), getattr(sd, name)(u, v, w))


def test_single_pair_specials(rng):
    u, v = rng.normal(size=5), rng.normal(size=5)
    close(td.minkowski(u, v, 3), sd.minkowski(u, v, 3))
    close(td.minkowski(u, v, np.inf), sd.minkowski(u, v, np.inf))
    close(td.seuclidean(u, v, np.arange(1.0, 6.0)), sd.seuclidean(u, v, np.arange(1.0, 6.0)))
    vi = np.linalg.inv(np.cov(rng.normal(size=(20, 5)).T))
    close(td.mahalanobis(u, v, vi), sd.mahalanobis(u, v, vi))
    close(td.correlation(u, v, centered=False), sd.correlation(u, v, centered=False))
    p, q = rng.random((3, 4)), rng.random((3, 4))
    close(td.jensenshannon(p, q), sd.jensenshannon(p, q))
    close(td.jensenshannon(p, q, 2.0, axis=1, keepdims=True), sd.jensenshannon(p, q, 2.0, axis=1, keepdims=True))
    assert type(td.euclidean(u, v)) is type(sd.euclidean(u, v)) is float  # SciPy: BLAS nrm2, a Python float
    assert td.sqeuclidean(u.astype(np.float32), v.astype(np.float32)).dtype == np.float32
    assert td.cityblock(np.arange(3), np.arange(3)[::-1].copy()) == 4
    with pytest.raises(ValueError, match="p must be greater than 0"):
        td.minkowski(u, v, 0)
    with pytest.raises(ValueError, match="1-D"):
        td.euclidean(np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="entirely false"):
        td.sokalsneath(np.zeros(3), np.zeros(3))


def test_package_layout():
    assert tb.spatial.distance is td
    assert "distance" in dir(tb.spatial)
    assert td.cdist.__module__ == "torchbridge.spatial.distance"


@pytest.mark.parametrize("metric", ["euclidean", "sqeuclidean"])
@pytest.mark.parametrize("shape", [(2, 1), (3, 5), (15, 3), (16, 64), (17, 7), (33, 2), (200, 64), (70, 0)])
def test_pdist_host_path_every_pair(metric, shape):
    """The CPU path of euclidean/sqeuclidean pdist (direct sums into the condensed
    vector, blocks of 16 points, tiles of 32 rows): every pair, block and tile edges."""
    x = np.random.default_rng(7).standard_normal(shape) * 3 + 10
    np.testing.assert_allclose(td.pdist(x, metric), sd.pdist(x, metric), rtol=1e-13, atol=0)
    # a strided (transposed) view, float32 and integers: cast to float64 first, as SciPy
    xt = np.random.default_rng(8).standard_normal(shape[::-1]).T
    np.testing.assert_allclose(td.pdist(xt, metric), sd.pdist(xt, metric), rtol=1e-13, atol=0)
    for dtype in ["float32", "int64"]:
        xd = (x * 10).astype(dtype)
        got = td.pdist(xd, metric)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, sd.pdist(xd, metric), rtol=1e-13, atol=0)


def test_pdist_host_path_threads_and_specials():
    """Large enough for the tiles to go over threads (where the team has several); NaN,
    infinities, duplicates; torch input on the CPU; empty inputs."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((700, 48))
    x[5] = x[600]
    x[7, 3] = np.nan
    x[650, 0] = np.inf
    close(td.pdist(x), sd.pdist(x))
    close(td.pdist(x, "sqeuclidean"), sd.pdist(x, "sqeuclidean"))
    assert td.pdist(np.zeros((0, 4))).shape == (0,)
    close(td.pdist(to_library("torch", x[:40])), sd.pdist(x[:40]))
