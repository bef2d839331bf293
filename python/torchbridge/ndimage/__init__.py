"""SciPy-compatible `scipy.ndimage` routines, computed by libtorch.

Swap ``from scipy import ndimage`` for ``from torchbridge import ndimage``:
same names, same parameters and defaults, results in the caller's array type
and on its device. Every boundary mode SciPy's filters offer is SciPy's index
map (any distance, footprints larger than the array included), and the sums
run in float64 in SciPy's order, so the values are SciPy's.

Every routine also takes a keyword-only ``device=None``: where to compute,
with the copies that costs (see :mod:`torchbridge._device`).

The routines are the compiled functions of ``torchbridge._core.ndimage``, each
behind its public face (``torchbridge._dispatch``), but for the two that take a
derivative callable (``generic_gradient_magnitude``, ``generic_laplace``):
SciPy's Python composites, written in Python here, their arithmetic in
libtorch. ``generic_filter``/``generic_filter1d`` call the caller's Python
function on the host with NumPy float64 arrays (CUDA input is copied to the
host once and the result back). The private modules follow
SciPy's (``_filters``, ``_interpolation``, ``_measurements``, ``_morphology``);
``__all__`` is theirs, written out (stubtest reads literals only).
"""

from __future__ import annotations

from .. import _dispatch
from . import _filters, _interpolation, _measurements, _morphology
from ._filters import (
    convolve,
    convolve1d,
    correlate,
    correlate1d,
    gaussian_filter,
    gaussian_filter1d,
    gaussian_gradient_magnitude,
    gaussian_laplace,
    generic_filter,
    generic_filter1d,
    generic_gradient_magnitude,
    generic_laplace,
    laplace,
    maximum_filter,
    maximum_filter1d,
    median_filter,
    minimum_filter,
    minimum_filter1d,
    percentile_filter,
    prewitt,
    rank_filter,
    sobel,
    uniform_filter,
    uniform_filter1d,
)
from ._interpolation import (
    affine_transform,
    map_coordinates,
    rotate,
    shift,
    spline_filter,
    spline_filter1d,
    zoom,
)
from ._measurements import (
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
from ._morphology import (
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
    "convolve",
    "convolve1d",
    "correlate",
    "correlate1d",
    "gaussian_filter",
    "gaussian_filter1d",
    "gaussian_gradient_magnitude",
    "gaussian_laplace",
    "generic_filter",
    "generic_filter1d",
    "generic_gradient_magnitude",
    "generic_laplace",
    "laplace",
    "maximum_filter",
    "maximum_filter1d",
    "median_filter",
    "minimum_filter",
    "minimum_filter1d",
    "percentile_filter",
    "prewitt",
    "rank_filter",
    "sobel",
    "uniform_filter",
    "uniform_filter1d",
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
    "affine_transform",
    "map_coordinates",
    "rotate",
    "shift",
    "spline_filter",
    "spline_filter1d",
    "zoom",
]
# a literal for stubtest, the private modules' lists
assert sorted(__all__) == sorted(
    _filters.__all__ + _interpolation.__all__ + _measurements.__all__ + _morphology.__all__
)

_dispatch.expose(globals(), __all__, "ndimage")


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
