"""`scipy.stats._binned_statistic`: ``binned_statistic`` and its result class."""

from __future__ import annotations

from collections import namedtuple

from .._core.stats import binned_statistic

#: ``binned_statistic``'s result, the named tuple SciPy returns.
BinnedStatisticResult = namedtuple("BinnedStatisticResult", ("statistic", "bin_edges", "binnumber"))
BinnedStatisticResult.__module__ = __name__

__all__: list[str] = ["binned_statistic"]
