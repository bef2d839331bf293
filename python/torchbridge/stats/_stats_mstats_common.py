"""`scipy.stats._stats_mstats_common`: the Theil-Sen estimator ``theilslopes``
and its result class."""

from __future__ import annotations

from .._core.stats import theilslopes
from ._stats_py import _result_class

#: ``theilslopes``' result: ``slope``, ``intercept``, ``low_slope``, ``high_slope``.
TheilslopesResult = _result_class("TheilslopesResult", ("slope", "intercept", "low_slope", "high_slope"))
TheilslopesResult.__module__ = __name__

__all__: list[str] = ["theilslopes"]
