"""`scipy.ndimage._interpolation`: spline prefilters and spline interpolation
(map_coordinates, affine_transform, shift, zoom, rotate).

The compiled functions of ``torchbridge._core.ndimage``; ``torchbridge.ndimage``
gives each its public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.ndimage import (
    affine_transform,
    map_coordinates,
    rotate,
    shift,
    spline_filter,
    spline_filter1d,
    zoom,
)

__all__: list[str] = [
    "affine_transform",
    "map_coordinates",
    "rotate",
    "shift",
    "spline_filter",
    "spline_filter1d",
    "zoom",
]
