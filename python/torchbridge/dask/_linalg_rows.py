"""The chunking table's ``linalg`` rows (see :mod:`._table`)."""

from __future__ import annotations

from . import _reductions
from ._chunking import Chunking, Reduction

ROWS: dict[str, Chunking] = {
    "norm": Reduction(_reductions.norm),
}
