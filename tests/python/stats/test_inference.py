"""torchbridge.stats' correlations and tests (`_stats_py`'s pearsonr, spearmanr,
kendalltau, linregress, the t tests, chisquare, power_divergence, f_oneway;
`_mannwhitneyu`; `_morestats`' boxcox/yeojohnson with a given lmbda;
`_entropy`'s differential_entropy) against SciPy 1.17.1."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
import scipy.stats as ss
from conftest import LIBRARIES, library_type, to_library, to_numpy
from hypothesis import given, settings
from hypothesis import strategies as st

import torchbridge as tb
from torchbridge import stats as ts
from torchbridge.stats._warnings_errors import ConstantInputWarning, NearConstantInputWarning

ALTERNATIVES = ["two-sided", "less", "greater"]


def run(module, name, *args, **kwargs):
    """The result and the set of warning categories' names it gave (SciPy's
    own classes; NumPy's floating-point ``RuntimeWarning`` noise is left out)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = getattr(module, name)(*args, **kwargs)
    return result, sorted({w.category.__name__ for w in caught if w.category is not RuntimeWarning})


def fields(result) -> dict:
    """The result's statistic fields (SciPy's and torchbridge's alike)."""
    out = {}
    for f in ("statistic", "pvalue", "df", "slope", "intercept", "rvalue", "stderr", "intercept_stderr"):
        if hasattr(result, f):
            out[f] = getattr(result, f)
    return out


def same(got, expected, rtol=1e-12, p_rtol=1e-10, atol=1e-300):
    g, e = fields(got), fields(expected)
    assert set(g) <= set(e) | {"df"}, (set(g), set(e))
    assert len(tuple(got)) == len(tuple(expected))
    for f, v in g.items():
        if f not in e:
            continue
        tol = p_rtol if f == "pvalue" else rtol
        np.testing.assert_allclose(
            to_numpy(v).astype(float), np.asarray(e[f], dtype=float), rtol=tol, atol=atol, equal_nan=True, err_msg=f
        )
        assert np.shape(to_numpy(v)) == np.shape(e[f]), (f, np.shape(to_numpy(v)), np.shape(e[f]))


# (name, sample maker, keywords, statistic rtol, p-value rtol)
def two(rng, shape=(12, 5)):
    return rng.normal(size=shape), rng.normal(0.3, 1.2, size=shape)


def one_pop(rng, shape=(12, 5)):
    return rng.normal(0.2, 1.0, size=shape), 0.1


def counts(rng, shape=(12, 5)):
    return (rng.integers(5, 30, size=shape).astype(float),)


def three(rng, shape=(12, 5)):
    return rng.normal(size=shape), rng.normal(0.4, 1.0, size=shape), rng.normal(-0.1, 2.0, size=(9,) + shape[1:])


def two_unequal(rng, shape=(12, 5)):
    return rng.normal(size=shape), rng.normal(0.3, 1.2, size=(15,) + shape[1:])


