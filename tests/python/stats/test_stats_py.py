"""torchbridge.stats (the `scipy.stats._stats_py` descriptive statistics) against SciPy 1.17.1."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats as ss
from conftest import LIBRARIES, dtype_name, library_type, to_library, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import torchbridge as tb
from torchbridge import stats as ts
from torchbridge.stats._axis_nan_policy import SmallSampleWarning

# (name, positional args after the sample, keywords, rtol): the reductions
# that take SciPy's axis/keepdims/nan_policy decorator.
REDUCTIONS = [
    ("skew", (), {}, 1e-10),
    ("skew", (), {"bias": False}, 1e-10),
    ("kurtosis", (), {}, 1e-10),
    ("kurtosis", (), {"fisher": False, "bias": False}, 1e-10),
    ("moment", (), {"order": 3}, 1e-10),
    ("moment", (), {"order": 2, "center": 0.5}, 1e-10),
    ("sem", (), {}, 1e-12),
    ("sem", (), {"ddof": 0}, 1e-12),
    ("variation", (), {}, 1e-12),
    ("variation", (), {"ddof": 1}, 1e-12),
    ("gmean", (), {}, 1e-12),
    ("hmean", (), {}, 1e-12),
    ("pmean", (2.5,), {}, 1e-12),
    ("pmean", (-1.5,), {}, 1e-12),
    ("iqr", (), {}, 1e-12),
    ("iqr", (), {"rng": (10, 80), "scale": "normal"}, 1e-12),
    ("median_abs_deviation", (), {}, 1e-12),
    ("median_abs_deviation", (), {"scale": "normal"}, 1e-12),
    ("trim_mean", (0.2,), {}, 1e-12),
    ("tmean", (), {"limits": (0.2, 1.5)}, 1e-12),
    ("tvar", (), {"limits": (0.2, 1.5), "inclusive": (False, True)}, 1e-12),
    ("tstd", (), {}, 1e-12),
    ("tsem", (), {"limits": (None, 1.2)}, 1e-12),
    ("tmin", (0.3,), {}, 0),
    ("tmax", (1.1,), {"inclusive": False}, 0),
    ("entropy", (), {}, 1e-12),
    ("entropy", (), {"base": 2.0}, 1e-12),
]
IDS = [f"{n}-{i}" for i, (n, *_rest) in enumerate(REDUCTIONS)]


def positive(rng, shape):
    return rng.random(shape) * 2 + 0.05


def call(module, name, a, args, kwargs, precision=None):
    """The routine's result and the SmallSampleWarning messages it gave; ``precision``
    (a list) receives whether SciPy warned of a catastrophic cancellation."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = getattr(module, name)(a, *args, **kwargs)
    if precision is not None:
        precision.append(any("Precision loss" in str(w.message) for w in caught))
    # SciPy warns once per too-small slice (the same message); torchbridge once per call
    small = sorted({str(w.message) for w in caught if w.category.__name__ == "SmallSampleWarning"})
    return result, small


