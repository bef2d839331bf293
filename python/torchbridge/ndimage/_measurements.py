"""`scipy.ndimage._measurements`: ``label`` (connected components),
``find_objects`` (their bounding boxes), and the statistics of labeled
regions: ``sum_labels`` (and its older name ``sum``), ``mean``,
``variance``, ``standard_deviation``, ``minimum``, ``maximum``, ``median``,
their positions, ``extrema``, ``center_of_mass`` and ``histogram``.

The compiled functions of ``torchbridge._core.ndimage``; ``torchbridge.ndimage``
gives them their public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.ndimage import (
    center_of_mass,
    extrema,
    find_objects,
    histogram,
    label,
    maximum,
    maximum_position,
    mean,
    median,
    minimum,
    minimum_position,
    standard_deviation,
    sum,
    sum_labels,
    variance,
)

__all__: list[str] = [
    "center_of_mass",
    "extrema",
    "find_objects",
    "histogram",
    "label",
    "maximum",
    "maximum_position",
    "mean",
    "median",
    "minimum",
    "minimum_position",
    "standard_deviation",
    "sum",
    "sum_labels",
    "variance",
]