CASES = [
    ("ttest_ind", two_unequal, {}, 1e-12, 1e-10),
    ("ttest_ind", two_unequal, {"equal_var": False}, 1e-12, 1e-10),
    ("ttest_rel", two, {}, 1e-12, 1e-10),
    ("ttest_1samp", one_pop, {}, 1e-12, 1e-10),
    ("linregress", two, {}, 1e-12, 1e-10),
    ("kendalltau", two, {"method": "asymptotic"}, 1e-12, 1e-10),
    ("kendalltau", two, {}, 1e-12, 1e-10),
    ("kendalltau", two, {"variant": "c", "method": "asymptotic"}, 1e-12, 1e-10),
    ("mannwhitneyu", two_unequal, {}, 1e-12, 1e-10),
    ("mannwhitneyu", two_unequal, {"use_continuity": False}, 1e-12, 1e-10),
    ("chisquare", counts, {}, 1e-12, 1e-10),
    ("power_divergence", counts, {"lambda_": "log-likelihood"}, 1e-12, 1e-10),
    ("power_divergence", counts, {"lambda_": "cressie-read"}, 1e-12, 1e-10),
    ("power_divergence", counts, {"lambda_": "neyman"}, 1e-12, 1e-10),
    ("power_divergence", counts, {"lambda_": "mod-log-likelihood"}, 1e-12, 1e-10),
    ("power_divergence", counts, {"lambda_": "freeman-tukey"}, 1e-12, 1e-10),
    ("power_divergence", counts, {"lambda_": 1.7}, 1e-12, 1e-10),
    ("f_oneway", three, {}, 1e-12, 1e-10),
    ("f_oneway", three, {"equal_var": False}, 1e-12, 1e-10),
]
IDS = [f"{c[0]}-{i}" for i, c in enumerate(CASES)]
TAKES_ALTERNATIVE = {"ttest_ind", "ttest_rel", "ttest_1samp", "linregress", "kendalltau", "mannwhitneyu"}


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize(("name", "make", "kwargs", "rtol", "p_rtol"), CASES, ids=IDS)
def test_matches_scipy_in_every_container_and_axis(rng, lib, name, make, kwargs, rtol, p_rtol):
    samples = make(rng)
    for axis in (0, 1, -1, None):
        if name in ("f_oneway", "ttest_ind", "mannwhitneyu") and axis in (1, -1):
            continue  # the samples differ in length along axis 0 only
        kw = {**kwargs, "axis": axis}
        args = [to_library(lib, s) if isinstance(s, np.ndarray) else s for s in samples]
        got, got_w = run(ts, name, *args, **kw)
        expected, expected_w = run(ss, name, *samples, **kw)
        same(got, expected, rtol, p_rtol)
        assert got_w == expected_w
        stat = got[0]
        if np.ndim(to_numpy(stat)) or lib != "numpy":
            assert isinstance(stat, library_type(lib)), type(stat)


@pytest.mark.parametrize(("name", "make", "kwargs", "rtol", "p_rtol"), [c for c in CASES if c[0] in TAKES_ALTERNATIVE],
                         ids=[i for i, c in zip(IDS, CASES, strict=True) if c[0] in TAKES_ALTERNATIVE])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_alternatives(rng, name, make, kwargs, rtol, p_rtol, alternative):
    samples = make(rng)
    got = getattr(ts, name)(*samples, alternative=alternative, **kwargs)
    expected = getattr(ss, name)(*samples, alternative=alternative, **kwargs)
    same(got, expected, rtol, p_rtol)


