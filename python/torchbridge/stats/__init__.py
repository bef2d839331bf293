"""SciPy-compatible `scipy.stats` routines, computed by libtorch.

Swap ``from scipy import stats`` for ``from torchbridge import stats``: the
same names, parameters and defaults, results in the caller's array type and
on its device. So far the descriptive statistics of ``scipy.stats._stats_py``
(moments, means, trimmed statistics, ``iqr``, ``median_abs_deviation``,
``mode``, ``describe``), ``zscore``/``zmap``, ``rankdata`` and ``entropy``,
with SciPy's ``axis`` (ints, tuples, ``None``), ``keepdims`` and
``nan_policy`` semantics.

Every routine takes a keyword-only ``device=None``: where to compute, with
the copies that costs (see :mod:`torchbridge._device`).

The routines are the compiled functions of ``torchbridge._core.stats``, each
behind its public face (``torchbridge._dispatch``); the private modules
follow SciPy's (``_stats_py``, ``_axis_nan_policy``), and ``__all__`` is
built from theirs.
"""

from __future__ import annotations

from .. import _dispatch
from . import _axis_nan_policy, _stats_py  # noqa: F401  (SciPy's private modules)
from ._stats_py import *  # noqa: F403 (its __all__)

__all__: list[str] = [*_stats_py.__all__]

# Each routine's public face: the compiled function, plus the route for dask arrays.
_dispatch.expose(globals(), __all__, "stats")


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
