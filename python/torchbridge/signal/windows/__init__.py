"""SciPy-compatible `scipy.signal.windows`, computed by libtorch.

Swap ``from scipy.signal import windows`` for ``from torchbridge.signal
import windows``: the same window functions, names, parameters and defaults.
A window takes no arrays: as in SciPy, the keyword-only ``xp`` names the
array namespace of the result (numpy float64 by default) and ``device`` its
device (see each function's notes). ``general_cosine`` returns the window in
the array type of its coefficients ``a``, as SciPy does.

The routines are the compiled functions of ``torchbridge._core.signal``,
each behind its public face (``torchbridge._dispatch``), a family of its
own: ``"signal.windows"``.
"""

from __future__ import annotations

from ... import _dispatch
from . import _windows
from ._windows import *  # noqa: F403 (its __all__)

__all__: list[str] = [*_windows.__all__]

# Windows take sizes and options only: a dask array is refused before the call
# (general_cosine takes its coefficients as an array, and goes the usual way).
_dispatch.expose(globals(), __all__, "signal.windows", routed_first=tuple(n for n in __all__ if n != "general_cosine"))


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