@pytest.mark.parametrize(("name", "make", "kwargs", "rtol", "p_rtol"), CASES, ids=IDS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_keepdims_and_scalars(rng, name, make, kwargs, rtol, p_rtol, keepdims):
    samples = make(rng, (12, 4))
    for axis in (0, None):
        got = getattr(ts, name)(*samples, axis=axis, keepdims=keepdims, **kwargs)
        expected = getattr(ss, name)(*samples, axis=axis, keepdims=keepdims, **kwargs)
        same(got, expected, rtol, p_rtol)
        assert type(got[0]) is type(expected[0]), (type(got[0]), type(expected[0]))


@pytest.mark.parametrize(("name", "make", "kwargs", "rtol", "p_rtol"), CASES, ids=IDS)
@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
def test_nan_policy(rng, name, make, kwargs, rtol, p_rtol, nan_policy):
    samples = [s.copy() if isinstance(s, np.ndarray) else s for s in make(rng, (14, 4))]
    a = samples[0]
    a[1, 0] = a[5, 0] = a[2, 2] = np.nan
    if name in ("kendalltau", "mannwhitneyu") and nan_policy == "omit" and kwargs.get("method") != "asymptotic":
        kwargs = {**kwargs, "method": "asymptotic"}
    for axis in (0, None):
        kw = {**kwargs, "axis": axis, "nan_policy": nan_policy}
        got, got_w = run(ts, name, *samples, **kw)
        expected, expected_w = run(ss, name, *samples, **kw)
        same(got, expected, rtol, p_rtol)
    with pytest.raises(ValueError, match="The input contains nan values"):
        getattr(ts, name)(*samples, nan_policy="raise", **kwargs)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_pearsonr(rng, lib, alternative):
    x = rng.normal(size=(6, 30))
    y = 0.4 * x + rng.normal(size=(6, 30))
    for axis in (1, -1, None):
        got = ts.pearsonr(to_library(lib, x), to_library(lib, y), alternative=alternative, axis=axis)
        expected = ss.pearsonr(x, y, alternative=alternative, axis=axis)
        same(got, expected)
    got = ts.pearsonr(x.T, y.T, alternative=alternative)
    same(got, ss.pearsonr(x.T, y.T, alternative=alternative))
    # broadcasting
    same(ts.pearsonr(x, y[:1], axis=1), ss.pearsonr(x, y[:1], axis=1))
    # deviations whose squares overflow or underflow: the rescaled sums
    for scale in (1e200, 1e-200):
        same(ts.pearsonr(x * scale, y, axis=1), ss.pearsonr(x * scale, y, axis=1))


def test_pearsonr_edges(rng):
    # n = 2: r is +-1 and p is 1
    same(ts.pearsonr([1.0, 2.0], [3.0, 1.0]), ss.pearsonr([1.0, 2.0], [3.0, 1.0]))
    # constant input: NaN and SciPy's warning
    got, got_w = run(ts, "pearsonr", np.ones(5), np.arange(5.0))
    expected, expected_w = run(ss, "pearsonr", np.ones(5), np.arange(5.0))
    same(got, expected)
    assert got_w == expected_w == ["ConstantInputWarning"]
    with pytest.warns(ConstantInputWarning):
        ts.pearsonr(np.ones(5), np.arange(5.0))
    # nearly constant
    x = 1e9 + np.array([0.0, 1e-7, 2e-7, 0.0])
    with pytest.warns(NearConstantInputWarning):
        ts.pearsonr(x, np.arange(4.0))
    # NaN propagates, float32 stays float32
    xn, yn = [1.0, np.nan, 3.0, 4.0], [1.0, 2.0, 0.0, 3.0]
    same(ts.pearsonr(xn, yn), ss.pearsonr(xn, yn))
    x32 = rng.normal(size=20).astype(np.float32)
    got = ts.pearsonr(x32, x32 * 2 + rng.normal(size=20).astype(np.float32))
    assert to_numpy(got.statistic).dtype == np.float32
    with pytest.raises(ValueError, match="length at least 2"):
        ts.pearsonr([1.0], [2.0])
    with pytest.raises(ValueError, match="broadcastable"):
        ts.pearsonr(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="same length"):
        ts.pearsonr(np.ones((3, 1)), np.ones((1, 4)))
    with pytest.raises(NotImplementedError, match="method"):
        ts.pearsonr(np.arange(4.0), np.arange(4.0), method=ss.PermutationMethod())
    with pytest.raises(ValueError, match="alternative"):
        ts.pearsonr(np.arange(4.0), np.arange(4.0), alternative="two")


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_spearmanr(rng, alternative):
    x = rng.normal(size=(25, 4))
    x[:, 1] = np.round(x[:, 0] * 2) + rng.integers(0, 2, 25)  # ties
    same(ts.spearmanr(x[:, 0], x[:, 1], alternative=alternative),
         ss.spearmanr(x[:, 0], x[:, 1], alternative=alternative))
    for axis in (0, 1):
        a = x if axis == 0 else x.T
        same(ts.spearmanr(a, axis=axis, alternative=alternative), ss.spearmanr(a, axis=axis, alternative=alternative))
    same(ts.spearmanr(x[:, :2], x[:, 2:]), ss.spearmanr(x[:, :2], x[:, 2:]))
    same(ts.spearmanr(x.T[:2], x.T[2:], axis=1), ss.spearmanr(x.T[:2], x.T[2:], axis=1))
    same(ts.spearmanr(x[:, 0], x[:, 1], axis=None), ss.spearmanr(x[:, 0], x[:, 1], axis=None))
    got = ts.spearmanr(to_library("torch", x[:, 0]), to_library("torch", x[:, 1]))
    assert isinstance(got.statistic, library_type("torch"))
    assert got.correlation is not None


def test_spearmanr_edges_and_nans(rng):
    x = rng.normal(size=(20, 3))
    got, got_w = run(ts, "spearmanr", np.ones(6), np.arange(6.0))
    expected, expected_w = run(ss, "spearmanr", np.ones(6), np.arange(6.0))
    same(got, expected)
    assert got_w == expected_w
    same(ts.spearmanr([1.0], [2.0]), ss.spearmanr([1.0], [2.0]))
    y = x.copy()
    y[3, 1] = np.nan
    for policy in ("propagate", "omit"):
        same(ts.spearmanr(y[:, 0], y[:, 1], nan_policy=policy), ss.spearmanr(y[:, 0], y[:, 1], nan_policy=policy))
    same(ts.spearmanr(y, nan_policy="propagate"), ss.spearmanr(y, nan_policy="propagate"))
    with pytest.raises(ValueError, match="nan values"):
        ts.spearmanr(y, nan_policy="raise")
    with pytest.raises(NotImplementedError):
        ts.spearmanr(y, nan_policy="omit")
    with pytest.raises(ValueError, match="at least 2 variables"):
        ts.spearmanr(np.arange(5.0))
    with pytest.raises(ValueError, match="axis"):
        ts.spearmanr(x, axis=2)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("n", [2, 3, 5, 12, 33, 34, 60])
def test_kendalltau_exact_and_auto(rng, alternative, n):
    x = rng.normal(size=n)
    y = x + rng.normal(size=n)
    for method in ("auto", "exact") if n == 2 else ("auto", "exact", "asymptotic"):  # SciPy divides by n - 2
        same(ts.kendalltau(x, y, method=method, alternative=alternative),
             ss.kendalltau(x, y, method=method, alternative=alternative), p_rtol=1e-9)
    # sorted and nearly sorted data take the exact path for any n
    same(ts.kendalltau(np.arange(n), np.arange(n) ** 2, alternative=alternative),
         ss.kendalltau(np.arange(n), np.arange(n) ** 2, alternative=alternative))


def test_kendalltau_ties_and_edges(rng):
    x = rng.integers(0, 4, 40).astype(float)
    y = rng.integers(0, 5, 40).astype(float)
    for variant in ("b", "c"):
        same(ts.kendalltau(x, y, variant=variant), ss.kendalltau(x, y, variant=variant))
    with pytest.raises(ValueError, match="Ties found"):
        ts.kendalltau(x, y, method="exact")
    same(ts.kendalltau(np.ones(5), np.arange(5.0)), ss.kendalltau(np.ones(5), np.arange(5.0)))
    got, got_w = run(ts, "kendalltau", [1.0], [2.0])
    expected, expected_w = run(ss, "kendalltau", [1.0], [2.0])
    same(got, expected)
    assert got_w == expected_w
    with pytest.raises(ValueError, match="method"):
        ts.kendalltau(x, y, method="fast")
    with pytest.raises(ValueError, match="variant"):
        ts.kendalltau(x, y, variant="a")
    # inf compares like a number
    z = rng.normal(size=10)
    z[3] = np.inf
    same(ts.kendalltau(z, np.arange(10.0)), ss.kendalltau(z, np.arange(10.0)))


def test_linregress_edges(rng):
    same(ts.linregress([1.0, 2.0], [3.0, 5.0]), ss.linregress([1.0, 2.0], [3.0, 5.0]))
    same(ts.linregress([1.0, 2.0], [3.0, 3.0]), ss.linregress([1.0, 2.0], [3.0, 3.0]))
    x = np.arange(10.0)
    same(ts.linregress(x, 2 * x + 1), ss.linregress(x, 2 * x + 1), atol=1e-14)
    same(ts.linregress(x, np.ones(10)), ss.linregress(x, np.ones(10)))
    res = ts.linregress(x, x + rng.normal(size=10))
    slope, intercept, r, p, se = res
    assert res.intercept_stderr is not None
    with pytest.raises(ValueError, match="identical"):
        ts.linregress(np.ones(4), np.arange(4.0))
    with pytest.raises(ValueError, match="empty"):
        ts.linregress([], [])


def test_ttest_edges(rng):
    for name, args in [
        ("ttest_1samp", (np.ones(5), 1.0)),
        ("ttest_1samp", (np.array([1.0, 2.0]), 0.5)),
        ("ttest_1samp", (np.array([1.0]), 0.5)),
        ("ttest_ind", (np.ones(4), np.ones(6) * 2)),
        ("ttest_ind", (np.array([1.0]), np.array([2.0, 3.0, 4.0]))),
        ("ttest_ind", (np.array([1.0, np.inf]), np.array([2.0, 3.0, 4.0]))),
        ("ttest_rel", (np.array([1.0, 2.0]), np.array([2.0, 3.5]))),
        ("ttest_1samp", (np.array([]), 0.0)),
        ("ttest_ind", (np.array([]), np.array([1.0, 2.0]))),
    ]:
        for kw in ({}, {"equal_var": False}) if name == "ttest_ind" else ({},):
            got, got_w = run(ts, name, *args, **kw)
            expected, expected_w = run(ss, name, *args, **kw)
            same(got, expected)
            assert got_w == expected_w, (name, args, got_w, expected_w)
    # popmean as an array kept along the reduced axis
    a = rng.normal(size=(8, 3))
    pm = np.array([[0.1, -0.2, 0.3]])
    same(ts.ttest_1samp(a, pm), ss.ttest_1samp(a, pm))
    with pytest.raises(NotImplementedError, match="trim"):
        ts.ttest_ind(a, a, trim=0.2)
    with pytest.raises(ValueError, match="Trimming"):
        ts.ttest_ind(a, a, trim=0.7)
    with pytest.raises(NotImplementedError, match="method"):
        ts.ttest_ind(a, a, method=ss.PermutationMethod())
    res = ts.ttest_ind(a, a[::-1] + 1)
    t, p = res
    assert res.df is not None
    assert pickle.loads(pickle.dumps(res))[0] is not None


def test_chisquare_and_power_divergence(rng):
    obs = np.array([16.0, 18, 16, 14, 12, 12])
    exp = np.array([16.0, 16, 16, 16, 16, 8])
    same(ts.chisquare(obs), ss.chisquare(obs))
    same(ts.chisquare(obs, exp), ss.chisquare(obs, exp))
    same(ts.chisquare(obs, ddof=2), ss.chisquare(obs, ddof=2))
    names = ("pearson", "log-likelihood", "freeman-tukey", "mod-log-likelihood", "neyman", "cressie-read")
    for lam in (*names, 0, -1, 0.5):
        same(ts.power_divergence(obs, exp, lambda_=lam), ss.power_divergence(obs, exp, lambda_=lam))
    with_zero = np.array([0.0, 10.0, 5.0])
    for lam in ("log-likelihood", "pearson"):
        same(ts.power_divergence(with_zero, lambda_=lam), ss.power_divergence(with_zero, lambda_=lam))
    with pytest.raises(ValueError, match="invalid string for lambda_"):
        ts.power_divergence(obs, lambda_="pearsons")
    with pytest.raises(ValueError, match="relative tolerance"):
        ts.chisquare(obs, exp * 2)
    same(ts.chisquare(obs, exp * 2, sum_check=False), ss.chisquare(obs, exp * 2, sum_check=False))
    # integers give float64, an f_exp broadcast against f_obs
    o = rng.integers(5, 20, size=(6, 3))
    same(ts.chisquare(o), ss.chisquare(o))
    e = np.full((6, 1), 1.0) * o.sum(axis=0) / 6
    same(ts.chisquare(o, e), ss.chisquare(o, e))


def test_f_oneway_edges(rng):
    a, b, c = rng.normal(size=5), rng.normal(size=7), rng.normal(size=4)
    same(ts.f_oneway(a, b), ss.f_oneway(a, b))
    for args in [(np.ones(3), np.ones(4) * 2), (np.ones(3), np.ones(4)), (np.array([1.0]), np.array([2.0])),
                 (np.array([]), b)]:
        got, got_w = run(ts, "f_oneway", *args)
        expected, expected_w = run(ss, "f_oneway", *args)
        same(got, expected)
        assert got_w == expected_w, (args, got_w, expected_w)
    same(ts.f_oneway(a, b, c, equal_var=False), ss.f_oneway(a, b, c, equal_var=False))
    with pytest.raises(TypeError, match="At least two samples"):
        ts.f_oneway(a)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_mannwhitneyu_methods(rng, alternative):
    for n1, n2 in [(3, 5), (8, 12), (6, 6), (9, 9), (20, 4), (1, 1)]:
        x, y = rng.normal(size=n1), rng.normal(0.5, 1, size=n2)
        for method in ("auto", "asymptotic", "exact"):
            for cont in (True, False):
                kw = {"alternative": alternative, "method": method, "use_continuity": cont}
                same(ts.mannwhitneyu(x, y, **kw), ss.mannwhitneyu(x, y, **kw), p_rtol=1e-9)
    # ties force the asymptotic test under "auto"
    x, y = rng.integers(0, 4, 6).astype(float), rng.integers(0, 4, 5).astype(float)
    same(ts.mannwhitneyu(x, y, alternative=alternative), ss.mannwhitneyu(x, y, alternative=alternative))
    x2, y2 = rng.normal(size=(5, 3)), rng.normal(size=(7, 3))
    same(ts.mannwhitneyu(x2, y2, alternative=alternative), ss.mannwhitneyu(x2, y2, alternative=alternative))
    with pytest.raises(ValueError, match="method"):
        ts.mannwhitneyu(x, y, method="fast")


@pytest.mark.parametrize("lmbda", [0.0, 1e-20, 0.5, -1.3, 2.0, 3.0])
@pytest.mark.parametrize("lib", LIBRARIES)
def test_boxcox_yeojohnson(rng, lmbda, lib):
    x = rng.random(20) * 3 + 0.1
    got = ts.boxcox(to_library(lib, x), lmbda=lmbda)
    assert isinstance(got, library_type(lib))
    np.testing.assert_allclose(to_numpy(got), ss.boxcox(x, lmbda=lmbda), rtol=1e-13, atol=1e-15)
    z = rng.normal(size=20) * 3
    z[:2] = [0.0, -0.0]
    got = ts.yeojohnson(to_library(lib, z), lmbda=lmbda)
    np.testing.assert_allclose(to_numpy(got), ss.yeojohnson(z, lmbda=lmbda), rtol=1e-13, atol=1e-15)


def test_boxcox_yeojohnson_edges():
    x32 = np.array([0.5, 1.5, 2.5], np.float32)
    assert to_numpy(ts.boxcox(x32, 0.5)).dtype == ss.boxcox(x32, 0.5).dtype
    assert to_numpy(ts.yeojohnson(x32, 0.5)).dtype == ss.yeojohnson(x32, 0.5).dtype
    ints = np.array([1, 2, 3])
    np.testing.assert_allclose(to_numpy(ts.yeojohnson(ints, 0.3)), ss.yeojohnson(ints, 0.3), rtol=1e-14)
    np.testing.assert_allclose(to_numpy(ts.boxcox(ints, 0.3)), ss.boxcox(ints, 0.3), rtol=1e-14)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -1.0])
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(to_numpy(ts.yeojohnson(special, 0.7)), ss.yeojohnson(special, 0.7), rtol=1e-14)
        np.testing.assert_allclose(to_numpy(ts.boxcox(special, 0.7)), ss.boxcox(special, 0.7), rtol=1e-14)
    assert to_numpy(ts.yeojohnson(np.array([]), 0.5)).shape == (0,)
    with pytest.raises(NotImplementedError, match="lmbda"):
        ts.boxcox(np.array([1.0, 2.0]))
    with pytest.raises(NotImplementedError, match="lmbda"):
        ts.yeojohnson(np.array([1.0, 2.0]))


