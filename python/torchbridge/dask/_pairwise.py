"""``cdist`` on dask arrays: one task per pair of row blocks (``blockwise``).

Block ``(i, j)`` of the result is the compiled ``cdist`` of ``XA``'s row
block ``i`` and ``XB``'s row block ``j`` with the caller's metric and
options, so every block is the eager call on those rows bit for bit
(except ``cosine``, whose libtorch kernel rounds by the rows' memory
alignment: 1 ulp of 1.0, as the eager call on a copy of the rows moves), and
the whole result agrees with the eager one to rounding (1e-12 relative:
libtorch's euclidean kernels use a matrix product whose rounding depends on
the sizes). A
block needs whole rows: the columns are rechunked to one chunk (lazily; a
row block's memory grows to its rows times the column count).

SciPy's ``seuclidean`` defaults ``V`` to the variance (``ddof=1``) of the
stacked rows of ``XA`` and ``XB``: here a reduction over both arrays first
(:mod:`._moments`'s partials, within 1e-12 relative of the eager ``V``),
its one-chunk result handed to every task. ``mahalanobis`` defaults ``VI``
to the inverse covariance of all rows, a reduction of the whole data and
a matrix inverse: on dask arrays pass ``VI`` explicitly (a numpy array).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UnsupportedParameterError
from ._chunking import _as_dask, _meta, _probe, _refuse_out
from ._route import Call


@dataclass(frozen=True)
class RowBlocks:
    """Pairwise distances (``cdist``): ``blockwise`` over the row blocks of
    both inputs, one task per pair of blocks, each the eager call on those
    rows (bit for bit, but for ``cosine``'s 1 ulp: its libtorch kernel rounds
    by the rows' memory alignment); the columns in one chunk (rechunked lazily); a default
    ``V`` (``seuclidean``) computed first as a reduction, ``VI``
    (``mahalanobis``) required explicitly."""

    kind: str = "row blocks"

    def build(self, call: Call) -> Any:
        return cdist(call)


class _Pair:
    """``cdist`` of two row blocks (and ``V`` where it is a block too)."""

    def __init__(self, func: Any, metric: Any, options: dict[str, Any], with_v: bool):
        self.func = func
        self.metric = metric
        self.options = options
        self.with_v = with_v
        self.__name__ = "cdist"

    def __dask_tokenize__(self) -> Any:
        from dask.base import normalize_token

        return normalize_token(("torchbridge-cdist", self.func, self.metric, self.options, self.with_v))

    def __call__(self, xa: Any, xb: Any, *v: Any) -> Any:
        options = dict(self.options)
        if self.with_v:
            options["V"] = v[0]
        return self.func(xa, xb, self.metric, **options)


def _metric_name(metric: Any) -> str | None:
    return metric.lower() if isinstance(metric, str) else None


def cdist(call: Call) -> Any:
    import dask.array as da

    _refuse_out(call)
    xa = _as_dask(call, "XA", call.get("XA"))
    xb = _as_dask(call, "XB", call.get("XB"))
    metric = call.get("metric")
    options = dict(call.bound.arguments.get("kwargs", {}))
    if "device" in call.bound.arguments:
        options["device"] = call.bound.arguments["device"]
    for name, value in options.items():
        if isinstance(value, da.Array):
            raise UnsupportedParameterError(
                f"{call.name}: `{name}` as a dask array is not supported (it is an option); pass a numpy array"
            )
    if xa.ndim != 2 or xb.ndim != 2:
        raise ValueError(f"{call.name}: XA and XB must be 2-dimensional arrays (got {xa.ndim}-d and {xb.ndim}-d)")
    if xa.shape[1] != xb.shape[1]:
        raise ValueError(f"{call.name}: XA and XB must have the same number of columns")
    name = _metric_name(metric)
    if name in ("mahalanobis", "mahal", "mah") and options.get("VI") is None:
        raise UnsupportedParameterError(
            f"{call.name}: metric='mahalanobis' on dask arrays needs `VI` given (its default, the inverse "
            "covariance of all rows of XA and XB, is a reduction of the whole data and a matrix inverse): pass "
            "VI = np.linalg.inv(np.cov(np.vstack([XA, XB]).T)).T computed once"
        )
    # whole rows in every block: the columns in one chunk
    xa, xb = xa.rechunk({1: -1}), xb.rechunk({1: -1})
    probe_rows = np.eye(2, xa.shape[1], dtype=xa.dtype) + 1
    probe_options = {"XA": probe_rows, "XB": probe_rows.astype(xb.dtype)}
    if name in ("seuclidean", "se", "s") and options.get("V") is None:
        probe_options["V"] = np.ones(xa.shape[1])
    probe = _probe(_with_kwargs(call, probe_options), {})
    dtype = np.asarray(probe).dtype
    meta = _meta(xa, 2, dtype)
    arrays: list[Any] = [xa, "ik", xb, "jk"]
    with_v = False
    if name in ("seuclidean", "se", "s") and options.get("V") is None:
        arrays += [_default_v(call, xa, xb), "k"]
        with_v = True
    task = _Pair(call.func, metric, options, with_v)
    return da.blockwise(task, "ij", *arrays, dtype=dtype, meta=meta, concatenate=True)


def _with_kwargs(call: Call, values: dict[str, Any]) -> Call:
    """``call`` with its arrays (and ``V`` among the metric's options) replaced by ``values``."""
    kwargs = dict(call.bound.arguments.get("kwargs", {}))
    if "V" in values:
        kwargs["V"] = values.pop("V")
    args, named = call.replaced(**values, kwargs=kwargs)
    return Call(call.name, call.func, args, named)


def _default_v(call: Call, xa: Any, xb: Any) -> Any:
    """SciPy's default ``V``: the variance (``ddof=1``) over the stacked rows, a lazy one-chunk array."""
    import dask.array as da

    from ._moments import Finish, Spec, reduce

    rows = da.concatenate([xa.astype(np.float64), xb.astype(np.float64)], axis=0)
    v = reduce(rows, (0,), False, Spec(order=2), Finish("var", ddof=1.0, too_small=-1), np.float64)
    return v.rechunk(-1)
