"""The chunking table's ``signal`` rows (see :mod:`._table`)."""

from __future__ import annotations

from ._chunking import Chunking, NoArrays, Unsupported

_FILTER = Unsupported(
    "a recurrence along `axis`: every output depends on all earlier samples, and with `zi` "
    "the result is a (y, zf) tuple; chunking along the other axes is not wired up yet "
    "(rechunk `axis` to one chunk and use map_blocks with the routine itself)"
)
_COEFFICIENTS = Unsupported("works on filter coefficients (a few numbers): pass numpy or torch arrays")

# A convolution couples neighbouring chunks: its dask path is the stencil class (``map_overlap`` with
# the kernel's depth) for a small in-memory kernel, which is not built yet.
_STENCIL = "a convolution couples neighbouring chunks; its map_overlap path (the stencil class) is not built yet"

#: ``name`` -> the chunking class of ``torchbridge.signal.{name}``.
ROWS: dict[str, Chunking] = {
    **{
        name: Unsupported(_STENCIL)
        for name in ("convolve", "correlate", "fftconvolve", "oaconvolve", "convolve2d", "correlate2d")
    },
    "choose_conv_method": Unsupported("its choice reads the data (the integer range), which would compute the graph"),
    "correlation_lags": NoArrays(),
    "lfilter": _FILTER,
    "sosfilt": _FILTER,
    "filtfilt": _FILTER,
    "sosfiltfilt": _FILTER,
    "lfilter_zi": _COEFFICIENTS,
    "sosfilt_zi": _COEFFICIENTS,
    "lfiltic": _COEFFICIENTS,
}
