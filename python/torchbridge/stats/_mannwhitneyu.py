"""`scipy.stats._mannwhitneyu`: the Mann-Whitney U test and its result class."""

from __future__ import annotations

from collections import namedtuple

from .._core.stats import mannwhitneyu

#: ``mannwhitneyu``'s result, the named tuple SciPy returns.
MannwhitneyuResult = namedtuple("MannwhitneyuResult", ("statistic", "pvalue"))
MannwhitneyuResult.__module__ = __name__

__all__: list[str] = ["mannwhitneyu"]
