"""The chunking table's ``signal`` rows (see :mod:`._table`)."""

from __future__ import annotations

from ._chunking import Chunking

#: ``name`` -> the chunking class of ``torchbridge.signal.{name}``.
ROWS: dict[str, Chunking] = {}
