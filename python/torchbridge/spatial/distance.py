"""SciPy-compatible `scipy.spatial.distance` routines, computed by libtorch.

Swap ``from scipy.spatial import distance`` for ``from torchbridge.spatial
import distance``: the same names, parameters and defaults (``cdist``,
``pdist`` over SciPy's 19 named metrics and their aliases, ``squareform``,
the distance-matrix checks and the single-pair functions), results in the
caller's array type and on its device, float64 as SciPy returns them. Every
routine takes a keyword-only ``device=None`` (see :mod:`torchbridge._device`).

The routines are the compiled functions of
``torchbridge._core.spatial_distance``, each behind its public face
(``torchbridge._dispatch``).
"""

from __future__ import annotations

from .. import _dispatch
from .._core.spatial_distance import (
    braycurtis,
    canberra,
    cdist,
    chebyshev,
    cityblock,
    correlation,
    cosine,
    dice,
    euclidean,
    hamming,
    is_valid_dm,
    is_valid_y,
    jaccard,
    jensenshannon,
    mahalanobis,
    minkowski,
    num_obs_dm,
    num_obs_y,
    pdist,
    rogerstanimoto,
    russellrao,
    seuclidean,
    sokalsneath,
    sqeuclidean,
    squareform,
    yule,
)

__all__: list[str] = [
    "braycurtis",
    "canberra",
    "cdist",
    "chebyshev",
    "cityblock",
    "correlation",
    "cosine",
    "dice",
    "euclidean",
    "hamming",
    "is_valid_dm",
    "is_valid_y",
    "jaccard",
    "jensenshannon",
    "mahalanobis",
    "minkowski",
    "num_obs_dm",
    "num_obs_y",
    "pdist",
    "rogerstanimoto",
    "russellrao",
    "seuclidean",
    "sokalsneath",
    "sqeuclidean",
    "squareform",
    "yule",
]

# Each routine's public face: the compiled function, plus the route for dask arrays.
_dispatch.expose(globals(), __all__, "spatial.distance")


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
