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
to ``inv(cov(vstack([XA, XB]).T)).T``: here a reduction too, each row
block's mean and scatter matrix (libtorch) merged by Chan et al.'s formula,
then the inverse by ``torchbridge.linalg.inv`` in the last merge (a
singular covariance raises there, at compute). A given ``V``/``VI`` is
handed to the tasks as it is (the blocks are then the eager call on their
rows bit for bit).
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
    ``V`` (``seuclidean``) or ``VI`` (``mahalanobis``) computed first as a reduction."""

    kind: str = "row blocks"

    def build(self, call: Call) -> Any:
        return cdist(call)


class _Pair:
    """``cdist`` of two row blocks (and ``V`` where it is a block too)."""

    def __init__(self, func: Any, metric: Any, options: dict[str, Any], default: str | None):
        self.func = func
        self.metric = metric
        self.options = options
        self.default = default  # "V" or "VI": computed first, handed to every task as a block
        self.__name__ = "cdist"

    def __dask_tokenize__(self) -> Any:
        from dask.base import normalize_token

        return normalize_token(("torchbridge-cdist", self.func, self.metric, self.options, self.default))

    def __call__(self, xa: Any, xb: Any, *v: Any) -> Any:
        options = dict(self.options)
        if self.default is not None:
            options[self.default] = v[0]
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
    # whole rows in every block: the columns in one chunk
    xa, xb = xa.rechunk({1: -1}), xb.rechunk({1: -1})
    probe_rows = np.eye(2, xa.shape[1], dtype=xa.dtype) + 1
    probe_options = {"XA": probe_rows, "XB": probe_rows.astype(xb.dtype)}
    default = None
    if name in ("seuclidean", "se", "s") and options.get("V") is None:
        default = "V"
        probe_options["V"] = np.ones(xa.shape[1])
    elif name in ("mahalanobis", "mahal", "mah") and options.get("VI") is None:
        default = "VI"
        probe_options["VI"] = np.eye(xa.shape[1])
        if xa.shape[0] + xb.shape[0] <= xa.shape[1]:  # too few points for a covariance: raises as eagerly
            _probe(call, {"XA": np.zeros(xa.shape, xa.dtype), "XB": np.zeros(xb.shape, xb.dtype)})
    probe = _probe(_with_kwargs(call, probe_options), {})
    dtype = np.asarray(probe).dtype
    meta = _meta(xa, 2, dtype)
    arrays: list[Any] = [xa, "ik", xb, "jk"]
    if default == "V":
        arrays += [_default_v(call, xa, xb), "k"]
    elif default == "VI":
        arrays += [_default_vi(xa, xb), "kl"]
    task = _Pair(call.func, metric, options, default)
    return da.blockwise(task, "ij", *arrays, dtype=dtype, meta=meta, concatenate=True)


def _with_kwargs(call: Call, values: dict[str, Any]) -> Call:
    """``call`` with its arrays (and ``V`` among the metric's options) replaced by ``values``."""
    kwargs = dict(call.bound.arguments.get("kwargs", {}))
    for name in ("V", "VI"):
        if name in values:
            kwargs[name] = values.pop(name)
    args, named = call.replaced(**values, kwargs=kwargs)
    return Call(call.name, call.func, args, named)


def _default_v(call: Call, xa: Any, xb: Any) -> Any:
    """SciPy's default ``V``: the variance (``ddof=1``) over the stacked rows, a lazy one-chunk array."""
    import dask.array as da

    from ._moments import Finish, Spec, reduce

    rows = da.concatenate([xa.astype(np.float64), xb.astype(np.float64)], axis=0)
    v = reduce(rows, (0,), False, Spec(order=2), Finish("var", ddof=1.0, too_small=-1), np.float64)
    return v.rechunk(-1)


# --------------------------------------------------------------------------- mahalanobis' default VI


class _Scatter:
    """A row block's covariance partial, packed as ``(1, k + 2, k)``: its
    mean (row 0), its row count (row 1, first column) and its scatter matrix
    ``d.T @ d`` of the deviations ``d`` from that mean (rows 2..), by libtorch."""

    __name__ = "scatter"

    def __dask_tokenize__(self) -> Any:
        return "torchbridge-scatter"

    def __call__(self, block: Any) -> Any:
        from ..ops import aten
        from ._chunking import namespace_of

        xp = namespace_of(block)
        x = block.astype(np.float64, copy=False)
        rows, k = x.shape
        out = xp.zeros((1, k + 2, k), dtype=np.float64)
        if rows:
            mean = aten.mean(x, [0], True)
            d = aten.sub(x, mean)
            out[0, 0] = mean[0]
            out[0, 2:] = aten.mm(aten.t(d), d)
        out[0, 1, 0] = rows
        return out


class _ScatterMerge:
    """Packed covariance partials merged (Chan et al.: ``C = Ca + Cb + d d^T na nb / n``);
    the last merge also forms ``VI = inv(C / (n - 1)).T`` (the first ``k`` rows)."""

    def __init__(self, last: bool):
        self.last = last
        self.__name__ = "inverse-covariance" if last else "scatter-merge"

    def __dask_tokenize__(self) -> Any:
        return ("torchbridge-scatter-merge", self.last)

    def __call__(self, packed: Any, axis: Any, keepdims: bool, computing_meta: bool = False) -> Any:
        if computing_meta:
            return packed
        acc = packed[0]
        for other in packed[1:]:
            na, nb = acc[1, 0], other[1, 0]
            n = na + nb
            if nb == 0:
                continue
            if na == 0:
                acc = other
                continue
            delta = other[0] - acc[0]
            merged = acc.copy()
            merged[0] = acc[0] + delta * (nb / n)
            merged[1, 0] = n
            merged[2:] = acc[2:] + other[2:] + (delta[:, None] * delta[None, :]) * (na * nb / n)
            acc = merged
        if not self.last:
            return acc[None] if keepdims else acc
        from .. import linalg

        k = acc.shape[1]
        result = acc.copy()
        result[:k] = linalg.inv(acc[2:] / (acc[1, 0] - 1)).T
        result[k:] = 0
        return result[None] if keepdims else result


def _default_vi(xa: Any, xb: Any) -> Any:
    """SciPy's default ``VI``: ``inv(cov(vstack([XA, XB]).T)).T``, a lazy one-chunk ``(k, k)`` array."""
    import dask.array as da

    rows = da.concatenate([xa, xb], axis=0)
    k = rows.shape[1]
    packed = rows.map_blocks(
        _Scatter(), new_axis=[2], chunks=((1,) * rows.numblocks[0], (k + 2,), (k,)), dtype=np.float64,
        meta=_meta(rows, 3, np.float64),
    )
    reduced = da.reduction(
        packed,
        chunk=_identity,
        combine=_ScatterMerge(last=False),
        aggregate=_ScatterMerge(last=True),
        axis=0,
        keepdims=False,
        dtype=np.float64,
        concatenate=True,
        meta=_meta(rows, 2, np.float64),
    )
    return reduced[:k].rechunk(-1)


def _identity(block: Any, axis: Any = None, keepdims: bool = True, computing_meta: bool = False) -> Any:
    return block
