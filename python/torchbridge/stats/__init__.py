"""SciPy-compatible `scipy.stats` routines, computed by libtorch.

Swap ``from scipy import stats`` for ``from torchbridge import stats``: the
same names, parameters and defaults, results in the caller's array type and
on its device. So far the descriptive statistics of ``scipy.stats._stats_py``
(moments, means, trimmed statistics, ``iqr``, ``median_abs_deviation``,
``mode``, ``describe``), ``zscore``/``zmap``, ``rankdata``, ``entropy`` and
``differential_entropy``; the correlations (``pearsonr``, ``spearmanr``,
``kendalltau``, ``linregress``) and tests (the t tests, ``chisquare``,
``power_divergence``, ``f_oneway``, ``mannwhitneyu``, ``wilcoxon``,
``ks_1samp``, ``ks_2samp``); ``theilslopes``; ``binned_statistic``;
``boxcox`` and ``yeojohnson`` for a given ``lmbda``,
with SciPy's ``axis`` (ints, tuples, ``None``), ``keepdims`` and
``nan_policy`` semantics; and the distributions ``norm``, ``expon``,
``uniform``, ``laplace``, ``logistic``, ``cauchy``, ``lognorm``, ``gamma``,
``beta``, ``t``, ``chi2``, ``f``, ``weibull_min``, ``poisson``, ``binom``,
``nbinom`` (objects with SciPy's methods and frozen forms, see
``_distn_infrastructure``).

Every routine takes a keyword-only ``device=None``: where to compute, with
the copies that costs (see :mod:`torchbridge._device`).

The routines are the compiled functions of ``torchbridge._core.stats``, each
behind its public face (``torchbridge._dispatch``); the private modules
follow SciPy's (``_stats_py``, ``_mannwhitneyu``, ``_morestats``,
``_entropy``, ``_stats_mstats_common``, ``_binned_statistic``,
``_axis_nan_policy``, ``_warnings_errors``); ``__all__`` is
theirs, written out (stubtest reads literals only).
"""

from __future__ import annotations

from typing import Any

from .. import _dispatch
from . import (  # noqa: F401  (SciPy's private modules)
    _axis_nan_policy,
    _binned_statistic,
    _continuous_distns,
    _discrete_distns,
    _distn_infrastructure,
    _entropy,
    _mannwhitneyu,
    _morestats,
    _stats_mstats_common,
    _stats_py,
    _warnings_errors,
)
from ._binned_statistic import binned_statistic
from ._continuous_distns import (
    beta,
    cauchy,
    chi2,
    expon,
    f,
    gamma,
    laplace,
    logistic,
    lognorm,
    norm,
    t,
    uniform,
    weibull_min,
)
from ._discrete_distns import binom, nbinom, poisson
from ._entropy import differential_entropy
from ._mannwhitneyu import mannwhitneyu
from ._morestats import boxcox, wilcoxon, yeojohnson
from ._stats_mstats_common import theilslopes
from ._stats_py import (
    chisquare,
    describe,
    entropy,
    f_oneway,
    gmean,
    hmean,
    iqr,
    kendalltau,
    ks_1samp,
    ks_2samp,
    kurtosis,
    linregress,
    median_abs_deviation,
    mode,
    moment,
    pearsonr,
    pmean,
    power_divergence,
    rankdata,
    sem,
    skew,
    spearmanr,
    tmax,
    tmean,
    tmin,
    trim_mean,
    tsem,
    tstd,
    ttest_1samp,
    ttest_ind,
    ttest_rel,
    tvar,
    variation,
    zmap,
    zscore,
)

__all__: list[str] = [
    "beta",
    "binom",
    "binned_statistic",
    "boxcox",
    "cauchy",
    "chi2",
    "chisquare",
    "describe",
    "differential_entropy",
    "entropy",
    "expon",
    "f",
    "f_oneway",
    "gamma",
    "gmean",
    "hmean",
    "iqr",
    "kendalltau",
    "ks_1samp",
    "ks_2samp",
    "kurtosis",
    "laplace",
    "linregress",
    "logistic",
    "lognorm",
    "mannwhitneyu",
    "median_abs_deviation",
    "mode",
    "moment",
    "nbinom",
    "norm",
    "pearsonr",
    "pmean",
    "poisson",
    "power_divergence",
    "rankdata",
    "sem",
    "skew",
    "spearmanr",
    "t",
    "theilslopes",
    "tmax",
    "tmean",
    "tmin",
    "trim_mean",
    "tsem",
    "tstd",
    "ttest_1samp",
    "ttest_ind",
    "ttest_rel",
    "tvar",
    "uniform",
    "variation",
    "weibull_min",
    "wilcoxon",
    "yeojohnson",
    "zmap",
    "zscore",
]
_ROUTINES = (
    _stats_py.__all__ + _mannwhitneyu.__all__ + _morestats.__all__ + _entropy.__all__
    + _stats_mstats_common.__all__ + _binned_statistic.__all__
)
_DISTRIBUTIONS = _continuous_distns.__all__ + _discrete_distns.__all__
assert sorted(__all__) == sorted(_ROUTINES + _DISTRIBUTIONS)

# Each routine's public face: the compiled function, plus the route for dask
# arrays (the distributions are objects, with their methods as faces).
_dispatch.expose(globals(), _ROUTINES, "stats")


#: SciPy's public warning classes, made on first use (see ``_warnings_errors``).
_WARNINGS = ("DegenerateDataWarning", "ConstantInputWarning", "NearConstantInputWarning")


def __getattr__(name: str) -> Any:
    if name in _WARNINGS:
        return getattr(_warnings_errors, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``
    and the warning classes)."""
    return sorted([*__all__, *_WARNINGS])