def close(got, expected, rtol, atol=1e-14):
    np.testing.assert_allclose(to_numpy(got), np.asarray(expected), rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize(("name", "args", "kwargs", "rtol"), REDUCTIONS, ids=IDS)
def test_reductions_match_scipy_in_every_container(rng, lib, name, args, kwargs, rtol):
    a = positive(rng, (6, 7, 5))
    a0 = a.copy()
    for axis in (0, -1, 1, None, (0, 2)):
        if name == "entropy" and axis is None:
            continue  # entropy: SciPy documents an int axis
        kw = {**kwargs, "axis": axis}
        got, _ = call(ts, name, to_library(lib, a), args, kw)
        expected, _ = call(ss, name, a, args, kw)
        if axis is not None or lib != "numpy":
            assert isinstance(got, library_type(lib)), type(got)
        close(got, expected, rtol)
        assert np.shape(to_numpy(got)) == np.shape(expected)
    np.testing.assert_array_equal(a, a0)


@pytest.mark.parametrize(("name", "args", "kwargs", "rtol"), REDUCTIONS, ids=IDS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_keepdims_and_scalars(rng, name, args, kwargs, rtol, keepdims):
    a = positive(rng, (4, 9))
    for axis in (0, 1, None):
        if name == "entropy" and axis is None:
            continue
        got = getattr(ts, name)(a, *args, axis=axis, keepdims=keepdims, **kwargs)
        expected = getattr(ss, name)(a, *args, axis=axis, keepdims=keepdims, **kwargs)
        assert np.shape(got) == np.shape(expected)
        assert type(got) is type(expected), (type(got), type(expected))
        close(got, expected, rtol)


@pytest.mark.parametrize(("name", "args", "kwargs", "rtol"), REDUCTIONS, ids=IDS)
@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_nan_policy(rng, name, args, kwargs, rtol, nan_policy):
    a = positive(rng, (7, 6))
    a[1, 2] = a[4, 2] = a[0, 5] = np.nan
    a[:, 3] = np.nan  # a slice of NaNs only: too small after omitting them
    a[:6, 4] = np.nan  # one value left
    for axis in (0, 1, None):
        if name == "entropy" and axis is None:
            continue
        kw = {**kwargs, "axis": axis, "nan_policy": nan_policy}
        got, got_w = call(ts, name, a, args, kw)
        expected, expected_w = call(ss, name, a, args, kw)
        close(got, expected, rtol)
        assert got_w == expected_w
    with pytest.raises(ValueError, match="The input contains nan values"):
        getattr(ts, name)(a, *args, nan_policy="raise", **kwargs)
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        getattr(ts, name)(a, *args, nan_policy="ignore", **kwargs)


@pytest.mark.parametrize(("name", "args", "kwargs", "rtol"), REDUCTIONS, ids=IDS)
@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (1,), (1, 4), ()])
def test_empty_small_and_0d_samples_give_scipys_nans_and_warnings(name, args, kwargs, rtol, shape):
    a = np.full(shape, 0.7) if shape != (1, 4) else np.array([[0.7, 1.1, 0.3, 0.9]])
    if name in ("tmin", "tmax", "tmean", "tvar", "tsem") and a.size == 0:
        pytest.skip("the limits check of an empty sample: see test_limits_errors")
    got, got_w = call(ts, name, a, args, kwargs)
    expected, expected_w = call(ss, name, a, args, kwargs)
    close(got, expected, rtol)
    assert np.shape(got) == np.shape(expected)
    assert got_w == expected_w


