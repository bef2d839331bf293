"""SciPy-compatible `scipy.ndimage` routines, computed by libtorch.

Swap ``from scipy import ndimage`` for ``from torchbridge import ndimage``:
same names, same parameters and defaults, results in the caller's array type
and on its device. Every boundary mode SciPy's filters offer is SciPy's index
map (any distance, footprints larger than the array included), and the sums
run in float64 in SciPy's order, so the values are SciPy's.

Every routine also takes a keyword-only ``device=None``: where to compute,
with the copies that costs (see :mod:`torchbridge._device`).

The routines are the compiled functions of ``torchbridge._core.ndimage``, each
behind its public face (``torchbridge._dispatch``); the private modules follow
SciPy's (``_filters``, ``_measurements``), and ``__all__`` is built from theirs.
"""

from __future__ import annotations

from .. import _dispatch
from . import _filters, _measurements
from ._filters import *  # noqa: F403 (its __all__)
from ._measurements import *  # noqa: F403 (its __all__)

__all__: list[str] = [*_filters.__all__, *_measurements.__all__]

_dispatch.expose(globals(), __all__, "ndimage")


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
