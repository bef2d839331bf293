"""`scipy.signal._filter_design`: IIR filter design (Butterworth, Chebyshev I and II, Bessel),
the conversions between transfer-function, zeros-poles-gain and second-order-section
forms, and the frequency responses.

The compiled functions of ``torchbridge._core.signal``; ``torchbridge.signal``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from typing import Any

from .._core.signal import (
    bessel,
    besselap,
    buttap,
    butter,
    cheb1ap,
    cheb2ap,
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
    "bessel", "besselap", "buttap", "butter", "cheb1ap", "cheb2ap", "cheby1", "cheby2",
    "freqz", "freqz_sos", "freqz_zpk", "iirfilter",
    "sos2tf", "sos2zpk", "sosfreqz", "tf2sos", "tf2zpk", "zpk2sos", "zpk2tf",
]


def sosfreqz(*args: Any, device: Any = None, **kwargs: Any) -> Any:
    """Compute the frequency response of a digital filter in SOS format (legacy).

    SciPy's alias of :func:`freqz_sos`, kept for backward compatibility:
    ``sosfreqz(sos, worN=512, whole=False, fs=2*pi)``.

    torchbridge: :func:`freqz_sos` itself (libtorch ops on the array's device);
    ``device=None`` (keyword-only) as there: where to compute, by default where
    the array lives.
    """
    return freqz_sos(*args, device=device, **kwargs)
