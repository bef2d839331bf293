"""The stencil chunking class: neighbourhood filters on ``map_overlap``, exact.

A neighbourhood filter (a correlation, a rank filter, a morphology pass)
computes every output from the inputs within a fixed reach of it, and SciPy
extends the array beyond its edges by a boundary ``mode``. On dask:

- every block is widened by the filter's **depth** (its reach along each
  axis: the footprint's half-width plus ``|origin|``, the Gaussian's radius,
  times the passes a composite makes: two for an opening, ``iterations`` for
  a binary erosion) with real data from its neighbours
  (``dask.array.map_overlap``, ``boundary="none"``);
- the routine itself runs on the widened block, **with the caller's mode**:
  at a block face that is an edge of the whole array, the widened block ends
  where the array ends, so the mode extends it exactly as the eager call
  extends the array (the mode reads at most ``depth`` elements inward, and a
  widened block has at least that many; through every pass of a composite
  too, since the intermediate there is computed from the same data); at a
  face inside the array the mode extends the block's copy of its
  neighbours, which spoils only outputs within ``depth`` of that face, and
  ``map_overlap`` trims exactly those;
- ``wrap`` (``grid-wrap``) reads the far side of the array: along such axes
  the outer faces are widened with the far side's data
  (``boundary="periodic"``), which is what the eager call reads there;
- an axis in one chunk needs no overlap; chunks smaller than the depth are
  merged with their neighbours first (``map_overlap`` needs depth <= chunk),
  and an axis shorter than that becomes one chunk.

Every output is then computed from the same values in the same order as the
eager call computes it, so the result is the unchunked one bit for bit, in
every mode, for kernels whose value at an element does not depend on where
the line starts. The exceptions: ``uniform_filter(1d)``, whose running sum
(SciPy's, and torchbridge's) accumulates its rounding from the start of each
line, which a chunk restarts; ``savgol_filter``, whose convolution is a GEMM
over blocks of the line whose size depends on the line's length; and
``wiener``, whose local sums are a correlation that ``choose_conv_method``
computes by FFT on larger arrays (a chunk and the whole array round
differently). All are within a few ulps of the window's magnitude. Padding the whole array by the mode
first and filtering without one (dask-image's way for some modes) is not
exact for composites: the second pass of an opening, or the second axis of a
separable Gaussian in ``constant`` mode, extends the *intermediate* by the
mode, which is not the filter of the extended input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UnsupportedParameterError
from ._chunking import Task, _as_dask, _da, _meta, _normalize_axis, _probe
from ._route import Call

_WRAP = ("wrap", "grid-wrap")

#: ``reach(call, ndim)`` -> the depth along each axis.
Reach = Callable[[Call, int], list[int]]


@dataclass(frozen=True)
class Stencil:
    """A neighbourhood filter: ``map_overlap`` with the filter's depth along
    each axis (footprint, radius, origin, passes), SciPy's ``mode`` applied by
    the routine at the array's edges (``wrap`` through the far side's data),
    any chunking (chunks smaller than the depth merged first); the unchunked
    result bit for bit in every mode, but for ``uniform_filter(1d)`` (a running
    sum, restarted in each chunk), ``savgol_filter`` (a blocked GEMM) and
    ``wiener`` (an FFT correlation on larger blocks), within a few ulps.

    ``reach(call, ndim)`` gives the depth per axis; ``mode`` names the mode
    argument (``""``: the routine zero-pads); ``modes_on(call, ndim)`` the axes
    the mode argument's entries belong to; ``arrays`` the array arguments
    mapped together (``mask``); ``refuse(call)`` a reason to refuse the call
    (``iterations < 1``), or ``None``; ``min_chunk(call, ndim)`` a length
    below which chunks are merged even beyond the depth (``savgol_filter``'s
    ``interp`` fits ``window_length`` samples at each end); ``mode_per_term``
    says that the ``i``-th entry of a mode sequence is the mode of a whole
    term, along every axis (``gaussian_laplace``: SciPy's ``generic_laplace``
    filters the ``i``-th second derivative with ``modes[i]`` throughout): a
    sequence mixing ``wrap`` with other modes then needs ``axes`` in one chunk.
    """

    reach: Reach
    mode: str = "mode"
    arrays: tuple[str, ...] = ("input",)
    modes_on: Callable[[Call, int], list[int]] | None = None
    refuse: Callable[[Call], str | None] | None = None
    min_chunk: Callable[[Call, int], list[int]] | None = None
    mode_per_term: bool = False
    kind: str = "stencil"

    def build(self, call: Call) -> Any:
        _refuse_output(call)
        if self.refuse is not None and (why := self.refuse(call)) is not None:
            raise UnsupportedParameterError(f"{call.name} on dask arrays: {why}")
        names = [name for name in self.arrays if call.get(name) is not None]
        task = Task.of(call, names)  # first: it refuses dask arrays passed as options
        x = _as_dask(call, names[0], call.get(names[0]))
        depth = [int(d) for d in self.reach(call, x.ndim)]
        wrap = self._wrap_axes(call, x.ndim)
        least = self.min_chunk(call, x.ndim) if self.min_chunk is not None else [0] * x.ndim
        whole = self._whole_axes(call, x.ndim)
        x = _merged(x, [max(d, m) for d, m in zip(depth, least)])
        if whole:
            x = x.rechunk({axis: -1 for axis in whole})
        depth = [d if x.numblocks[axis] > 1 else 0 for axis, d in enumerate(depth)]
        others = [_as_dask(call, name, call.get(name)) for name in names[1:]]
        for other in others:
            if other.shape != x.shape:
                raise ValueError(f"{call.name}: the arrays must have the same shape, got {other.shape} and {x.shape}")
        arrays = [x] + [other.rechunk(x.chunks) for other in others]
        reach = [max(d, e) for d, e in zip(self.reach(call, x.ndim), self._probe_extent(call, x.ndim))]
        probe_shape = tuple(min(n, 2 * r + 1) for n, r in zip(x.shape, reach))  # as wide as the footprint
        probes = {name: np.ones(probe_shape, dtype=a.dtype) for name, a in zip(names, arrays)}
        dtype = np.asarray(_probe(call, probes)).dtype
        meta = _meta(x, x.ndim, dtype)
        if not any(depth):  # every axis that needs an overlap is in one chunk
            return _da().map_blocks(task, *arrays, dtype=dtype, meta=meta)
        boundary = {axis: "periodic" if axis in wrap else "none" for axis in range(x.ndim)}
        return _da().map_overlap(
            task,
            *arrays,
            depth={axis: d for axis, d in enumerate(depth)},
            boundary=boundary,
            trim=True,
            align_arrays=False,
            allow_rechunk=False,
            dtype=dtype,
            meta=meta,
        )

    def _probe_extent(self, call: Call, ndim: int) -> list[int]:
        least = self.min_chunk(call, ndim) if self.min_chunk is not None else [0] * ndim
        return [max(0, m // 2) for m in least]

    def _wrap_axes(self, call: Call, ndim: int) -> set[int]:
        if not self.mode:
            return set()
        mode = call.get(self.mode)
        axes = (self.modes_on or axes_of)(call, ndim)
        if isinstance(mode, str):
            return set(axes) if mode in _WRAP else set()
        modes = list(mode)
        if len(modes) != len(axes):
            return set(axes) if any(m in _WRAP for m in modes) else set()  # the eager probe reports the error
        if self.mode_per_term and any(m in _WRAP for m in modes):
            return set(axes)
        return {axis for axis, m in zip(axes, modes) if m in _WRAP}

    def _whole_axes(self, call: Call, ndim: int) -> set[int]:
        """The axes that must be in one chunk: a mode sequence mixing ``wrap`` with other modes where each
        mode applies to every axis of its own term (``gaussian_laplace``)."""
        mode = call.get(self.mode) if self.mode else None
        if not self.mode_per_term or mode is None or isinstance(mode, str):
            return set()
        wraps = {m in _WRAP for m in mode}
        return set((self.modes_on or axes_of)(call, ndim)) if len(wraps) > 1 else set()


def _refuse_output(call: Call) -> None:
    """``output=`` as an array is refused (results are lazy); as a dtype it is
    handed to every task."""
    for name in ("output", "out"):
        value = call.get(name)
        if value is not None and not isinstance(value, (type, np.dtype, str)):
            raise UnsupportedParameterError(
                f"{call.name}: `{name}=` as an array with dask arrays is not supported (results are lazy); "
                "pass a dtype"
            )


def _merged(x: Any, least: Sequence[int]) -> Any:
    """``x`` with every chunk at least ``least`` long along each axis of more
    than one chunk (neighbouring chunks merged; one chunk where the axis is
    shorter than twice that)."""
    from dask.array.overlap import ensure_minimum_chunksize

    chunks: dict[int, Any] = {}
    for axis, (n, sizes) in enumerate(zip(x.shape, x.chunks)):
        if len(sizes) < 2 or min(sizes) >= least[axis]:
            continue
        chunks[axis] = -1 if n < 2 * least[axis] else ensure_minimum_chunksize(least[axis], sizes)
    return x.rechunk(chunks) if chunks else x


# --------------------------------------------------------------------------- reaches


def axes_of(call: Call, ndim: int) -> list[int]:
    """The axes an n-d filter works along: its ``axes`` argument, else all."""
    axes = call.get("axes")
    if axes is None:
        return list(range(ndim))
    if isinstance(axes, (int, np.integer)):
        axes = [axes]
    return [_normalize_axis(call, int(axis), ndim) for axis in axes]


def one_axis(call: Call, ndim: int) -> list[int]:
    """The axis of a 1-d filter (its ``axis`` argument)."""
    return [_normalize_axis(call, int(call.get("axis")), ndim)]


def _per_axis(value: Any, count: int) -> list[Any]:
    """SciPy's ``_normalize_sequence``: one value for every axis, or one each."""
    if isinstance(value, (str, bytes)) or np.ndim(value) == 0:
        return [value] * count
    values = list(np.asarray(value).ravel()) if not isinstance(value, (list, tuple)) else list(value)
    return values if len(values) == count else [values[0]] * count  # a wrong length: the probe reports it


