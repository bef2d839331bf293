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
``_waveforms``, ``windows``), and ``__all__`` is built from theirs.
"""

from __future__ import annotations

from .. import _dispatch
from ._signaltools import filtfilt, lfilter, lfilter_zi, lfiltic, sosfilt, sosfilt_zi, sosfiltfilt

# A literal list (mypy's stubtest cannot evaluate a computed one), kept
# in step with the private modules' ``__all__``.
__all__ = [
    "filtfilt",
    "lfilter",
    "lfilter_zi",
    "lfiltic",
    "sosfilt",
    "sosfilt_zi",
    "sosfiltfilt",
]

# Each routine's public face: the compiled function, plus the route for dask arrays.
_dispatch.expose(globals(), __all__, "signal")


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
