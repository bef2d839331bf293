"""torchbridge.stats on dask arrays: the moments as mergeable reductions.

Lazy (no compute while the graph is built), for 1 to 64 chunks along the
reduced axis and chunked along the others too, equal to the eager result and
to SciPy within 1e-12 relative (1e-15 absolute for statistics near zero, a
skewness of 1e-4, where eager, SciPy and the chunked merge differ by that
much among themselves); float32 kept; the three nan policies; data with a
large mean (1e9 + noise) at least as accurate as the eager two-pass result.
"""

from __future__ import annotations

import warnings

import dask.array as da
import numpy as np
import pytest
import scipy.stats as ss
from dask.array.core import PerformanceWarning

import torchbridge as tb
from torchbridge.errors import UnsupportedParameterError

from .cases import no_compute

RTOL, ATOL = 1e-12, 1e-15


def _data(shape=(64, 9), seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _chunked(x, count):
    """``x`` with ``count`` chunks along axis 0 and chunks of 5 along axis 1."""
    return da.from_array(x, chunks=(-(-x.shape[0] // count), 5))


def _check(lazy, eager, scipy_value=None, rtol=RTOL, atol=ATOL):
    assert isinstance(lazy, da.Array)
    got = lazy.compute()
    assert np.shape(got) == np.shape(eager) and got.dtype == np.asarray(eager).dtype
    np.testing.assert_allclose(got, eager, rtol=rtol, atol=atol)
    if scipy_value is not None:
        np.testing.assert_allclose(got, scipy_value, rtol=rtol, atol=atol)


CASES = {
    "skew": dict(),
    "skew-unbiased": dict(bias=False),
    "kurtosis": dict(),
    "kurtosis-pearson-unbiased": dict(fisher=False, bias=False),
    "moment-3": dict(order=3),
    "moment-5": dict(order=5),
    "moment-1": dict(order=1),
    "moment-center": dict(order=2, center=0.25),
    "sem": dict(ddof=1),
    "variation": dict(ddof=1),
    "tmean": dict(limits=(-1.0, 1.5)),
    "tvar": dict(limits=(-1.0, 1.5), inclusive=(False, True)),
    "tstd": dict(),
    "tsem": dict(limits=(None, 1.0)),
    "tmin": dict(lowerlimit=-0.5),
    "tmax": dict(upperlimit=0.5, inclusive=False),
}


@pytest.mark.parametrize(
    "case,count",
    [(case, count) for case in CASES for count in (1, 5)]
    + [(case, 64) for case in ("skew", "kurtosis-pearson-unbiased", "moment-5", "moment-center", "sem", "tvar", "tmax")]
    + [(case, count) for case in ("skew", "kurtosis", "moment-5") for count in (2, 4, 16, 64)],
)
def test_moments_merge_for_1_to_64_chunks(case, count):
    name, options = case.split("-")[0], CASES[case]
    func = getattr(tb.stats, name)
    x = _data()
    for axis in (0, -1, None):
        with no_compute():
            lazy = func(_chunked(x, count), axis=axis, **options)
        _check(lazy, func(x, axis=axis, **options), getattr(ss, name)(x, axis=axis, **options))


@pytest.mark.parametrize("name", ["skew", "kurtosis", "moment", "sem", "variation", "tvar"])
def test_keepdims_and_axes(name):
    x = _data((12, 10, 6), 1)
    d = da.from_array(x, chunks=(5, 3, 4))
    func = getattr(tb.stats, name)
    for axis in (0, 1, 2, -2, None):
        for keepdims in (False, True):
            _check(func(d, axis=axis, keepdims=keepdims), func(x, axis=axis, keepdims=keepdims))


def test_moment_with_several_orders():
    x = _data((40, 5), 2)
    lazy = tb.stats.moment(da.from_array(x, chunks=(7, 2)), order=[0, 1, 2, 4], axis=0)
    _check(lazy, tb.stats.moment(x, order=[0, 1, 2, 4], axis=0), ss.moment(x, order=[0, 1, 2, 4], axis=0))


def test_describe_is_its_result_class_of_lazy_arrays():
    x = _data((50, 6), 3)
    with no_compute():
        got = tb.stats.describe(da.from_array(x, chunks=(9, 4)), axis=0, ddof=1, bias=False)
    want = tb.stats.describe(x, axis=0, ddof=1, bias=False)
    assert type(got) is type(want) and got._fields == want._fields
    assert got.nobs == want.nobs == 50 and isinstance(got.nobs, np.int64)
    for g, w in zip((*got.minmax, *got[2:]), (*want.minmax, *want[2:])):
        _check(g, w)
    reference = ss.describe(x, axis=0, ddof=1, bias=False)
    np.testing.assert_allclose(got.kurtosis.compute(), reference.kurtosis, rtol=RTOL)


@pytest.mark.parametrize("name", ["zscore", "zmap"])
@pytest.mark.parametrize("axis", [0, 1, None])
def test_zscore_and_zmap_reduce_then_map_blocks(name, axis):
    x, compare = _data((30, 8), 4), _data((30, 8), 5) * 2 + 1
    d = da.from_array(x, chunks=(7, 3))
    if name == "zscore":
        with no_compute():
            lazy = tb.stats.zscore(d, axis=axis, ddof=1)
        eager, reference = tb.stats.zscore(x, axis=axis, ddof=1), ss.zscore(x, axis=axis, ddof=1)
    else:
        with no_compute():
            lazy = tb.stats.zmap(d, da.from_array(compare, chunks=(11, 8)), axis=axis)
        eager, reference = tb.stats.zmap(x, compare, axis=axis), ss.zmap(x, compare, axis=axis)
    assert lazy.chunks == d.chunks
    # z = (x - mean) / std: its rounding is relative to |x| / std, not to z
    _check(lazy, eager, reference, rtol=1e-12, atol=1e-14)


def test_zscore_of_a_constant_slice_is_nan_as_eagerly():
    x = _data((20, 3), 6)
    x[:, 1] = 7.0
    got = tb.stats.zscore(da.from_array(x, chunks=(6, 2)), axis=0).compute()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(tb.stats.zscore(x, axis=0)))
    assert np.isnan(got[:, 1]).all()


@pytest.mark.parametrize("name", ["skew", "kurtosis", "variation", "sem", "tmean", "tvar", "zscore"])
def test_float32_stays_float32(name):
    x = _data((100, 3), 7).astype(np.float32)
    func = getattr(tb.stats, name)
    lazy = func(da.from_array(x, chunks=(7, 2)), axis=0)
    eager = func(x, axis=0)
    assert lazy.dtype == eager.dtype == np.float32
    # the partials are float64: the chunked result is the float64 statistic rounded once
    _check(lazy, eager, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(lazy.compute(), func(x.astype(np.float64), axis=0), rtol=1e-6, atol=1e-7)


def test_a_large_mean_keeps_two_pass_accuracy():
    """1e9 + noise: x - 1e9 is exact, so SciPy on the shifted data is the reference. A
    one-pass (sum of powers) merge loses everything here; the two-pass eager result
    loses its third and fourth moments to the mean's rounding (3 m2 |dmean|); the
    merged partials keep the mean to twice the precision and lose neither."""
    x = 1e9 + _data((2000, 3), 8)
    shifted = x - 1e9
    d = da.from_array(x, chunks=(37, 2))
    for name in ("skew", "kurtosis", "sem"):
        got = getattr(tb.stats, name)(d, axis=0).compute()
        reference = getattr(ss, name)(shifted, axis=0)
        eager = getattr(tb.stats, name)(x, axis=0)
        # Fisher's kurtosis is b2 - 3: its rounding is relative to b2 (about 3), not to the difference
        atol = 3 * RTOL if name == "kurtosis" else ATOL
        np.testing.assert_allclose(got, reference, rtol=RTOL, atol=atol)
        assert np.all(np.abs(got - reference) <= np.abs(eager - reference) + atol)
    variance = tb.stats.describe(d, axis=0).variance.compute()
    np.testing.assert_allclose(variance, np.var(shifted, axis=0, ddof=1), rtol=1e-13)
    np.testing.assert_allclose(tb.stats.describe(d, axis=0).mean.compute() - 1e9, shifted.mean(axis=0), atol=2e-7)


def _with_nans(seed=9):
    x = _data((30, 5), seed)
    x[3, 1] = x[20, 2] = x[21, 2] = np.nan
    x[:, 4] = np.nan
    return x


@pytest.mark.parametrize("policy", ["propagate", "omit"])
@pytest.mark.parametrize("name", ["skew", "kurtosis", "moment", "sem", "variation", "tmean", "tvar", "tmin", "zscore"])
def test_nan_policies(name, policy):
    x = _with_nans()
    func = getattr(tb.stats, name)
    lazy = func(da.from_array(x, chunks=(7, 2)), axis=0, nan_policy=policy)
    with warnings.catch_warnings():  # the all-NaN column: SmallSampleWarning eagerly, NaN on both paths
        warnings.simplefilter("ignore")
        eager = func(x, axis=0, nan_policy=policy)
    got = lazy.compute()  # the dask path does not warn (see _moments)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(eager))
    np.testing.assert_allclose(got, eager, rtol=RTOL, atol=ATOL)


def test_limits_that_leave_no_value_give_nan():
    """Eagerly: InvalidArgumentError; lazily (not knowable while building): NaN for those slices."""
    x = _data((20, 3), 18)
    x[:, 1] += 100
    with pytest.raises(ValueError, match="No array values within given limits"):
        tb.stats.tmean(x[:, 1:2], limits=(-10, 10), axis=0)
    got = tb.stats.tmean(da.from_array(x, chunks=(6, 2)), limits=(-10, 10), axis=0).compute()
    np.testing.assert_array_equal(np.isnan(got), [False, True, False])
    np.testing.assert_allclose(got[[0, 2]], tb.stats.tmean(x[:, [0, 2]], limits=(-10, 10), axis=0), rtol=RTOL)


@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_describe_with_nans(policy):
    x = _with_nans()
    got = tb.stats.describe(da.from_array(x, chunks=(7, 2)), axis=0, nan_policy=policy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = tb.stats.describe(x, axis=0, nan_policy=policy)
    nobs = got.nobs.compute() if policy == "omit" else got.nobs
    np.testing.assert_array_equal(nobs, want.nobs)
    for g, w in zip((*got.minmax, *got[2:]), (*want.minmax, *want[2:])):  # an all-NaN column: min inf, max -inf
        np.testing.assert_allclose(g.compute(), w, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("name", ["skew", "moment", "tmean", "tmax", "zscore", "hmean", "entropy", "describe"])
def test_infinities_as_eagerly(name):
    """An infinite mean stays infinite through the merges (its lo part is dropped); inf - inf makes NaN."""
    x = _data((20, 5), 17)
    x[2, 0] = x[4, 1] = x[5, 4] = x[15, 4] = np.inf
    x[3, 1] = -np.inf
    func = getattr(tb.stats, name)
    for chunks in ((3, 4), (20, 2), (7, 5)):
        got = func(da.from_array(x, chunks=chunks), axis=0)
        with warnings.catch_warnings():  # hmean of negative values: NaN, with a warning eagerly
            warnings.simplefilter("ignore")
            want = func(x, axis=0)
        if name == "describe":
            got, want = got.mean, want.mean
        got = got.compute()
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


def test_nan_policy_raise_is_checked_at_compute():
    x = _with_nans()
    with no_compute():
        lazy = tb.stats.skew(da.from_array(x, chunks=(7, 2)), axis=0, nan_policy="raise")
        lazy_z = tb.stats.zscore(da.from_array(x, chunks=(7, 2)), axis=0, nan_policy="raise")
    for value in (lazy, lazy_z):
        with pytest.raises(ValueError, match="The input contains nan values"):
            value.compute()
    clean = _data((30, 5))
    _check(tb.stats.skew(da.from_array(clean, chunks=7), nan_policy="raise"), tb.stats.skew(clean))


def test_bad_options_fail_when_the_graph_is_built():
    d = da.from_array(_data(), chunks=8)
    with no_compute():
        with pytest.raises(ValueError):
            tb.stats.skew(d, nan_policy="sometimes")
        with pytest.raises(ValueError):
            tb.stats.moment(d, order=1.5)
        with pytest.raises(np.exceptions.AxisError):
            tb.stats.kurtosis(d, axis=2)
        with pytest.raises(UnsupportedParameterError, match="device="):
            tb.stats.skew(d, device="cpu")


def test_numpy_operand_beside_dask_and_single_values():
    x = _data((30, 4), 10)
    compare = _data((30, 4), 11)
    _check(tb.stats.zmap(da.from_array(x, chunks=5), compare), tb.stats.zmap(x, compare))
    _check(tb.stats.skew(da.from_array(x[:, 0], chunks=4)), tb.stats.skew(x[:, 0]))


def test_intermediate_partials_are_shared_between_describe_fields():
    """The describe fields share their chunk and merge tasks: computed together, the data are read once."""
    import dask

    d = da.from_array(_data((64, 4)), chunks=(8, 4))
    result = tb.stats.describe(d, axis=0)
    graph: dict = {}
    for field in (result.mean, result.variance, result.skewness, result.kurtosis):
        graph.update(dict(field.__dask_graph__()))
    chunk_tasks = {key for key in graph if isinstance(key, tuple) and str(key[0]).startswith("moments-chunk")}
    assert len(chunk_tasks) == d.npartitions
    means, variances = dask.compute(result.mean, result.variance)
    np.testing.assert_allclose(variances, np.var(_data((64, 4)), axis=0, ddof=1), rtol=RTOL)


POWER_MEANS = [
    ("gmean", {}),
    ("hmean", {}),
    ("pmean", {"p": 2.5}),
    ("pmean", {"p": -1.5}),
    ("gmean", {"weights": "full"}),
    ("hmean", {"weights": "column"}),
    ("pmean", {"p": 0.5, "weights": "full"}),
]


@pytest.mark.parametrize("name,options", POWER_MEANS)
def test_power_means_with_weights(name, options):
    rng = np.random.default_rng(12)
    x, w = np.abs(rng.standard_normal((40, 6))) + 0.1, rng.uniform(0.5, 2, (40, 6))
    options = dict(options)
    if options.get("weights") == "full":
        options["weights"] = w
    elif options.get("weights") == "column":
        options["weights"] = w[:, :1]
    func = getattr(tb.stats, name)
    for axis in (0, 1, None):
        with no_compute():
            lazy = func(da.from_array(x, chunks=(7, 4)), axis=axis, **options)
        reference = getattr(ss, name)(x, axis=axis, **options) if axis is not None or name == "gmean" else None
        _check(lazy, func(x, axis=axis, **options), reference)


@pytest.mark.parametrize("options", [{}, {"base": 2}, {"qk": "reversed"}, {"qk": "reversed", "base": 10}])
def test_entropy_normalises_by_a_reduction_first(options):
    x = np.abs(_data((40, 6), 13)) + 0.1
    options = dict(options)
    if "qk" in options:
        options["qk"] = da.from_array(x[::-1], chunks=(13, 6))
    d = da.from_array(x, chunks=(7, 4))
    for axis in (0, 1, None):
        with no_compute():
            lazy = tb.stats.entropy(d, axis=axis, **options)
        eager_options = {k: (x[::-1] if k == "qk" else v) for k, v in options.items()}
        _check(lazy, tb.stats.entropy(x, axis=axis, **eager_options), ss.entropy(x, axis=axis, **eager_options))


@pytest.mark.parametrize("policy", ["propagate", "omit"])
@pytest.mark.parametrize("name", ["gmean", "hmean", "entropy"])
def test_power_means_and_entropy_nan_policies(name, policy):
    x = np.abs(_data((30, 5), 14)) + 0.1
    x[3, 1] = np.nan
    func = getattr(tb.stats, name)
    got = func(da.from_array(x, chunks=(7, 2)), axis=0, nan_policy=policy).compute()
    eager = func(x, axis=0, nan_policy=policy)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(eager))
    np.testing.assert_allclose(got, eager, rtol=RTOL)


# --------------------------------------------------------------------------- order statistics

ORDER = [
    ("iqr", {}),
    ("iqr", {"rng": (10, 90), "scale": "normal", "keepdims": True}),
    ("median_abs_deviation", {"scale": "normal"}),
    ("trim_mean", {"proportiontocut": 0.1}),
    ("rankdata", {"method": "min"}),
    ("rankdata", {}),
    ("differential_entropy", {}),
]


@pytest.mark.parametrize("name,options", ORDER)
def test_order_statistics_along_one_chunked_axis_are_the_eager_result(name, options):
    x = _data((30, 8), 15)
    func = getattr(tb.stats, name)
    # the axis in one chunk already: no warning, the other axis in parallel
    with no_compute():
        lazy = func(da.from_array(x, chunks=(30, 3)), axis=0, **options)
    got, eager = lazy.compute(), func(x, axis=0, **options)
    assert got.dtype == eager.dtype and got.tobytes() == eager.tobytes()
    # the axis in several chunks: rechunked, with dask's PerformanceWarning (as dask.array.median)
    with no_compute(), pytest.warns(PerformanceWarning, match="axis 1 has 3 chunks"):
        lazy = func(da.from_array(x, chunks=(30, 3)), axis=1, **options)
    assert lazy.compute().tobytes() == func(x, axis=1, **options).tobytes()


def test_mode_is_its_result_class_of_lazy_arrays():
    x = np.random.default_rng(16).integers(0, 4, (30, 8))
    with no_compute():
        got = tb.stats.mode(da.from_array(x, chunks=(30, 3)), axis=0, keepdims=True)
    want = tb.stats.mode(x, axis=0, keepdims=True)
    assert type(got) is type(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g.compute(), w)


@pytest.mark.parametrize("name", ["iqr", "rankdata"])
def test_order_statistics_refuse_axis_none(name):
    d = da.from_array(_data(), chunks=8)
    with no_compute(), pytest.raises(UnsupportedParameterError, match="axis=None"):
        getattr(tb.stats, name)(d, axis=None)


@pytest.mark.parametrize("name", ["pearsonr", "ttest_1samp", "binned_statistic", "boxcox"])
def test_what_is_not_chunked_says_why(name):
    d = da.from_array(_data()[:, 0], chunks=8)
    args = {"pearsonr": (d,), "ttest_1samp": (0.0,), "binned_statistic": (d,), "boxcox": (1.0,)}[name]
    with no_compute(), pytest.raises(UnsupportedParameterError, match="on dask arrays"):
        getattr(tb.stats, name)(d, *args)
