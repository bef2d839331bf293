"""On a GPU: the main stats routines on CUDA tensors compute there and return
CUDA tensors equal to SciPy's; numpy input with ``device="cuda"`` comes back as
numpy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.stats as ss
from conftest import require_cuda

from torchbridge import stats as ts

CASES = [
    ("skew", (), {"axis": 0}),
    ("kurtosis", (), {"axis": 1, "bias": False}),
    ("moment", (), {"order": [2, 3]}),
    ("sem", (), {}),
    ("variation", (), {}),
    ("gmean", (), {}),
    ("hmean", (), {}),
    ("pmean", (1.5,), {}),
    ("iqr", (), {"axis": 0}),
    ("median_abs_deviation", (), {}),
    ("trim_mean", (0.1,), {}),
    ("tmean", (), {"limits": (0.2, 0.9)}),
    ("tvar", (), {}),
    ("tmin", (0.3,), {}),
    ("entropy", (), {}),
    ("zscore", (), {}),
    ("rankdata", (), {"axis": 0}),
]


@pytest.mark.gpu
@pytest.mark.parametrize(("name", "args", "kwargs"), CASES, ids=[c[0] for c in CASES])
def test_on_cuda_tensors(rng, name, args, kwargs):
    require_cuda()
    import torch

    a = rng.random((300, 40)) + 0.05
    a[5, 3] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(ss, name)(a, *args, **kwargs, nan_policy="omit")
    got = getattr(ts, name)(torch.from_numpy(a).cuda(), *args, **kwargs, nan_policy="omit")
    assert isinstance(got, torch.Tensor) and got.is_cuda
    np.testing.assert_allclose(got.cpu().numpy(), expected, rtol=1e-10, atol=1e-12)
    on_device = getattr(ts, name)(a, *args, **kwargs, nan_policy="omit", device="cuda")
    assert type(on_device) is np.ndarray
    np.testing.assert_allclose(on_device, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.gpu
def test_mode_and_describe_on_cuda(rng):
    require_cuda()
    import torch

    a = rng.integers(0, 5, (200, 30))
    got = ts.mode(torch.from_numpy(a).cuda())
    expected = ss.mode(a)
    assert got.mode.is_cuda
    np.testing.assert_array_equal(got.mode.cpu().numpy(), expected.mode)
    np.testing.assert_array_equal(got.count.cpu().numpy(), expected.count)
    x = rng.standard_normal((500, 8)) + 1e9
    d = ts.describe(torch.from_numpy(x).cuda())
    e = ss.describe(x)
    np.testing.assert_allclose(d.variance.cpu().numpy(), e.variance, rtol=1e-6)
    np.testing.assert_allclose(d.skewness.cpu().numpy(), ss.skew(x - 1e9), atol=1e-6)


TESTS = [
    ("pearsonr", 2, {"axis": 1}),
    ("ttest_ind", 2, {"equal_var": False}),
    ("ttest_rel", 2, {}),
    ("ttest_1samp", 1, {}),
    ("linregress", 2, {}),
    ("kendalltau", 2, {"axis": 0, "method": "asymptotic"}),
    ("kendalltau", 2, {"axis": 0}),
    ("mannwhitneyu", 2, {}),
    ("chisquare", 1, {}),
    ("power_divergence", 1, {"lambda_": "log-likelihood"}),
    ("f_oneway", 3, {}),
]


@pytest.mark.gpu
@pytest.mark.parametrize(("name", "k", "kwargs"), TESTS, ids=[f"{t[0]}-{i}" for i, t in enumerate(TESTS)])
def test_tests_on_cuda_tensors(rng, name, k, kwargs):
    """The correlations and tests on CUDA: statistic and p-value on the device, equal to SciPy's."""
    require_cuda()
    import torch

    samples = [rng.random((30, 12)) + 0.5 for _ in range(k)]
    args = list(samples) + ([0.6] if name == "ttest_1samp" else [])
    expected = getattr(ss, name)(*args, **kwargs)
    cuda_args = [torch.from_numpy(s).cuda() for s in samples] + args[k:]
    got = getattr(ts, name)(*cuda_args, **kwargs)
    assert got[0].is_cuda and got[1].is_cuda
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g.cpu().numpy(), e, rtol=1e-10, atol=1e-300)


