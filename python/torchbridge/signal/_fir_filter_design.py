"""`scipy.signal._fir_filter_design`: FIR filter design by the window method
(``kaiser_beta``, ``kaiser_atten``, ``kaiserord``, ``firwin``, ``firwin2``).

The compiled functions of ``torchbridge._core.signal``; ``torchbridge.signal``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.signal import firwin, firwin2, kaiser_atten, kaiser_beta, kaiserord

__all__: list[str] = ["kaiser_beta", "kaiser_atten", "kaiserord", "firwin", "firwin2"]
