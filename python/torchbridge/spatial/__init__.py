"""SciPy-compatible `scipy.spatial` routines, computed by libtorch.

So far the :mod:`~torchbridge.spatial.distance` submodule, as SciPy nests it
(``from torchbridge.spatial import distance`` or
``torchbridge.spatial.distance.cdist``).
"""

from __future__ import annotations

from . import distance

__all__: list[str] = ["distance"]


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
