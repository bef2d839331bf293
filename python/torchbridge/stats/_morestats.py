"""`scipy.stats._morestats`: ``boxcox`` and ``yeojohnson`` for a given
``lmbda``, and the Wilcoxon signed-rank test ``wilcoxon`` with its result class."""

from __future__ import annotations

from .._core.stats import boxcox, wilcoxon, yeojohnson
from ._stats_py import _result_class

#: ``wilcoxon``'s result: ``statistic`` and ``pvalue`` (unpacking as a pair); for
#: ``method="asymptotic"`` also ``zstatistic``, set as an attribute as SciPy sets it.
WilcoxonResult = _result_class("WilcoxonResult", ("statistic", "pvalue"))
WilcoxonResult.__module__ = __name__

__all__: list[str] = ["boxcox", "wilcoxon", "yeojohnson"]
