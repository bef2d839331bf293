"""`scipy.signal._savitzky_golay`: the Savitzky-Golay filter and its coefficients.

The compiled functions of ``torchbridge._core.signal``; ``torchbridge.signal``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.signal import savgol_coeffs, savgol_filter

__all__: list[str] = ["savgol_coeffs", "savgol_filter"]