def test_small_sample_warning_is_a_runtime_warning():
    assert issubclass(SmallSampleWarning, RuntimeWarning)
    with pytest.warns(SmallSampleWarning, match="too small"):
        assert np.isnan(ts.sem([1.0]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int8", "bool"])
def test_dtypes_follow_scipy(rng, dtype):
    a = (rng.random((20, 3)) * 5 + 1).astype(dtype)
    for name in ("skew", "kurtosis", "sem", "variation", "gmean", "hmean", "iqr", "median_abs_deviation",
                 "tvar", "tmin", "tmax", "entropy", "trim_mean"):
        args = (0.1,) if name == "trim_mean" else ()
        if name == "iqr" and dtype == "bool":
            continue  # SciPy refuses boolean input there
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # constant (bool) samples: both warn of the precision loss
            got = getattr(ts, name)(a, *args)
            expected = getattr(ss, name)(a, *args)
        assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
        low = dtype in ("float32", "int8", "bool")  # float32 (or gmean's float16) results
        rtol = 2e-3 if low else 1e-12
        close(got, expected, rtol, atol=1e-3 if low else 1e-14)


def test_large_mean_keeps_skew_and_kurtosis_accuracy(rng):
    noise = rng.standard_normal((4000, 3))
    a = 1e9 + noise
    exact_skew = ss.skew(a - 1e9)  # the subtraction is exact: the same data about 0
    exact_kurt = ss.kurtosis(a - 1e9)
    for got, exact, theirs in ((ts.skew(a), exact_skew, ss.skew(a)), (ts.kurtosis(a), exact_kurt, ss.kurtosis(a))):
        ours_err = np.max(np.abs(got - exact))
        scipy_err = np.max(np.abs(theirs - exact))
        assert ours_err <= max(10 * scipy_err, 1e-6), (ours_err, scipy_err)


def test_moment_orders_list_and_errors(rng):
    a = rng.random((8, 5))
    for keepdims in (False, True):
        got = ts.moment(a, order=[0, 1, 2, 3], keepdims=keepdims)
        expected = ss.moment(a, order=[0, 1, 2, 3], keepdims=keepdims)
        assert got.shape == expected.shape
        close(got, expected, 1e-12)
    close(ts.moment(a, order=1, center=0.25), ss.moment(a, order=1, center=0.25), 1e-12)
    for bad in ([], 1.5, [1, 2.5]):
        with pytest.raises(ValueError):
            ss.moment(a, order=bad)
        with pytest.raises(ValueError):
            ts.moment(a, order=bad)
    with pytest.raises(NotImplementedError, match="center"):
        ts.moment(a, order=2, center=np.ones(5))


@pytest.mark.parametrize("lib", LIBRARIES)
def test_zscore_and_zmap(rng, lib):
    a = rng.standard_normal((9, 4)) * 3 + 2
    a[2, 1] = np.nan
    a[:, 3] = 5.0  # zero variance: zscore is NaN there
    for axis in (0, 1, -1, None):
        for ddof in (0, 1):
            for policy in ("propagate", "omit"):
                kw = {"axis": axis, "ddof": ddof, "nan_policy": policy}
                got = ts.zscore(to_library(lib, a), **kw)
                assert isinstance(got, library_type(lib))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)  # SciPy's precision-loss warning (column 3)
                    close(got, ss.zscore(a, **kw), 1e-12)
                    scores = rng.standard_normal(a.shape)
                    expected = ss.zmap(scores, a, **kw)
                close(ts.zmap(to_library(lib, scores), to_library(lib, a), **kw), expected, 1e-12)
    with pytest.raises(ValueError, match="nan"):
        ts.zscore(a, nan_policy="raise")
    x32 = a.astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert ts.zscore(x32).dtype == ss.zscore(x32).dtype == np.float32
    with pytest.raises(np.exceptions.AxisError):
        ss.zscore(np.float64(3.0))
    with pytest.raises(np.exceptions.AxisError):
        ts.zscore(np.float64(3.0))


def assert_describe_equal(got, expected, rtol=1e-12):
    assert type(got).__name__ == "DescribeResult"
    assert got._fields == expected._fields
    nobs, (lo, hi), mean, var, sk, ku = got  # unpacks like SciPy's
    assert int(np.asarray(nobs)) == int(np.asarray(expected.nobs)) or np.array_equal(nobs, expected.nobs)
    close(lo, expected.minmax[0], 0)
    close(hi, expected.minmax[1], 0)
    for g, e in zip((mean, var, sk, ku), expected[2:]):
        close(g, e, rtol)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_describe(rng, lib):
    a = rng.random((10, 4))
    for axis in (0, 1, None):
        for ddof, bias in ((1, True), (0, False)):
            got = ts.describe(to_library(lib, a), axis=axis, ddof=ddof, bias=bias)
            assert_describe_equal(got, ss.describe(a, axis=axis, ddof=ddof, bias=bias))
    ints = rng.integers(0, 9, 30)
    got = ts.describe(ints)
    assert got.minmax[0].dtype == ints.dtype
    assert_describe_equal(got, ss.describe(ints))
    with pytest.raises(ValueError, match="must not be empty"):
        ts.describe(np.array([]))
    b = a.copy()
    b[3, 1] = np.nan
    close(ts.describe(b).mean, ss.describe(b).mean, 1e-12)
    omitted = ts.describe(b, nan_policy="omit")
    expected = ss.describe(b, nan_policy="omit")  # masked arrays in SciPy
    close(omitted.mean, expected.mean.data, 1e-12)
    close(omitted.nobs, expected.nobs, 0)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_mode(rng, lib):
    a = rng.integers(0, 4, (12, 5))
    for axis in (0, 1, None):
        for keepdims in (False, True):
            got = ts.mode(to_library(lib, a), axis=axis, keepdims=keepdims)
            expected = ss.mode(a, axis=axis, keepdims=keepdims)
            m, c = got  # unpacks like SciPy's ModeResult
            assert type(got).__name__ == "ModeResult" and got._fields == ("mode", "count")
            assert dtype_name(m) == expected.mode.dtype.name
            np.testing.assert_array_equal(to_numpy(m), expected.mode)
            np.testing.assert_array_equal(to_numpy(c), expected.count)
    # smallest mode among ties, NaN as one value, NaN omitted
    for x in ([3.0, 1.0, 3.0, 1.0, 2.0], [1.0, np.nan, np.nan, 3.0], [np.nan, np.nan, 1.0, 1.0, 1.0]):
        x = np.array(x)
        for policy in ("propagate", "omit"):
            got = ts.mode(x, nan_policy=policy)
            expected = ss.mode(x, nan_policy=policy)
            close(got.mode, expected.mode, 0)
            close(got.count, expected.count, 0)
    b = np.array([[1.0, np.nan], [1.0, np.nan], [2.0, np.nan]])
    for policy in ("propagate", "omit"):
        got, got_w = call(ts, "mode", b, (), {"nan_policy": policy})
        expected, expected_w = call(ss, "mode", b, (), {"nan_policy": policy})
        close(got.mode, expected.mode, 0)
        close(got.count, expected.count, 0)
        assert got_w == expected_w
    with pytest.warns(SmallSampleWarning):
        got = ts.mode(np.array([]))
    with pytest.warns(RuntimeWarning):
        expected = ss.mode(np.array([]))
    close(got.mode, expected.mode, 0)
    close(got.count, expected.count, 0)
    assert np.asarray(got.count).dtype == np.asarray(expected.count).dtype
    with pytest.raises(TypeError):
        ts.mode("abc")


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata(rng, lib, method):
    a = rng.integers(0, 6, (7, 9)).astype(float)
    for axis in (None, 0, 1, -1):
        got = ts.rankdata(to_library(lib, a), method, axis=axis)
        expected = ss.rankdata(a, method, axis=axis)
        assert isinstance(got, library_type(lib))
        assert dtype_name(got) == expected.dtype.name
        np.testing.assert_array_equal(to_numpy(got), expected)
    a[2, 3] = np.nan
    for policy in ("propagate", "omit"):
        for axis in (None, 1):
            close(ts.rankdata(a, method, axis=axis, nan_policy=policy),
                  ss.rankdata(a, method, axis=axis, nan_policy=policy), 0)
    with pytest.raises(ValueError, match="nan"):
        ts.rankdata(a, method, nan_policy="raise")


def test_rankdata_edges():
    for method in ("average", "ordinal"):
        for x in (np.array([]), np.empty((0, 3)), np.float64(2.0), np.array([-0.0, 0.0, np.inf, -np.inf])):
            got = ts.rankdata(x, method)
            expected = ss.rankdata(x, method)
            assert got.shape == expected.shape and got.dtype == expected.dtype
            np.testing.assert_array_equal(got, expected)
    got = ts.rankdata(np.empty((0, 3)), axis=1)
    assert got.shape == (0, 3)
    with pytest.raises(ValueError, match="unknown method"):
        ts.rankdata([1, 2], "mean")
    assert ts.rankdata([[1, 2], [2, 2]], axis=1).tolist() == [[1.0, 2.0], [1.5, 1.5]]


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6),
               elements=st.sampled_from([-2.0, -0.0, 0.0, 1.0, 1.5, 3.0, np.inf])),
    st.sampled_from(["average", "min", "max", "dense", "ordinal"]),
    st.integers(-1, 2),
)
def test_rankdata_ties_hypothesis(a, method, axis):
    axis = axis % a.ndim if axis >= 0 else axis
    if axis >= a.ndim:
        axis = None
    np.testing.assert_array_equal(ts.rankdata(a, method, axis=axis), ss.rankdata(a, method, axis=axis))


