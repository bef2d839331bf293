"""`scipy.signal._waveforms`: chirp, sawtooth, square, gausspulse, sweep_poly, unit_impulse.

The compiled functions of ``torchbridge._core.signal``; ``torchbridge.signal``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from typing import Any

from .._core import signal as _core
from .._core.signal import chirp, gausspulse, sawtooth, square, sweep_poly

__all__ = ["sawtooth", "square", "gausspulse", "chirp", "sweep_poly", "unit_impulse"]


def unit_impulse(shape: Any, idx: Any = None, dtype: Any = float) -> Any:
    # SciPy's signature, whose default ``dtype=float`` (a class) a builtin's
    # text signature cannot hold: the compiled function takes ``dtype=None``
    # (``numpy.dtype(None)`` is float64, the same default).
    return _core.unit_impulse(shape, idx, dtype)


unit_impulse.__doc__ = _core.unit_impulse.__doc__
