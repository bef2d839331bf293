"""`scipy.stats._morestats`: ``boxcox`` and ``yeojohnson`` for a given ``lmbda``."""

from __future__ import annotations

from .._core.stats import boxcox, yeojohnson

__all__: list[str] = ["boxcox", "yeojohnson"]
