"""`scipy.signal._spectral_py`: periodogram, welch, csd, coherence, spectrogram,
stft, istft and lombscargle.

The compiled functions of ``torchbridge._core.signal``; ``torchbridge.signal``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.signal import coherence, csd, istft, lombscargle, periodogram, spectrogram, stft, welch

__all__: list[str] = ["periodogram", "welch", "csd", "coherence", "spectrogram", "stft", "istft", "lombscargle"]
