"""`scipy.signal._upfirdn`: ``upfirdn`` (upsample, FIR filter, downsample).

The compiled function of ``torchbridge._core.signal``; ``torchbridge.signal``
gives it its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.signal import upfirdn

__all__: list[str] = ["upfirdn"]
