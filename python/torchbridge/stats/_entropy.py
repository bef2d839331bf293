"""`scipy.stats._entropy`: ``differential_entropy`` (``entropy`` lives in ``_stats_py`` here)."""

from __future__ import annotations

from .._core.stats import differential_entropy

__all__: list[str] = ["differential_entropy"]
