"""SciPy-compatible `scipy.signal` routines, computed by libtorch.

Swap ``from scipy import signal`` for ``from torchbridge import signal``:
same names, same parameters and defaults, results in the caller's array type
and on its device. Where SciPy's array-API path sends torch tensors through
NumPy (CPU only, autograd dropped), torchbridge computes with libtorch where
the data lives.

Every routine that takes arrays also takes a keyword-only ``device=None``:
where to compute, with the copies that costs (see :mod:`torchbridge._device`);
by default the computation runs where the arrays live, CUDA included.

The routines are the compiled functions of ``torchbridge._core.signal``, each
behind its public face (``torchbridge._dispatch``: one Python frame, and the
route for dask arrays); the private modules follow SciPy's (``_signaltools``,
``_filter_design``, ``_fir_filter_design``, ``_upfirdn``, ``_savitzky_golay``, ``_spectral_py``,
``_waveforms``, ``windows``), and ``__all__`` is built from theirs.
"""

from __future__ import annotations

from .. import _dispatch
from . import _filter_design, _fir_filter_design, _savitzky_golay, _signaltools, _spectral_py, _upfirdn, _waveforms
from . import windows as windows  # the submodule, a family of its own (not in __all__: see __dir__)
from ._filter_design import *  # noqa: F403 (its __all__)
from ._fir_filter_design import *  # noqa: F403 (its __all__)
from ._savitzky_golay import *  # noqa: F403 (its __all__)
from ._signaltools import *  # noqa: F403 (its __all__)
from ._spectral_py import *  # noqa: F403 (its __all__)
from ._upfirdn import *  # noqa: F403 (its __all__)
from ._waveforms import *  # noqa: F403 (its __all__)
from .windows._windows import get_window  # the compiled function: this module gets its own face

# Built from the private modules' lists, as SciPy builds its own (stubtest reads only literals:
# .ci/stubtest-allowlist.txt says so).
__all__: list[str] = [
    *_signaltools.__all__, *_savitzky_golay.__all__, *_spectral_py.__all__, *_waveforms.__all__, "get_window",
    *_fir_filter_design.__all__, *_upfirdn.__all__,
    *_filter_design.__all__,
]

# Each routine's public face: the compiled function, plus the route for dask arrays
# (before the call for the routines that take sizes only).
_dispatch.expose(
    globals(), __all__, "signal", routed_first=(
        "correlation_lags", "get_window", "savgol_coeffs", "unit_impulse",
        "kaiser_beta", "kaiser_atten", "kaiserord", "firwin", "firwin2",
        "bessel", "butter", "cheby1", "cheby2", "iirfilter", "besselap", "buttap", "cheb1ap", "cheb2ap",
    ),
)


def __dir__() -> list[str]:
    """The public names, as SciPy's modules do: ``__all__`` (the routines) and the
    ``windows`` submodule (``scipy.signal`` lists it in its ``__all__``; here it is a
    family of its own, ``torchbridge.signal.windows``)."""
    return sorted([*__all__, "windows"])