def _spread(call: Call, ndim: int, axes: list[int], reach: list[int]) -> list[int]:
    depth = [0] * ndim
    for axis, r in zip(axes, reach):
        depth[axis] = max(depth[axis], int(r))
    return depth


def window(size: int, origin: int) -> int:
    """How far a window of ``size`` shifted by ``origin`` reaches on either side
    (both the correlation's and the flipped convolution's window)."""
    return int(size) // 2 + abs(int(origin))


def line_reach(size_of: Callable[[Call], int]) -> Reach:
    """A 1-d filter along ``axis``: a window of ``size_of(call)`` and ``origin``."""

    def reach(call: Call, ndim: int) -> list[int]:
        return _spread(call, ndim, one_axis(call, ndim), [window(size_of(call), call.get("origin", 0))])

    return reach


def _footprint_shape(call: Call, count: int, names: Sequence[str]) -> list[int] | None:
    for name in names:
        value = call.get(name)
        if value is not None:
            shape = np.shape(value)
            return list(shape) if len(shape) == count else [max(shape, default=1)] * count
    return None


def footprint_reach(passes: int = 1, default_size: int | None = None, names: Sequence[str] = ("footprint",)) -> Reach:
    """An n-d filter along ``axes`` with ``size`` or a footprint (the first of
    ``names`` given: ``weights``, ``footprint``, ``structure``), shifted by
    ``origin``, applied ``passes`` times in sequence (an opening: erosion,
    then dilation)."""

    def reach(call: Call, ndim: int) -> list[int]:
        axes = axes_of(call, ndim)
        shape = _footprint_shape(call, len(axes), names)
        if shape is None:
            size = call.get("size")
            size = default_size if size is None else size
            shape = [1] * len(axes) if size is None else [int(s) for s in _per_axis(size, len(axes))]
        origins = _per_axis(call.get("origin", 0), len(axes))
        return _spread(call, ndim, axes, [passes * window(s, o) for s, o in zip(shape, origins)])

    return reach