@pytest.mark.parametrize("method", ["auto", "vasicek", "van es", "ebrahimi", "correa"])
@pytest.mark.parametrize("lib", LIBRARIES)
def test_differential_entropy(rng, method, lib):
    for n in (5, 11, 40, 1200):
        x = rng.normal(size=(3, n))
        for kw in ({}, {"base": 2.0}, {"window_length": 2}):
            got = ts.differential_entropy(to_library(lib, x), axis=1, method=method, **kw)
            expected = ss.differential_entropy(x, axis=1, method=method, **kw)
            np.testing.assert_allclose(to_numpy(got), expected, rtol=1e-11)
    x = rng.normal(size=(30, 2))
    np.testing.assert_allclose(to_numpy(ts.differential_entropy(x)), ss.differential_entropy(x), rtol=1e-11)
    got = ts.differential_entropy(x, keepdims=True)
    assert np.shape(got) == np.shape(ss.differential_entropy(x, keepdims=True))


def test_differential_entropy_edges(rng):
    for args, kw in [((np.ones(3),), {}), ((rng.normal(size=10),), {"window_length": 5}), ((np.array([]),), {})]:
        got, got_w = run(ts, "differential_entropy", *args, **kw)
        expected, expected_w = run(ss, "differential_entropy", *args, **kw)
        np.testing.assert_allclose(to_numpy(got), expected, equal_nan=True)
        assert got_w == expected_w
    x = rng.normal(size=30)
    x[4] = np.nan
    for policy in ("propagate", "omit"):
        np.testing.assert_allclose(to_numpy(ts.differential_entropy(x, nan_policy=policy)),
                                   ss.differential_entropy(x, nan_policy=policy), rtol=1e-12, equal_nan=True)
    with pytest.raises(ValueError, match="method"):
        ts.differential_entropy(x, method="kde")
    with pytest.raises(ValueError, match="base"):
        ts.differential_entropy(rng.normal(size=30), base=-1.0)


