"""The chunking table's ``ndimage`` rows (see :mod:`._table`).

The filters and the morphology are stencils (:mod:`._stencil`): ``map_overlap``
with the footprint's depth, SciPy's mode at the array's edges, the unchunked
result bit for bit. ``label`` needs its chunks' labels merged across chunk
faces; the labeled statistics, their per-label partials merged: not built.
"""

from __future__ import annotations

from typing import Any

from ._chunking import Chunking, Unsupported
from ._stencil import (
    Stencil,
    axes_of,
    binary_reach,
    every_axis,
    footprint_reach,
    gaussian_line,
    gaussian_nd,
    hit_or_miss_reach,
    line_reach,
    one_axis,
    until_convergence,
)

#: the options of a filter along one axis (its mode applies on that axis)
_LINE: dict[str, Any] = {"modes_on": one_axis}

#: ``name`` -> the chunking class of ``torchbridge.ndimage.{name}``.
ROWS: dict[str, Chunking] = {
    "correlate1d": Stencil(line_reach(lambda call: len(call.get("weights"))), **_LINE),
    "convolve1d": Stencil(line_reach(lambda call: len(call.get("weights"))), **_LINE),
    "correlate": Stencil(footprint_reach(names=("weights",))),
    "convolve": Stencil(footprint_reach(names=("weights",))),
    "uniform_filter1d": Stencil(line_reach(lambda call: call.get("size")), **_LINE),
    "uniform_filter": Stencil(footprint_reach(default_size=3, names=())),
    "gaussian_filter1d": Stencil(gaussian_line, **_LINE),
    "gaussian_filter": Stencil(gaussian_nd),
    "minimum_filter1d": Stencil(line_reach(lambda call: call.get("size")), **_LINE),
    "maximum_filter1d": Stencil(line_reach(lambda call: call.get("size")), **_LINE),
    **{
        name: Stencil(footprint_reach())
        for name in ("minimum_filter", "maximum_filter", "median_filter", "rank_filter", "percentile_filter")
    },
    "sobel": Stencil(every_axis(1)),
    "prewitt": Stencil(every_axis(1)),
    "laplace": Stencil(every_axis(1, along=axes_of)),
    "gaussian_laplace": Stencil(gaussian_nd, mode_per_term=True),
    "gaussian_gradient_magnitude": Stencil(gaussian_nd, mode_per_term=True),
}
ROWS["label"] = Unsupported(
    "a component can cross every chunk: chunk-wise labels need a merge of the labels across chunk faces, "
    "not built yet; compute it eagerly"
)
ROWS["find_objects"] = Unsupported("its result is a list of boxes over the whole array; compute it eagerly")
_LABELED = (
    "a statistic per label over the whole array: chunk-wise partials (sums, counts, extremes with their "
    "positions) merged per label are not built yet; compute it eagerly"
)
for _name in (
    "sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum", "maximum", "median",
    "minimum_position", "maximum_position", "extrema", "center_of_mass", "histogram",
):
    ROWS[_name] = Unsupported(_LABELED)

# The morphology (``_morphology``): neighbourhood passes; an opening or a closing makes two in sequence,
# the binary ones ``iterations`` each (``iterations < 1``: until nothing changes, refused).
_GREY = ("footprint", "structure")
for _name, _passes in (
    ("grey_erosion", 1), ("grey_dilation", 1), ("grey_opening", 2), ("grey_closing", 2),
    ("morphological_gradient", 1), ("morphological_laplace", 1), ("white_tophat", 2), ("black_tophat", 2),
):
    ROWS[_name] = Stencil(footprint_reach(passes=_passes, names=_GREY))
for _name, _passes in (("binary_erosion", 1), ("binary_dilation", 1), ("binary_opening", 2), ("binary_closing", 2)):
    ROWS[_name] = Stencil(binary_reach(_passes), mode="", arrays=("input", "mask"), refuse=until_convergence)
ROWS["binary_hit_or_miss"] = Stencil(hit_or_miss_reach, mode="")
for _name in ("binary_propagation", "binary_fill_holes", "distance_transform_edt", "distance_transform_cdt"):
    ROWS[_name] = Unsupported(
        "its result at one element can depend on the whole array (propagation until nothing changes, the "
        "nearest background anywhere): chunk-wise results need a global merge, not built yet; compute it eagerly"
    )
for _name in ("generate_binary_structure", "iterate_structure"):
    ROWS[_name] = Unsupported("builds a small structuring element, not an array computation; call it eagerly")

_INTERPOLATION = (
    "a spline interpolation: its prefilter is a recursion along whole lines and an output point can read "
    "anywhere in the input, so chunks would need the whole array; compute it eagerly"
)
for _name in ("spline_filter1d", "spline_filter", "map_coordinates", "affine_transform", "shift", "zoom", "rotate"):
    ROWS[_name] = Unsupported(_INTERPOLATION)

# The routines that take a Python callable, and the brute-force distance transform.
for _name in ("generic_gradient_magnitude", "generic_laplace"):
    ROWS[_name] = Unsupported(
        "calls a derivative the caller wrote on the whole array (its reach along each axis is unknown, so "
        "no overlap depth can be chosen); compute it eagerly, or map_overlap the derivative yourself"
    )
for _name in ("generic_filter1d", "generic_filter"):
    ROWS[_name] = Unsupported(
        "calls a host Python function per line or per point; a chunked path (map_overlap with the footprint's "
        "depth) is not built yet; compute it eagerly"
    )
ROWS["distance_transform_bf"] = Unsupported(
    "the nearest background element can be anywhere in the array: chunk-wise results need a global merge, "
    "not built yet; compute it eagerly"
)
del _name, _passes