def gaussian_radius(sigma: Any, truncate: Any, radius: Any) -> int:
    """``scipy.ndimage.gaussian_filter1d``'s radius: ``radius`` or ``int(truncate * sigma + 0.5)``."""
    return int(radius) if radius is not None else int(float(truncate) * float(sigma) + 0.5)


def gaussian_line(call: Call, ndim: int) -> list[int]:
    """``gaussian_filter1d``: its radius along ``axis``."""
    r = gaussian_radius(call.get("sigma"), call.get("truncate", 4.0), call.get("radius"))
    return _spread(call, ndim, one_axis(call, ndim), [r])


def gaussian_nd(call: Call, ndim: int) -> list[int]:
    """``gaussian_filter`` (and the Gaussian derivatives, whose ``truncate`` and
    ``radius`` come in ``**kwargs``): the radius along each of ``axes``."""
    axes = axes_of(call, ndim)
    extra = call.get("kwargs") or {}
    truncate = call.get("truncate", extra.get("truncate", 4.0))
    radius = call.get("radius", extra.get("radius"))
    sigmas = _per_axis(call.get("sigma"), len(axes))
    radii = _per_axis(radius, len(axes))
    return _spread(call, ndim, axes, [gaussian_radius(s, truncate, r) for s, r in zip(sigmas, radii)])