@settings(max_examples=40, deadline=None)
@given(
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6),
               elements=st.floats(-10, 10, allow_nan=False)),
    st.sampled_from(["skew", "kurtosis", "sem", "iqr", "median_abs_deviation", "variation", "tvar"]),
    st.booleans(),
)
def test_axes_and_shapes_hypothesis(a, name, keepdims):
    for axis in [None, *range(a.ndim), tuple(range(a.ndim))[:2]]:
        got, _ = call(ts, name, a, (), {"axis": axis, "keepdims": keepdims})
        lost = []
        expected, _ = call(ss, name, a, (), {"axis": axis, "keepdims": keepdims}, lost)
        assert np.shape(got) == np.shape(expected)
        if not lost[0]:  # (equal values: SciPy's mean rounds, its "NaN where all equal" test can miss)
            close(got, expected, 1e-9, atol=1e-9)


def test_weights_of_the_means(rng):
    a = positive(rng, (5, 6))
    w = rng.random((5, 6))
    for name, args in (("gmean", ()), ("hmean", ()), ("pmean", (1.7,)), ("pmean", (0,))):
        for axis in (0, 1, None):
            close(getattr(ts, name)(a, *args, axis=axis, weights=w),
                  getattr(ss, name)(a, *args, axis=axis, weights=w), 1e-12)
        close(getattr(ts, name)(a, *args, weights=w[0], axis=1), getattr(ss, name)(a, *args, weights=w[0], axis=1),
              1e-12)
    b = a.copy()
    b[1, 2] = np.nan
    w2 = w.copy()
    w2[3, 4] = np.nan
    close(ts.gmean(b, weights=w2, nan_policy="omit"), ss.gmean(b, weights=w2, nan_policy="omit"), 1e-12)
    close(ts.gmean(a, dtype=np.float32), ss.gmean(a, dtype=np.float32), 1e-6)
    assert ts.gmean(a, dtype=np.float32).dtype == np.float32


