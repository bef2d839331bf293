"""`scipy.signal._filter_design`: IIR filter design (Butterworth, Chebyshev I and II, Bessel),
the conversions between transfer-function, zeros-poles-gain and second-order-section
forms, and the frequency responses.

The compiled functions of ``torchbridge._core.signal``; ``torchbridge.signal``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.signal import (
    bessel,
    butter,
    cheby1,
    cheby2,
    freqz,
    freqz_sos,
    freqz_zpk,
    iirfilter,
    sos2tf,
    sos2zpk,
    tf2sos,
    tf2zpk,
    zpk2sos,
    zpk2tf,
)

__all__: list[str] = [
    "bessel", "butter", "cheby1", "cheby2", "freqz", "freqz_sos", "freqz_zpk", "iirfilter",
    "sos2tf", "sos2zpk", "tf2sos", "tf2zpk", "zpk2sos", "zpk2tf",
]
