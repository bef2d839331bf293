"""`scipy.signal.windows._windows`: the window functions and ``get_window``.

The compiled functions of ``torchbridge._core.signal``;
``torchbridge.signal.windows`` gives each its public face (see
``torchbridge._dispatch``), and ``torchbridge.signal`` its own face of
``get_window``.
"""

from __future__ import annotations

from ..._core.signal import (
    barthann,
    bartlett,
    blackman,
    blackmanharris,
    bohman,
    boxcar,
    chebwin,
    cosine,
    dpss,
    exponential,
    flattop,
    gaussian,
    general_cosine,
    general_gaussian,
    general_hamming,
    get_window,
    hamming,
    hann,
    kaiser,
    kaiser_bessel_derived,
    lanczos,
    nuttall,
    parzen,
    taylor,
    triang,
    tukey,
)

# SciPy's order (scipy.signal.windows._windows.__all__)
__all__ = [
    "boxcar",
    "triang",
    "parzen",
    "bohman",
    "blackman",
    "nuttall",
    "blackmanharris",
    "flattop",
    "bartlett",
    "barthann",
    "hamming",
    "kaiser",
    "kaiser_bessel_derived",
    "gaussian",
    "general_cosine",
    "general_gaussian",
    "general_hamming",
    "chebwin",
    "cosine",
    "hann",
    "exponential",
    "tukey",
    "taylor",
    "dpss",
    "get_window",
    "lanczos",
]