def test_means_errors_and_warnings(rng):
    a = np.array([1.0, -2.0, 3.0])
    with pytest.warns(RuntimeWarning, match="harmonic mean is only defined"):
        assert np.isnan(ts.hmean(a))
    with pytest.warns(RuntimeWarning, match="power mean is only defined"):
        assert np.isnan(ts.pmean(a, 2))
    with pytest.raises(NotImplementedError, match="finite"):
        ts.pmean(a, np.inf)
    with pytest.raises(ValueError, match="int or float"):
        ts.pmean(a, "2")
    close(ts.hmean([1.0, 0.0, 2.0]), ss.hmean([1.0, 0.0, 2.0]), 0)


def test_iqr_options(rng):
    a = rng.random((11, 4))
    for interpolation in ("linear", "lower", "higher", "midpoint", "nearest"):
        for rng_ in ((25, 75), (80, 10), (0, 100)):
            got = ts.iqr(a, axis=0, rng=rng_, interpolation=interpolation)
            close(got, ss.iqr(a, axis=0, rng=rng_, interpolation=interpolation), 1e-12)
    close(ts.iqr(a, scale=2.5), ss.iqr(a, scale=2.5), 1e-12)
    with pytest.raises(ValueError, match="not a valid scale"):
        ts.iqr(a, scale="cauchy")
    with pytest.raises(TypeError, match="two element"):
        ts.iqr(a, rng=(1, 2, 3))
    with pytest.raises(ValueError, match="range"):
        ts.iqr(a, rng=(-1, 50))
    with pytest.raises(ValueError, match="NaN"):
        ts.iqr(a, rng=(np.nan, 50))


def test_median_abs_deviation_options(rng):
    a = rng.standard_normal((9, 3))
    close(ts.median_abs_deviation(a, center=np.median), ss.median_abs_deviation(a, center=np.median), 1e-12)
    with pytest.raises(TypeError, match="callable"):
        ts.median_abs_deviation(a, center=3.0)
    with pytest.raises(NotImplementedError, match="center"):
        ts.median_abs_deviation(a, center=np.mean)
    with pytest.raises(ValueError, match="not a valid scale value"):
        ts.median_abs_deviation(a, scale="bogus")
    close(ts.median_abs_deviation(a, scale=2.0), ss.median_abs_deviation(a, scale=2.0), 1e-12)


def test_trim_mean_and_limits_errors(rng):
    a = rng.random((10, 3))
    for p in (0.0, 0.1, 0.25, 0.49):
        close(ts.trim_mean(a, p), ss.trim_mean(a, p), 1e-12)
    with pytest.raises(ValueError, match="Proportion too big"):
        ts.trim_mean(a, 0.6)
    with pytest.raises(ValueError, match="No array values within given limits"):
        ss.tmean(a, limits=(5, 6))
    with pytest.raises(ValueError, match="No array values within given limits"):
        ts.tmean(a, limits=(5, 6))
    with pytest.raises(ValueError, match="No array values within given limits"):
        ts.tmin(a, 5.0)
    ints = np.arange(12).reshape(4, 3)
    for f in ("tmin", "tmax"):
        got = getattr(ts, f)(ints, 4)
        expected = getattr(ss, f)(ints, 4)
        assert got.dtype == expected.dtype
        close(got, expected, 0)
    assert ts.tmin(ints, 100 - 96, axis=None) == ss.tmin(ints, 4, axis=None)
    close(ts.tmin(ints, 7), ss.tmin(ints, 7), 0)  # a column with no value above: NaN, float64