DISTRIBUTIONS = [
    ("norm", (), "cdf"), ("norm", (), "logsf"), ("gamma", (2.5,), "ppf"), ("beta", (2.3, 3.7), "sf"),
    ("t", (4.5,), "cdf"), ("f", (4.5, 7.5), "isf"), ("lognorm", (0.7,), "pdf"), ("weibull_min", (1.7,), "logcdf"),
    ("poisson", (3.7,), "pmf"), ("binom", (12, 0.35), "ppf"), ("nbinom", (4.5, 0.4), "cdf"),
]


@pytest.mark.gpu
@pytest.mark.parametrize(("name", "shapes", "method"), DISTRIBUTIONS, ids=[f"{d[0]}-{d[2]}" for d in DISTRIBUTIONS])
def test_distributions_on_cuda_tensors(rng, name, shapes, method):
    """The distributions' methods on CUDA tensors (parameters too) stay there and equal SciPy's."""
    require_cuda()
    import torch

    x = rng.random(500) if method in ("ppf", "isf") else rng.random(500) * 6
    params = [torch.tensor(float(s), device="cuda") for s in shapes]
    got = getattr(getattr(ts, name), method)(torch.from_numpy(x).cuda(), *params, loc=0.5)
    assert got.is_cuda and got.dtype == torch.float64
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = getattr(getattr(ss, name), method)(x, *shapes, loc=0.5)
    np.testing.assert_allclose(got.cpu().numpy(), expected, rtol=1e-10, atol=1e-300)
    frozen = getattr(ts, name)(*shapes, loc=0.5)
    np.testing.assert_allclose(getattr(frozen, method)(x, device="cuda"), expected, rtol=1e-10, atol=1e-300)


@pytest.mark.gpu
def test_rvs_on_cuda():
    """rvs with CUDA parameters draws on the device, reproducibly for a seed, and follows the law."""
    require_cuda()
    import torch

    a = torch.tensor(2.5, device="cuda")
    draws = ts.gamma.rvs(a, size=5000, random_state=4)
    assert draws.is_cuda and draws.shape == (5000,)
    assert torch.equal(draws, ts.gamma.rvs(a, size=5000, random_state=4))
    assert ss.kstest(draws.cpu().numpy(), ss.gamma(2.5).cdf).pvalue > 1e-3
    g = torch.Generator(device="cuda").manual_seed(3)
    k = ts.poisson.rvs(3.0, size=100, random_state=g, device="cuda")
    assert isinstance(k, np.ndarray) and k.dtype == np.int64
@pytest.mark.gpu
def test_nonparametric_on_cuda_tensors(rng):
    """ks_1samp/ks_2samp/wilcoxon/theilslopes/binned_statistic on CUDA: results on the device, equal to SciPy's."""
    require_cuda()
    import torch

    def check(got, expected, fields):
        for f in fields:
            g = getattr(got, f)
            assert g.is_cuda, f
            np.testing.assert_allclose(g.cpu().numpy().astype(float), np.asarray(getattr(expected, f), float),
                                       rtol=1e-10, atol=1e-300, equal_nan=True, err_msg=f)

    x, y = rng.normal(size=(40, 6)), rng.normal(0.3, 1, size=(35, 6))
    cx, cy = torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda()
    ks = ("statistic", "pvalue", "statistic_location", "statistic_sign")
    check(ts.ks_2samp(cx, cy), ss.ks_2samp(x, y), ks)
    check(ts.ks_1samp(cx, torch.special.ndtr, alternative="less"), ss.ks_1samp(x, ss.norm.cdf, alternative="less"), ks)
    d = np.round(x[:12] * 2) / 2
    check(ts.wilcoxon(torch.from_numpy(d).cuda()), ss.wilcoxon(d), ("statistic", "pvalue"))
    check(ts.wilcoxon(cx, cx * 0.5 + 0.1, method="asymptotic"), ss.wilcoxon(x, x * 0.5 + 0.1, method="asymptotic"),
          ("statistic", "pvalue", "zstatistic"))
    check(ts.theilslopes(cy, cx[:35], axis=0), ss.theilslopes(y, x[:35], axis=0),
          ("slope", "intercept", "low_slope", "high_slope"))
    for statistic in ("mean", "median", "max"):
        check(ts.binned_statistic(cx[:, 0], cy[:, 0].repeat(2)[:40], statistic, bins=6),
              ss.binned_statistic(x[:, 0], np.tile(y[:, 0], 2)[:40], statistic, bins=6),
              ("statistic", "bin_edges", "binnumber"))
    on_device = ts.ks_2samp(x, y, device="cuda")
    assert type(on_device.statistic) is np.ndarray
