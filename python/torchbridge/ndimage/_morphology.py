"""`scipy.ndimage._morphology`: the binary and grey morphology, the
structuring elements and the distance transforms.

The compiled functions of ``torchbridge._core.ndimage``; ``torchbridge.ndimage``
gives them their public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.ndimage import (
    binary_closing,
    binary_dilation,
    binary_erosion,
    binary_fill_holes,
    binary_hit_or_miss,
    binary_opening,
    binary_propagation,
    black_tophat,
    distance_transform_bf,
    distance_transform_cdt,
    distance_transform_edt,
    generate_binary_structure,
    grey_closing,
    grey_dilation,
    grey_erosion,
    grey_opening,
    iterate_structure,
    morphological_gradient,
    morphological_laplace,
    white_tophat,
)

__all__: list[str] = [
    "binary_closing",
    "binary_dilation",
    "binary_erosion",
    "binary_fill_holes",
    "binary_hit_or_miss",
    "binary_opening",
    "binary_propagation",
    "black_tophat",
    "distance_transform_bf",
    "distance_transform_cdt",
    "distance_transform_edt",
    "generate_binary_structure",
    "grey_closing",
    "grey_dilation",
    "grey_erosion",
    "grey_opening",
    "iterate_structure",
    "morphological_gradient",
    "morphological_laplace",
    "white_tophat",
]
