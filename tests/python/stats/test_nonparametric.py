"""torchbridge.stats' nonparametric tests and estimators against SciPy 1.17.1:
``ks_1samp``/``ks_2samp`` (``_stats_py``), ``wilcoxon`` (``_morestats``),
``theilslopes`` (``_stats_mstats_common``).

Tolerances: statistics to 1e-12 relative (they are sums of ranks, CDF
differences or medians: usually exact); p-values to 1e-10 relative (the KS
distributions are ported from SciPy's algorithms and agree to ~1e-13 for
sizes up to 1e4; the one-sided Smirnov sum is computed from logarithms
where SciPy uses double-double arithmetic), 1e-8 for the two-sample exact
one-sided p-value with unequal sizes (a difference of binomials).
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
import scipy.stats as ss
import torch
from conftest import LIBRARIES, library_type, to_library, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import torchbridge as tb
from torchbridge import stats as ts

ALTERNATIVES = ["two-sided", "less", "greater"]


def run(module, name, *args, **kwargs):
    """The result and the sorted names of the warnings it gave (NumPy's
    floating-point ``RuntimeWarning`` noise aside: only SciPy's own)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            result = getattr(module, name)(*args, **kwargs)
    ours = ("ks_2samp", "identical")  # SciPy's own plain RuntimeWarnings
    names = sorted({w.category.__name__ for w in caught
                    if w.category is not RuntimeWarning or any(m in str(w.message) for m in ours)})
    return result, names


def same(got, expected, fields, rtol=1e-12, p_rtol=1e-10, atol=1e-300):
    assert len(tuple(got)) == len(tuple(expected))
    for f in fields:
        g, e = getattr(got, f), getattr(expected, f)
        tol = p_rtol if f == "pvalue" else rtol
        np.testing.assert_allclose(to_numpy(g).astype(float), np.asarray(e, dtype=float), rtol=tol, atol=atol,
                                   equal_nan=True, err_msg=f)
        assert np.shape(to_numpy(g)) == np.shape(e), (f, np.shape(to_numpy(g)), np.shape(e))


KS = ("statistic", "pvalue", "statistic_location", "statistic_sign")
WX = ("statistic", "pvalue")
TS = ("slope", "intercept", "low_slope", "high_slope")


# --------------------------------------------------------------------------- ks_2samp


@pytest.mark.parametrize("lib", LIBRARIES)
def test_ks_2samp_containers_and_axes(rng, lib):
    x, y = rng.normal(size=(30, 4)), rng.normal(0.4, 1.2, size=(22, 4))
    for axis in (0, -2, None):
        got = ts.ks_2samp(to_library(lib, x), to_library(lib, y), axis=axis)
        same(got, ss.ks_2samp(x, y, axis=axis), KS)
        if np.ndim(to_numpy(got.statistic)) or lib != "numpy":
            assert isinstance(got.statistic, library_type(lib))
    got = ts.ks_2samp(to_library(lib, x.T), to_library(lib, y.T), axis=1, keepdims=True)
    same(got, ss.ks_2samp(x.T, y.T, axis=1, keepdims=True), KS)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("method", ["auto", "exact", "asymp"])
def test_ks_2samp_methods(rng, alternative, method):
    for n1, n2 in [(1, 1), (3, 4), (10, 10), (10, 15), (25, 40), (50, 37), (200, 300), (64, 64)]:
        x, y = rng.normal(size=n1), rng.normal(0.3, 1, size=n2)
        p_rtol = 1e-8 if (alternative != "two-sided" and n1 != n2 and method != "asymp") else 1e-10
        got = ts.ks_2samp(x, y, alternative=alternative, method=method)
        with np.errstate(divide="ignore"):  # SciPy's kstwo at the effective size round(1/2) = 0
            expected = ss.ks_2samp(x, y, alternative=alternative, method=method)
        same(got, expected, KS, p_rtol=p_rtol)
        assert type(got.statistic_sign) is np.int8
    # ties across the samples, and integer data
    x, y = rng.integers(0, 5, 20).astype(float), rng.integers(0, 6, 17).astype(float)
    same(ts.ks_2samp(x, y, alternative=alternative, method=method),
         ss.ks_2samp(x, y, alternative=alternative, method=method), KS, p_rtol=1e-8)


def test_ks_2samp_large_and_fallback(rng):
    # auto switches to the asymptotic distribution beyond 10000 values
    x, y = rng.normal(size=12000), rng.normal(0.02, 1, size=300)
    same(ts.ks_2samp(x, y), ss.ks_2samp(x, y), KS)
    # exact one-sided counts that overflow: SciPy's fallback and warning
    x, y = rng.normal(size=1100), rng.normal(0.1, 1, size=1000)
    got, got_w = run(ts, "ks_2samp", x, y, alternative="less", method="exact")
    expected, expected_w = run(ss, "ks_2samp", x, y, alternative="less", method="exact")
    same(got, expected, KS)
    assert got_w == expected_w == ["RuntimeWarning"]


@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_ks_2samp_nan_policy(rng, nan_policy):
    x, y = rng.normal(size=(30, 4)), rng.normal(0.3, 1, size=(20, 4))
    x[3, 1] = np.nan
    y[[2, 5], 2] = np.nan
    for axis in (0, None):
        same(ts.ks_2samp(x, y, axis=axis, nan_policy=nan_policy),
             ss.ks_2samp(x, y, axis=axis, nan_policy=nan_policy), KS)
    with pytest.raises(ValueError, match="The input contains nan values"):
        ts.ks_2samp(x, y, nan_policy="raise")


def test_ks_2samp_edges():
    got, got_w = run(ts, "ks_2samp", np.array([]), np.array([1.0, 2.0]))
    expected, expected_w = run(ss, "ks_2samp", np.array([]), np.array([1.0, 2.0]))
    same(got, expected, KS)
    assert got_w == expected_w == ["SmallSampleWarning"]
    with pytest.raises(ValueError, match="Invalid value for mode"):
        ts.ks_2samp([1.0, 2.0], [3.0], method="fast")
    with pytest.raises(ValueError, match="Invalid value for alternative"):
        ts.ks_2samp([1.0, 2.0], [3.0], alternative="bigger")
    # SciPy reads alternatives by their first letter
    same(ts.ks_2samp([1.0, 2.5, 3.0], [0.5, 2.0], alternative="G"),
         ss.ks_2samp([1.0, 2.5, 3.0], [0.5, 2.0], alternative="G"), KS)
    res = ts.ks_2samp([1.0, 2.5, 3.0], [0.5, 2.0])
    stat, p = res
    assert (stat, p) == (res.statistic, res.pvalue)
    assert pickle.loads(pickle.dumps(res)).statistic_location == res.statistic_location


small_ints = st.lists(st.integers(-4, 4).map(float), min_size=1, max_size=25)


@settings(max_examples=60, deadline=None)
@given(small_ints, small_ints, st.sampled_from(ALTERNATIVES))
def test_ks_2samp_hypothesis(x, y, alternative):
    # heavy ties, any sizes: statistic, location and sign exactly, p-values as the exact counts allow
    x, y = np.array(x), np.array(y)
    expected, expected_w = run(ss, "ks_2samp", x, y, alternative=alternative)
    got, got_w = run(ts, "ks_2samp", x, y, alternative=alternative)
    same(got, expected, KS, p_rtol=1e-8)
    assert got_w == expected_w  # the fallback's RuntimeWarning where the exact p-value exceeds 1


@settings(max_examples=60, deadline=None)
@given(small_ints, st.sampled_from(ALTERNATIVES), st.sampled_from(["wilcox", "pratt", "zsplit"]))
def test_wilcoxon_hypothesis(d, alternative, zero_method):
    d = np.array(d) / 2
    kw = {"alternative": alternative, "zero_method": zero_method}
    try:
        expected = run(ss, "wilcoxon", d, **kw)[0]
    except ValueError as e:  # SciPy's permutation test refuses a single observation
        with pytest.raises(ValueError, match="two or more observations"):
            ts.wilcoxon(d, **kw)
        assert "two or more observations" in str(e)
        return
    same(run(ts, "wilcoxon", d, **kw)[0], expected, WX)


# --------------------------------------------------------------------------- ks_1samp


def torch_norm_cdf(t):
    return torch.special.ndtr(t)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_ks_1samp_containers(rng, lib):
    x = rng.normal(0.1, 1.1, size=(40, 3))
    if lib == "torch":
        cdf = torch_norm_cdf
    else:
        def cdf(a):  # the caller's container comes in; any container may go out
            assert isinstance(a, library_type(lib)), type(a)
            return ss.norm.cdf(to_numpy(a))
    for axis in (0, None):
        got = ts.ks_1samp(to_library(lib, x), cdf, axis=axis)
        same(got, ss.ks_1samp(x, ss.norm.cdf, axis=axis), KS)
        if np.ndim(to_numpy(got.statistic)) or lib != "numpy":
            assert isinstance(got.statistic, library_type(lib))


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("method", ["auto", "exact", "asymp", "approx"])
def test_ks_1samp_methods(rng, alternative, method):
    for n in (1, 2, 5, 20, 100, 141, 500, 3000):
        x = rng.normal(0.15, 1, size=n)
        got = ts.ks_1samp(x, ss.norm.cdf, alternative=alternative, method=method)
        same(got, ss.ks_1samp(x, ss.norm.cdf, alternative=alternative, method=method), KS)
        assert type(got.statistic_sign) is np.int8
    # args reach the CDF; tied data
    x = np.round(rng.gamma(2.0, size=60), 1)
    same(ts.ks_1samp(x, ss.gamma.cdf, args=(2.0,), alternative=alternative, method=method),
         ss.ks_1samp(x, ss.gamma.cdf, args=(2.0,), alternative=alternative, method=method), KS)


def test_ks_1samp_distribution_tails(rng):
    # far tails and the regions of each algorithm of the exact distribution
    for n, shift in [(10, 3.0), (80, 0.8), (150, 0.05), (150, 0.5), (1000, 0.02), (1000, 0.4), (20000, 0.01)]:
        x = rng.normal(shift, 1, size=n)
        same(ts.ks_1samp(x, ss.norm.cdf), ss.ks_1samp(x, ss.norm.cdf), KS)


@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_ks_1samp_nan_policy(rng, nan_policy):
    x = rng.normal(size=(25, 4))
    x[[1, 7], 1] = np.nan
    for axis in (0, None):
        same(ts.ks_1samp(x, ss.norm.cdf, axis=axis, nan_policy=nan_policy),
             ss.ks_1samp(x, ss.norm.cdf, axis=axis, nan_policy=nan_policy), KS)
    with pytest.raises(ValueError, match="The input contains nan values"):
        ts.ks_1samp(x, ss.norm.cdf, nan_policy="raise")


def test_ks_1samp_cdf_by_name(rng, monkeypatch):
    x = rng.normal(size=30)
    with pytest.raises(AttributeError, match="no_such_distribution"):
        ts.ks_1samp(x, "no_such_distribution")

    class Norm:
        @staticmethod
        def cdf(a, loc=0.0):
            return ss.norm.cdf(a, loc)

    monkeypatch.setattr(tb.stats, "norm", Norm, raising=False)
    same(ts.ks_1samp(x, "norm", args=(0.2,)), ss.ks_1samp(x, ss.norm.cdf, args=(0.2,)), KS)
    with pytest.raises(TypeError, match="not callable"):
        ts.ks_1samp(x, 3.0)


def test_ks_1samp_edges():
    got, got_w = run(ts, "ks_1samp", np.array([]), ss.norm.cdf)
    expected, expected_w = run(ss, "ks_1samp", np.array([]), ss.norm.cdf)
    same(got, expected, KS)
    assert got_w == expected_w == ["SmallSampleWarning"]
    with pytest.raises(ValueError, match="Unexpected value"):
        ts.ks_1samp([1.0, 2.0], ss.norm.cdf, alternative="bigger")
    with pytest.raises(ValueError, match="method"):
        ts.ks_1samp([1.0, 2.0], ss.norm.cdf, method="fast")
    x32 = np.array([0.3, -1.2, 0.8, 2.0], np.float32)
    got = ts.ks_1samp(x32, ss.norm.cdf)
    same(got, ss.ks_1samp(x32, ss.norm.cdf), KS, rtol=1e-6, p_rtol=1e-5)


# --------------------------------------------------------------------------- wilcoxon


@pytest.mark.parametrize("lib", LIBRARIES)
def test_wilcoxon_containers_and_axes(rng, lib):
    x, y = rng.normal(size=(12, 3)), rng.normal(0.3, 1, size=(12, 3))
    for axis in (0, -2, None):
        got = ts.wilcoxon(to_library(lib, x), to_library(lib, y), axis=axis)
        same(got, ss.wilcoxon(x, y, axis=axis), WX)
        if np.ndim(to_numpy(got.statistic)) or lib != "numpy":
            assert isinstance(got.statistic, library_type(lib))
    got = ts.wilcoxon(to_library(lib, x.T - y.T), axis=1, keepdims=True)
    same(got, ss.wilcoxon(x.T - y.T, axis=1, keepdims=True), WX)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("method", ["auto", "exact", "asymptotic"])
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("correction", [False, True])
def test_wilcoxon_options(rng, alternative, method, zero_method, correction):
    kw = {"alternative": alternative, "method": method, "zero_method": zero_method, "correction": correction}
    fields = WX + (("zstatistic",) if method == "asymptotic" else ())
    for n in (1, 4, 9, 13, 14, 30, 51, 80):
        d = rng.normal(0.2, 1, size=n)
        same(ts.wilcoxon(d, **kw), ss.wilcoxon(d, **kw), fields)
        # zeros and ties: the permutation test (n <= 13), else asymptotic, under "auto"
        d = np.round(rng.normal(0.3, 1, size=n) * 2) / 2
        got, expected = ts.wilcoxon(d, **kw), ss.wilcoxon(d, **kw)
        same(got, expected, fields)
        assert hasattr(got, "zstatistic") == hasattr(expected, "zstatistic")
    d = np.round(rng.normal(0.3, 1, size=(10, 4)) * 2) / 2
    same(ts.wilcoxon(d, **kw), ss.wilcoxon(d, **kw), fields)


@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_wilcoxon_nan_policy(rng, nan_policy):
    x, y = rng.normal(size=(15, 4)), rng.normal(0.4, 1, size=(15, 4))
    x[2, 1] = np.nan
    y[[4, 6], 2] = np.nan
    for method in ("auto", "asymptotic"):
        for axis in (0, None):
            kw = {"axis": axis, "nan_policy": nan_policy, "method": method}
            fields = WX + (("zstatistic",) if method == "asymptotic" else ())
            same(ts.wilcoxon(x, y, **kw), ss.wilcoxon(x, y, **kw), fields)
    # with NaN present SciPy chooses the method slice by slice: ties in one slice only
    d = rng.normal(size=(20, 3))
    d[:, 2] = np.round(d[:, 2])
    d[1, 0] = np.nan
    same(ts.wilcoxon(d, nan_policy=nan_policy), ss.wilcoxon(d, nan_policy=nan_policy), WX)
    with pytest.raises(ValueError, match="The input contains nan values"):
        ts.wilcoxon(x, y, nan_policy="raise")


def test_wilcoxon_edges(rng):
    got, got_w = run(ts, "wilcoxon", np.array([]))
    expected, expected_w = run(ss, "wilcoxon", np.array([]))
    same(got, expected, WX)
    assert got_w == expected_w == ["SmallSampleWarning"]
    for d in ([0.0, 0.0, 0.0], [1.0], [0.0, 1.5, -2.0, 1.5]):
        same(run(ts, "wilcoxon", d)[0], run(ss, "wilcoxon", d)[0], WX)
    with pytest.raises(ValueError, match="zero_method"):
        ts.wilcoxon([1.0, 2.0], zero_method="drop")
    with pytest.raises(ValueError, match="alternative"):
        ts.wilcoxon([1.0, 2.0], alternative="bigger")
    with pytest.raises(ValueError, match="method"):
        ts.wilcoxon([1.0, 2.0], method="fast")
    with pytest.raises(ValueError, match="same length"):
        ts.wilcoxon([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(NotImplementedError, match="PermutationMethod"):
        ts.wilcoxon([1.0, 2.0], method=ss.PermutationMethod())
    res = ts.wilcoxon(rng.normal(size=20), method="asymptotic")
    stat, p = res
    assert (stat, p) == (res.statistic, res.pvalue) and np.isfinite(res.zstatistic)
    assert not hasattr(ts.wilcoxon(rng.normal(size=20)), "zstatistic")
    x32 = rng.normal(size=20).astype(np.float32)
    assert to_numpy(ts.wilcoxon(x32).statistic).dtype == np.float32


# --------------------------------------------------------------------------- theilslopes


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("method", ["separate", "joint"])
def test_theilslopes(rng, lib, method):
    x = rng.normal(size=40)
    y = 1.5 * x + rng.normal(size=40)
    for alpha in (0.95, 0.1, 0.5):
        got = ts.theilslopes(to_library(lib, y), to_library(lib, x), alpha=alpha, method=method)
        same(got, ss.theilslopes(y, x, alpha=alpha, method=method), TS)
        if lib != "numpy":
            assert isinstance(got.slope, library_type(lib))
    # x defaults to arange(n); ties in x and y
    yi = np.round(y)
    same(ts.theilslopes(to_library(lib, yi), method=method), ss.theilslopes(yi, method=method), TS)
    xi = np.round(x * 2)
    same(ts.theilslopes(to_library(lib, yi), to_library(lib, xi), method=method),
         ss.theilslopes(yi, xi, method=method), TS)


def test_theilslopes_axes_and_nans(rng):
    x = rng.normal(size=(15, 3))
    y = 0.5 * x + rng.normal(size=(15, 3))
    for axis in (0, 1, None):
        same(ts.theilslopes(y, x, axis=axis), ss.theilslopes(y, x, axis=axis), TS)
    same(ts.theilslopes(y, x, axis=0, keepdims=True), ss.theilslopes(y, x, axis=0, keepdims=True), TS)
    y[3, 1] = np.nan
    for nan_policy in ("propagate", "omit"):
        same(ts.theilslopes(y, x, axis=0, nan_policy=nan_policy),
             ss.theilslopes(y, x, axis=0, nan_policy=nan_policy), TS)
    with pytest.raises(ValueError, match="The input contains nan values"):
        ts.theilslopes(y, x, axis=0, nan_policy="raise")


def test_theilslopes_edges():
    got, got_w = run(ts, "theilslopes", np.array([1.0]))
    expected, expected_w = run(ss, "theilslopes", np.array([1.0]))
    same(got, expected, TS)
    assert got_w == expected_w == ["SmallSampleWarning"]
    got, got_w = run(ts, "theilslopes", np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0]))
    expected, expected_w = run(ss, "theilslopes", np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0]))
    same(got, expected, TS)
    assert got_w == expected_w == ["RuntimeWarning"]
    with pytest.raises(ValueError, match="method"):
        ts.theilslopes([1.0, 2.0, 3.0], method="both")
    res = ts.theilslopes([1.0, 2.5, 2.9, 4.2])
    slope, intercept, low, high = res
    assert (slope, intercept, low, high) == (res.slope, res.intercept, res.low_slope, res.high_slope)


