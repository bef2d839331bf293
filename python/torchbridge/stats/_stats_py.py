"""`scipy.stats._stats_py`: descriptive statistics, z-scores, trimmed
statistics, ``mode``, ``rankdata`` and ``entropy`` (SciPy keeps the last in
``_entropy`` and ``variation`` in ``_variation``), the correlations
(``pearsonr``, ``spearmanr``, ``kendalltau``, ``linregress``) and tests
(``ttest_1samp``, ``ttest_ind``, ``ttest_rel``, ``chisquare``,
``power_divergence``, ``f_oneway``), with SciPy's result classes.

The compiled functions of ``torchbridge._core.stats``; ``torchbridge.stats``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

import operator
from collections import namedtuple

from .._core.stats import (
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

#: ``describe``'s result, the named tuple SciPy returns.
DescribeResult = namedtuple("DescribeResult", ("nobs", "minmax", "mean", "variance", "skewness", "kurtosis"))
DescribeResult.__module__ = __name__

#: ``mode``'s result: ``mode`` and ``count``, unpacking as a pair like SciPy's.
ModeResult = namedtuple("ModeResult", ("mode", "count"))
ModeResult.__module__ = __name__


def _result_class(name: str, fields: tuple[str, ...], extra: tuple[str, ...] = ()) -> type:
    """A result class as SciPy's ``_make_tuple_bunch``: a tuple of ``fields``
    (unpacking as them) that also carries the ``extra`` attributes."""

    def __new__(cls, *values, **named):
        names = fields + extra
        if len(values) > len(names):
            raise TypeError(f"{name}() takes at most {len(names)} arguments ({len(values)} given)")
        given = dict(zip(names, values, strict=False))
        given.update(named)
        missing = [f for f in fields if f not in given]
        if missing:
            raise TypeError(f"{name}() missing arguments: {missing}")
        self = tuple.__new__(cls, tuple(given[f] for f in fields))
        for f in extra:
            object.__setattr__(self, f, given.get(f))
        return self

    def __repr__(self) -> str:
        parts = [f"{f}={getattr(self, f)!r}" for f in fields + extra]
        return f"{name}({', '.join(parts)})"

    def __getnewargs_ex__(self):
        return tuple(self), {f: getattr(self, f) for f in extra}

    def _asdict(self) -> dict:
        return {f: getattr(self, f) for f in fields + extra}

    namespace = {
        "__new__": __new__,
        "__repr__": __repr__,
        "__getnewargs_ex__": __getnewargs_ex__,
        "_asdict": _asdict,
        "_fields": fields,
        "_extra_fields": extra,
        "__module__": __name__,
        "__doc__": f"``{name}``: {', '.join(fields)} (unpacking as a tuple)"
        + (f", with {', '.join(extra)} as attributes" if extra else "")
        + ", like SciPy's.",
    }
    for i, f in enumerate(fields):
        namespace[f] = property(operator.itemgetter(i), doc=f"The field ``{f}``.")
    return type(name, (tuple,), namespace)


#: ``ttest_1samp``/``ttest_ind``/``ttest_rel``'s result: ``statistic``, ``pvalue`` and ``df``
#: (no ``confidence_interval`` method).
TtestResult = _result_class("TtestResult", ("statistic", "pvalue"), ("df",))
#: ``pearsonr``'s result (no ``confidence_interval`` method).
PearsonRResult = _result_class("PearsonRResult", ("statistic", "pvalue"))
#: ``spearmanr``/``kendalltau``'s result; ``correlation`` is ``statistic``, as SciPy sets it.
SignificanceResult = _result_class("SignificanceResult", ("statistic", "pvalue"), ("correlation",))
#: ``linregress``'s result: five fields unpacked, ``intercept_stderr`` by attribute.
LinregressResult = _result_class(
    "LinregressResult", ("slope", "intercept", "rvalue", "pvalue", "stderr"), ("intercept_stderr",)
)
#: ``chisquare``/``power_divergence``'s result.
Power_divergenceResult = namedtuple("Power_divergenceResult", ("statistic", "pvalue"))
Power_divergenceResult.__module__ = __name__
#: ``f_oneway``'s result.
F_onewayResult = namedtuple("F_onewayResult", ("statistic", "pvalue"))
F_onewayResult.__module__ = __name__
#: ``ks_1samp``/``ks_2samp``'s result: ``statistic``, ``pvalue`` unpacked,
#: ``statistic_location`` and ``statistic_sign`` by attribute.
KstestResult = _result_class("KstestResult", ("statistic", "pvalue"), ("statistic_location", "statistic_sign"))

__all__: list[str] = [
    "chisquare",
    "describe",
    "entropy",
    "f_oneway",
    "gmean",
    "hmean",
    "iqr",
    "kendalltau",
    "ks_1samp",
    "ks_2samp",
    "kurtosis",
    "linregress",
    "median_abs_deviation",
    "mode",
    "moment",
    "pearsonr",
    "pmean",
    "power_divergence",
    "rankdata",
    "sem",
    "skew",
    "spearmanr",
    "tmax",
    "tmean",
    "tmin",
    "tsem",
    "tstd",
    "tvar",
    "trim_mean",
    "ttest_1samp",
    "ttest_ind",
    "ttest_rel",
    "variation",
    "zmap",
    "zscore",
]