def every_axis(r: int, along: Callable[[Call, int], list[int]] | None = None) -> Reach:
    """Reach ``r`` along every axis (``along``: only those axes)."""

    def reach(call: Call, ndim: int) -> list[int]:
        axes = along(call, ndim) if along is not None else list(range(ndim))
        return _spread(call, ndim, axes, [r] * len(axes))

    return reach


def binary_reach(passes: int) -> Reach:
    """The binary morphology: the structure's reach (default: the cross of
    ``generate_binary_structure(ndim, 1)``, reach 1) times ``iterations`` times
    ``passes``."""

    def reach(call: Call, ndim: int) -> list[int]:
        axes = axes_of(call, ndim)
        shape = _footprint_shape(call, len(axes), ("structure",)) or [3] * len(axes)
        origins = _per_axis(call.get("origin", 0), len(axes))
        iterations = int(call.get("iterations", 1))
        return _spread(call, ndim, axes, [passes * iterations * window(s, o) for s, o in zip(shape, origins)])

    return reach


def hit_or_miss_reach(call: Call, ndim: int) -> list[int]:
    """``binary_hit_or_miss``: the farther of its two structures' reaches
    (``structure2`` defaults to ``structure1``'s complement, ``origin2`` to ``origin1``)."""
    axes = axes_of(call, ndim)
    shape1 = _footprint_shape(call, len(axes), ("structure1",)) or [3] * len(axes)
    shape2 = _footprint_shape(call, len(axes), ("structure2",)) or shape1
    origin1 = _per_axis(call.get("origin1", 0), len(axes))
    origin2 = origin1 if call.get("origin2") is None else _per_axis(call.get("origin2"), len(axes))
    reach = [max(window(a, c), window(b, d)) for a, b, c, d in zip(shape1, shape2, origin1, origin2)]
    return _spread(call, ndim, axes, reach)


def until_convergence(call: Call) -> str | None:
    """The binary morphology's ``iterations < 1``: repeated until nothing changes."""
    if int(call.get("iterations", 1)) < 1:
        return (
            "iterations < 1 repeats until nothing changes, so an output can depend on the whole array "
            "(no fixed depth); pass iterations >= 1 or compute it eagerly"
        )
    return None


def kernel_size_reach(name: str, default: int | None = 3) -> Reach:
    """``scipy.signal``'s ``medfilt``/``wiener``-style ``kernel_size``/``mysize``:
    one odd size for every axis or one per axis (zero-padded edges)."""

    def reach(call: Call, ndim: int) -> list[int]:
        size = call.get(name)
        sizes = _per_axis(default if size is None else size, ndim)
        return [int(s) // 2 for s in sizes]

    return reach


def domain_reach(call: Call, ndim: int) -> list[int]:
    """``order_filter``: the domain's half-widths."""
    return [int(s) // 2 for s in _per_axis_shape(np.shape(call.get("domain")), ndim)]


def _per_axis_shape(shape: tuple[int, ...], ndim: int) -> list[int]:
    return list(shape) if len(shape) == ndim else [max(shape, default=1)] * ndim
