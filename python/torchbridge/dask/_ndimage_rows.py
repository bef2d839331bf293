"""The chunking table's ``ndimage`` rows (see :mod:`._table`).

No ndimage routine is chunked yet. The filters are neighbourhood operations:
on dask they need ``map_overlap`` with the footprint's depth and the
boundary mode applied only at the array's true edges, which is not built;
``label`` needs its chunks' labels merged across chunk faces; the labeled
statistics, their per-label partials merged.
"""

from __future__ import annotations

from ._chunking import Chunking, Unsupported

_NEIGHBOURHOOD = (
    "a neighbourhood filter: chunks need overlaps of the footprint's depth with the boundary mode at the "
    "array's edges only (dask's map_overlap), not built yet; compute it eagerly"
)

#: ``name`` -> the chunking class of ``torchbridge.ndimage.{name}``.
ROWS: dict[str, Chunking] = {
    name: Unsupported(_NEIGHBOURHOOD)
    for name in (
        "correlate1d", "convolve1d", "correlate", "convolve", "uniform_filter1d", "uniform_filter",
        "gaussian_filter1d", "gaussian_filter", "minimum_filter1d", "maximum_filter1d", "minimum_filter",
        "maximum_filter", "median_filter", "rank_filter", "percentile_filter", "sobel", "prewitt", "laplace",
        "gaussian_laplace", "gaussian_gradient_magnitude",
    )
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

# The morphology (``_morphology``): neighbourhood passes, some repeated until nothing changes.
for _name in (
    "binary_erosion", "binary_dilation", "binary_opening", "binary_closing", "binary_hit_or_miss",
    "grey_erosion", "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
    "morphological_laplace", "white_tophat", "black_tophat",
):
    ROWS[_name] = Unsupported(_NEIGHBOURHOOD)
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
del _name
