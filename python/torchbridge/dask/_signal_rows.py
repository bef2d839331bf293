"""The chunking table's ``signal`` rows (see :mod:`._table`)."""

from __future__ import annotations

from ._chunking import Chunking, Unsupported

_FILTER = Unsupported(
    "a recurrence along `axis`: every output depends on all earlier samples, and with `zi` "
    "the result is a (y, zf) tuple; chunking along the other axes is not wired up yet "
    "(rechunk `axis` to one chunk and use map_blocks with the routine itself)"
)
_COEFFICIENTS = Unsupported("works on filter coefficients (a few numbers): pass numpy or torch arrays")

#: ``name`` -> the chunking class of ``torchbridge.signal.{name}``.
ROWS: dict[str, Chunking] = {
    "lfilter": _FILTER,
    "sosfilt": _FILTER,
    "filtfilt": _FILTER,
    "sosfiltfilt": _FILTER,
    "lfilter_zi": _COEFFICIENTS,
    "sosfilt_zi": _COEFFICIENTS,
    "lfiltic": _COEFFICIENTS,
}
