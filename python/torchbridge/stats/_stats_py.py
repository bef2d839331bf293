"""`scipy.stats._stats_py`: descriptive statistics, z-scores, trimmed
statistics, ``mode``, ``rankdata`` and ``entropy`` (SciPy keeps the last in
``_entropy`` and ``variation`` in ``_variation``), with SciPy's result
classes ``ModeResult`` and ``DescribeResult``.

The compiled functions of ``torchbridge._core.stats``; ``torchbridge.stats``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from collections import namedtuple

from .._core.stats import (
    describe,
    entropy,
    gmean,
    hmean,
    iqr,
    kurtosis,
    median_abs_deviation,
    mode,
    moment,
    pmean,
    rankdata,
    sem,
    skew,
    tmax,
    tmean,
    tmin,
    trim_mean,
    tsem,
    tstd,
    tvar,
    variation,
    zmap,
    zscore,
)

#: ``describe``'s result, the named tuple SciPy returns.
DescribeResult = namedtuple("DescribeResult", ("nobs", "minmax", "mean", "variance", "skewness", "kurtosis"))
DescribeResult.__module__ = __name__

#: ``mode``'s result: ``mode`` and ``count``, unpacking as a pair like SciPy's.
ModeResult = namedtuple("ModeResult", ("mode", "count"))
ModeResult.__module__ = __name__

__all__: list[str] = [
    "describe",
    "entropy",
    "gmean",
    "hmean",
    "iqr",
    "kurtosis",
    "median_abs_deviation",
    "mode",
    "moment",
    "pmean",
    "rankdata",
    "sem",
    "skew",
    "tmax",
    "tmean",
    "tmin",
    "tsem",
    "tstd",
    "tvar",
    "trim_mean",
    "variation",
    "zmap",
    "zscore",
]