# --------------------------------------------------------------------------- binned_statistic

BS = ("statistic", "bin_edges", "binnumber")


def same_binned(got, expected, rtol=1e-12):
    assert len(got) == 3
    for f in BS:
        g, e = to_numpy(getattr(got, f)), np.asarray(getattr(expected, f))
        np.testing.assert_allclose(g.astype(float), e.astype(float), rtol=rtol, atol=1e-300, equal_nan=True,
                                   err_msg=f)
        assert g.shape == e.shape, (f, g.shape, e.shape)
    assert to_numpy(got.binnumber).dtype == np.int64


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("statistic", ["mean", "std", "median", "count", "sum", "min", "max"])
def test_binned_statistic(rng, lib, statistic):
    x = rng.normal(size=200)
    v = rng.normal(size=200) * 3 + x
    for bins in (10, 1, 7, [-3.0, -1.0, 0.0, 0.5, 2.0, 3.5]):
        for rng_ in (None, (-1.5, 1.5)):
            args = [to_library(lib, x), to_library(lib, v)]
            b = to_library(lib, np.asarray(bins)) if isinstance(bins, list) else bins
            got = ts.binned_statistic(*args, statistic=statistic, bins=b, range=rng_)
            expected = ss.binned_statistic(x, v, statistic=statistic, bins=bins, range=rng_)
            same_binned(got, expected)
            assert isinstance(got.statistic, library_type(lib))
    # several value sets at once; ties and the last edge (inclusive)
    xi = np.round(x * 2) / 2
    vv = np.stack([v, v**2, -v])
    same_binned(ts.binned_statistic(xi, vv, statistic, bins=5), ss.binned_statistic(xi, vv, statistic, bins=5))
    same_binned(ts.binned_statistic(xi, vv, statistic, bins=5, range=[(-1.0, 1.0)]),
                ss.binned_statistic(xi, vv, statistic, bins=5, range=[(-1.0, 1.0)]))


