"""Order statistics on dask arrays: the statistic's axis in one chunk.

A median, a quantile, a mode or ranks need every value of an axis-slice
sorted at once; no partials merge to them. As ``dask.array.median`` does,
the statistic's axis is rechunked to one chunk (with dask's
``PerformanceWarning`` when it had several: the rechunk moves data and makes
the blocks as long as the axis), the other axes stay chunked and run in
parallel, and each block is the eager routine on that block's slices (so the
result is the eager result bit for bit). ``axis=None`` (the statistic of the
flattened array, or ranks over all of it) is refused, as
``dask.array.median`` refuses it: one task would hold the whole array.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UnsupportedParameterError
from ._chunking import _as_dask, _meta, _normalize_axis, _probe
from ._route import Call


@dataclass(frozen=True)
class WholeAxis:
    """An order statistic along one axis (``iqr``, ``median_abs_deviation``,
    ``mode``, ``rankdata``, ...): that axis rechunked to one chunk (with
    dask's ``PerformanceWarning`` when it had several, as
    ``dask.array.median``), the other axes in parallel, each block the eager
    routine bit for bit; ``axis=None`` refused (``NotImplementedError``).

    ``array`` names the array argument; ``outputs`` the results (``mode``: 2);
    ``reduces``: the axis is reduced (else the result has the input's shape, as
    ``rankdata``'s)."""

    array: str = "a"
    outputs: int = 1
    reduces: bool = True
    kind: str = "whole axis"

    def build(self, call: Call) -> Any:
        import dask.array as da

        x = _as_dask(call, self.array, call.get(self.array))
        axis = call.get("axis")
        if axis is None or isinstance(axis, (tuple, list)):
            raise UnsupportedParameterError(
                f"{call.name} on dask arrays: axis={axis!r} is not supported (the statistic of several axes or "
                "of the flattened array needs them all in one task, as dask.array.median refuses it): give one "
                "int axis, or compute it eagerly"
            )
        axis = _normalize_axis(call, int(axis), x.ndim)
        if x.numblocks[axis] > 1:
            warnings.warn(
                f"{call.name} on a dask array: axis {axis} has {x.numblocks[axis]} chunks; rechunking it to one "
                "chunk (an order statistic needs the whole axis at once)",
                _performance_warning(),
                stacklevel=4,
            )
            x = x.rechunk({axis: -1})
        probe_shape = tuple(3 if i == axis else 1 for i in range(x.ndim))
        probe_values = (np.array([1.0, 2.0, 2.0]).reshape(probe_shape)).astype(x.dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            probe = _probe(call, {self.array: probe_values})
        outputs = list(probe) if self.outputs > 1 else [probe]
        dtypes = [np.asarray(o).dtype for o in outputs]
        task = _Slices(call, self.array, self.outputs)
        if not self.reduces:
            moved = da.moveaxis(x, axis, -1)
            out = moved.map_blocks(task, dtype=dtypes[0], meta=_meta(x, x.ndim, dtypes[0]))
            return da.moveaxis(out, -1, axis)
        keepdims = bool(call.get("keepdims", False))
        signature = "(i)->" + ",".join("()" for _ in range(self.outputs))
        metas = tuple(_meta(x, x.ndim - 1, dt) for dt in dtypes)
        result = da.apply_gufunc(
            task,
            signature,
            x,
            axis=axis,
            keepdims=keepdims,
            meta=metas if self.outputs > 1 else metas[0],
        )
        if self.outputs > 1:
            return type(probe)(*result)
        return result


def _performance_warning() -> type[Warning]:
    from dask.array.core import PerformanceWarning

    return PerformanceWarning


class _Slices:
    """The eager routine on a block's slices along its last axis (``axis=-1``), the call's other options kept."""

    def __init__(self, call: Call, array: str, outputs: int):
        self.func = call.func
        self.array = array
        self.kwargs = {k: v for k, v in call.bound.arguments.items() if k not in (array, "axis", "keepdims")}
        self.has_keepdims = "keepdims" in call.signature.parameters
        self.outputs = outputs
        self.__name__ = getattr(call.func, "__name__", "order-statistic")

    def __dask_tokenize__(self) -> Any:
        from dask.base import normalize_token

        return normalize_token((self.func, self.array, self.kwargs, self.outputs))

    def __call__(self, block: Any) -> Any:
        kwargs = dict(self.kwargs)
        extra = kwargs.pop("kwargs", {})
        if self.has_keepdims:
            kwargs["keepdims"] = False
        result = self.func(**{self.array: block}, axis=-1, **kwargs, **extra)
        return tuple(result) if self.outputs > 1 else result