@settings(max_examples=25, deadline=None)
@given(
    n1=st.integers(2, 30),
    n2=st.integers(2, 30),
    cols=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
    equal_var=st.booleans(),
)
def test_hypothesis_ttest_ind_and_mannwhitneyu(n1, n2, cols, seed, equal_var):
    g = np.random.default_rng(seed)
    a, b = g.normal(size=(n1, cols)), g.normal(0.2, 1.5, size=(n2, cols))
    same(ts.ttest_ind(a, b, equal_var=equal_var), ss.ttest_ind(a, b, equal_var=equal_var), p_rtol=1e-9)
    same(ts.mannwhitneyu(a, b), ss.mannwhitneyu(a, b), p_rtol=1e-9)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 60), seed=st.integers(0, 2**32 - 1), rho=st.floats(-0.99, 0.99))
def test_hypothesis_correlations(n, seed, rho):
    g = np.random.default_rng(seed)
    x = g.normal(size=n)
    y = rho * x + np.sqrt(1 - rho**2) * g.normal(size=n)
    same(ts.pearsonr(x, y), ss.pearsonr(x, y), rtol=1e-11, p_rtol=1e-9)
    same(ts.spearmanr(x, y), ss.spearmanr(x, y), rtol=1e-11, p_rtol=1e-9)
    same(ts.kendalltau(x, y), ss.kendalltau(x, y), rtol=1e-11, p_rtol=1e-9)
    same(ts.linregress(x, y), ss.linregress(x, y), rtol=1e-10, p_rtol=1e-9)


def test_device_keyword_and_public_faces():
    x = np.arange(6.0)
    same(ts.ttest_1samp(x, 1.0, device="cpu"), ss.ttest_1samp(x, 1.0))
    for name in ("pearsonr", "ttest_ind", "mannwhitneyu", "boxcox", "differential_entropy"):
        assert name in ts.__all__
        assert callable(getattr(tb.stats, name))