def test_entropy_relative_and_errors(rng):
    p = rng.random((6, 3))
    q = rng.random((6, 3))
    for axis in (0, 1):
        for base in (None, 2.0, 10.0):
            close(ts.entropy(p, q, base=base, axis=axis), ss.entropy(p, q, base=base, axis=axis), 1e-12)
    close(ts.entropy(p, q[:, :1], axis=0), ss.entropy(p, q[:, :1], axis=0), 1e-12)
    p0 = p.copy()
    p0[2, 1] = 0.0
    close(ts.entropy(p0, q), ss.entropy(p0, q), 1e-12)
    close(ts.entropy(q, p0), ss.entropy(q, p0), 1e-12)
    with pytest.raises(ValueError, match="base"):
        ts.entropy(p, base=-1)
    close(ts.entropy([]), ss.entropy([]), 0)


def test_errors_match_scipys_classes(rng):
    a = rng.random((3, 4))
    for f in (ts, ss):
        with pytest.raises(np.exceptions.AxisError):
            f.skew(a, axis=2)
        with pytest.raises(ValueError):
            f.skew(a, axis=(0, 0))
    with pytest.raises(NotImplementedError, match="complex"):
        ts.skew(a + 1j)
    with pytest.raises(TypeError):
        ts.skew(a, axis=1.5)


def test_device_keyword_and_public_face(rng):
    a = rng.random((5, 4))
    close(ts.skew(a, device="cpu"), ss.skew(a), 1e-12)
    assert ts.skew.__module__ == "torchbridge.stats"
    assert "stats" in tb.__all__


def test_inputs_are_not_modified(rng):
    import torch

    a = torch.from_numpy(rng.random((6, 5)))
    a[1, 1] = float("nan")
    before = a.clone()
    for name in ("rankdata", "mode", "iqr", "trim_mean", "zscore", "median_abs_deviation"):
        args = (0.1,) if name == "trim_mean" else ()
        getattr(ts, name)(a, *args, nan_policy="omit")
    assert torch.equal(a.isnan(), before.isnan())
    assert torch.equal(a.nan_to_num(), before.nan_to_num())


@pytest.mark.parametrize("name", ["skew", "kurtosis", "moment"])
def test_precision_loss_warning_as_scipy(name):
    a = np.array([[1e9 + 1e-6, 1.0], [1e9, 2.0], [1e9 - 1e-6, 4.0]])
    kwargs = {"order": 2} if name == "moment" else {}
    with pytest.warns(RuntimeWarning, match="Precision loss"):
        expected = getattr(ss, name)(a, **kwargs)
    with pytest.warns(RuntimeWarning, match="Precision loss"):
        got = getattr(ts, name)(a, **kwargs)
    assert np.isnan(got[0]) == np.isnan(expected[0])
    close(got[1], expected[1], 1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ts.skew(a[:, 1])  # well-conditioned data: no warning


@pytest.mark.parametrize("dtype, rtol", [(np.float64, 1e-12), (np.float32, 1e-5)])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_iqr_selection_matches_scipy(rng, dtype, rtol, axis, nan_policy, interpolation):
    # the CPU float path selects the order statistics instead of sorting:
    # slices with NaNs (kept or left out), infinities at the extremes, ties
    a = rng.standard_normal((23, 40)).astype(dtype)
    a[3, :5] = np.nan
    a[:4, 7] = np.nan
    a[5, 0], a[5, 1] = np.inf, -np.inf
    a[6, 2] = np.inf
    a[:2, 9] = -np.inf
    a[8] = np.round(a[8])
    a[9, :] = 1.5
    a[10, :39] = np.nan
    # the infinities stay out of the interpolated positions: between an
    # infinity and a value (or at an end next to one) NumPy's lerp and
    # torchbridge's `a + (b - a) * t` (the sort path's formula) give
    # different infinities or NaN
    for rng_ in ((25, 75), (10, 80), (50, 50)):
        kwargs = dict(axis=axis, rng=rng_, nan_policy=nan_policy, interpolation=interpolation)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ss.iqr(a, **kwargs)
            got = ts.iqr(a, **kwargs)
        got = np.asarray(got)
        assert got.dtype == np.asarray(want).dtype
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True, err_msg=str(rng_))
        if axis == 1 and rng_ == (25, 75):
            np.testing.assert_allclose(np.asarray(ts.median_abs_deviation(a, axis=1, nan_policy=nan_policy)),
                                       ss.median_abs_deviation(a, axis=1, nan_policy=nan_policy),
                                       rtol=rtol, atol=0, equal_nan=True)