def test_binned_statistic_edges(rng):
    x = np.array([1.0, 1.0, 1.0])
    same_binned(ts.binned_statistic(x, x, "sum", bins=3), ss.binned_statistic(x, x, "sum", bins=3))
    x32 = rng.normal(size=50).astype(np.float32)
    got, expected = ts.binned_statistic(x32, x32, bins=4), ss.binned_statistic(x32, x32, bins=4)
    assert to_numpy(got.bin_edges).dtype == np.float32 and to_numpy(got.statistic).dtype == np.float64
    same_binned(got, expected, rtol=1e-6)
    v = rng.normal(size=50)
    with_nan = v.copy()
    with_nan[[3, 9]] = np.nan
    for statistic in ("min", "max", "mean"):
        same_binned(ts.binned_statistic(v, with_nan, statistic, bins=4),
                    ss.binned_statistic(v, with_nan, statistic, bins=4))
    with pytest.raises(ValueError, match="invalid statistic"):
        ts.binned_statistic(v, v, "mode")
    with pytest.raises(NotImplementedError, match="my_stat"):
        def my_stat(a):
            return np.max(a)

        ts.binned_statistic(v, v, my_stat)
    with pytest.raises(ValueError, match="non-finite"):
        ts.binned_statistic(with_nan, v)
    with pytest.raises(ValueError, match="start must be <= stop"):
        ts.binned_statistic(v, v, range=(1.0, 0.0))
    with pytest.raises(ValueError, match="numerically 0"):
        ts.binned_statistic(v, v, bins=[0.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="must match"):
        ts.binned_statistic(v, v[:10])
    res = ts.binned_statistic(v, v, bins=3)
    stat, edges, number = res
    assert stat is res.statistic and edges is res.bin_edges and number is res.binnumber
