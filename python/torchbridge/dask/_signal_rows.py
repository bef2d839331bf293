"""The chunking table's ``signal`` rows (see :mod:`._table`), and those of
its own family ``signal.windows``."""

from __future__ import annotations

from ._chunking import Chunking, Elementwise, NoArrays, Unsupported

#: ``name`` -> the chunking class of ``torchbridge.signal.{name}``.
ROWS: dict[str, Chunking] = {
    # waveforms: elementwise in t (and their array-valued shape parameters)
    "chirp": Elementwise(("t", "phi")),
    "sawtooth": Elementwise(("t", "width")),
    "square": Elementwise(("t", "duty")),
    "gausspulse": Elementwise(("t",), probe=1e-4),
    "sweep_poly": Elementwise(("t", "phi")),
    "unit_impulse": NoArrays(),
    "get_window": NoArrays(),
}

#: ``name`` -> the chunking class of ``torchbridge.signal.windows.{name}``:
#: windows take sizes and options only, but for ``general_cosine``'s coefficients.
WINDOW_ROWS: dict[str, Chunking] = {
    **{
        name: NoArrays()
        for name in (
            "boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris", "flattop",
            "bartlett", "barthann", "hamming", "kaiser", "kaiser_bessel_derived", "gaussian",
            "general_gaussian", "general_hamming", "chebwin", "cosine", "hann", "exponential", "tukey",
            "taylor", "dpss", "get_window", "lanczos",
        )
    },
    "general_cosine": Unsupported("its coefficients are a handful of numbers: pass them as a numpy array or a list"),
}
