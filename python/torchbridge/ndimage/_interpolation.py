"""`scipy.ndimage._interpolation`: spline prefilters and spline interpolation
(map_coordinates, affine_transform, shift, zoom, rotate).

The compiled functions of ``torchbridge._core.ndimage``; ``torchbridge.ndimage``
gives each its public face (see ``torchbridge._dispatch``). The spline filters'
``output`` defaults to the class ``numpy.float64``, which a compiled signature
cannot hold (it shows ``...``): their faces here declare SciPy's default.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.ndimage import (
    affine_transform,
    map_coordinates,
    rotate,
    shift,
    zoom,
)
from .._core.ndimage import spline_filter as _spline_filter
from .._core.ndimage import spline_filter1d as _spline_filter1d

__all__: list[str] = [
    "affine_transform",
    "map_coordinates",
    "rotate",
    "shift",
    "spline_filter",
    "spline_filter1d",
    "zoom",
]


def spline_filter1d(
    input: Any, order: Any = 3, axis: Any = -1, output: Any = np.float64, mode: Any = "mirror", *, device: Any = None
) -> Any:
    return _spline_filter1d(input, order, axis, output, mode, device=device)


def spline_filter(
    input: Any, order: Any = 3, output: Any = np.float64, mode: Any = "mirror", *, device: Any = None
) -> Any:
    return _spline_filter(input, order, output, mode, device=device)


spline_filter1d.__doc__ = _spline_filter1d.__doc__
spline_filter.__doc__ = _spline_filter.__doc__
