"""The recurrence chunking class: ``lfilter`` and ``sosfilt`` along a chunked time axis, exactly.

An IIR filter's output at every sample depends on all earlier samples, but
only through the filter's state: SciPy's direct form II transposed keeps
``max(len(a), len(b)) - 1`` numbers per line (two per section for
``sosfilt``), which ``zi`` sets and ``zf`` returns. So the time chunks of a
line are filtered in sequence, each task starting from the previous one's
``zf`` (the caller's ``zi``, or rest, for the first), while the lines of
different batch chunks run in parallel: one chain of ``n`` tasks per batch
chunk, ``n`` the number of time chunks. Each task performs on its samples the
operations the unchunked call performs, from the same state, so the result
is the eager one bit for bit (compared to 1e-12 relative in the tests).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._chunking import Task, _as_dask, _meta, _normalize_axis, _probe, namespace_of
from ._route import Call


class _Link:
    """One task of a chain: the routine on a time chunk from the state
    ``state`` (``None``: rest, zeros of the state's shape in ``dtype``),
    returning ``(y, zf)``."""

    def __init__(self, task: Task, axis: int, order: int, sections: int, dtype: Any):
        self.task = task
        self.axis = axis
        self.order = order
        self.sections = sections
        self.dtype = dtype
        self.__name__ = task.__name__

    def __dask_tokenize__(self) -> Any:
        from dask.base import normalize_token

        return normalize_token((self.task, self.axis, self.order, self.sections, str(self.dtype)))

    def __call__(self, block: Any, state: Any) -> Any:
        if state is None:
            shape = list(block.shape)
            shape[self.axis] = self.order
            shape = ([self.sections] if self.sections else []) + shape
            state = namespace_of(block).zeros(tuple(shape), dtype=self.dtype)
        return self.task(block, state)


@dataclass(frozen=True)
class Recurrence:
    """A linear recurrence along ``axis`` (``lfilter``, ``sosfilt``): the time
    chunks in sequence, each task starting from the previous one's final state
    (``zf`` -> ``zi``), the caller's ``zi`` (or rest) for the first; the batch
    chunks in parallel; ``(y, zf)`` when ``zi`` is given, as SciPy returns;
    the unchunked result bit for bit.

    ``sections`` says the filter is ``sos`` (``zi`` of shape ``(n_sections, ...,
    2, ...)``) rather than ``b, a`` (``zi`` of ``x``'s shape with
    ``max(len(a), len(b)) - 1`` along ``axis``).
    """

    sections: bool = False
    kind: str = "recurrence"

    def build(self, call: Call) -> Any:
        from dask.array import Array, broadcast_to
        from dask.base import tokenize
        from dask.highlevelgraph import HighLevelGraph

        given = call.get("zi") is not None
        task = Task.of(call, ["x", "zi"])  # first: it refuses dask arrays passed as options (b, a, sos)
        x = _as_dask(call, "x", call.get("x"))
        axis = _normalize_axis(call, int(call.get("axis", -1)), x.ndim)
        if self.sections:
            sos = np.atleast_2d(np.asarray(call.get("sos")))
            count, order = sos.shape[0], 2
        else:
            b, a = np.atleast_1d(np.asarray(call.get("b"))), np.atleast_1d(np.asarray(call.get("a")))
            count, order = 0, max(a.size, b.size) - 1
        lead = 1 if self.sections else 0

        def state_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
            dims = list(shape)
            dims[axis] = order
            return tuple(([count] if self.sections else []) + dims)

        # dtypes from a host probe (two samples per line) with the caller's options and zi
        probe_x = np.ones(tuple(2 if d == axis else 1 for d in range(x.ndim)), dtype=x.dtype)
        probes: dict[str, Any] = {"x": probe_x}
        if given:
            zi = _as_dask(call, "zi", call.get("zi"))
            probes["zi"] = np.zeros(state_shape(probe_x.shape), dtype=zi.dtype)
        result = _probe(call, probes)
        y_dtype = np.asarray(result[0] if given else result).dtype
        link = _Link(task, axis, order, count, y_dtype)

        state_chunks = tuple(((count,),) if self.sections else ()) + tuple(
            (order,) if d == axis else c for d, c in enumerate(x.chunks)
        )
        dependencies = [x]
        if given:  # SciPy broadcasts a zi of singleton dimensions
            zi = broadcast_to(zi, state_shape(x.shape)).rechunk(state_chunks)
            dependencies.append(zi)
        token = tokenize(link, *dependencies)
        chain, y_name, zf_name = (f"{call.name.rsplit('.', 1)[1]}-{part}-{token}" for part in ("chain", "y", "zf"))
        links: dict[Any, Any] = {}
        ys: dict[Any, Any] = {}
        zfs: dict[Any, Any] = {}
        for index in np.ndindex(*x.numblocks):
            k = index[axis]
            state_index = (0,) * lead + index[:axis] + (0,) + index[axis + 1 :]
            if k > 0:
                state: Any = (operator.getitem, (chain, *index[:axis], k - 1, *index[axis + 1 :]), 1)
            elif given:
                state = (zi.name, *state_index)
            else:
                state = None
            links[(chain, *index)] = (link, (x.name, *index), state)
            ys[(y_name, *index)] = (operator.getitem, (chain, *index), 0)
            if k == x.numblocks[axis] - 1:
                zfs[(zf_name, *state_index)] = (operator.getitem, (chain, *index), 1)
        # three layers: the chain of (y, zf) pairs, and the y and zf arrays taken from it
        chained = HighLevelGraph.from_collections(chain, links, dependencies=dependencies)
        graph = HighLevelGraph(
            {**chained.layers, y_name: ys, zf_name: zfs},
            {**chained.dependencies, y_name: {chain}, zf_name: {chain}},
        )
        y = Array(graph, y_name, x.chunks, meta=_meta(x, x.ndim, y_dtype))
        if not given:
            return y
        zf_dtype = np.asarray(result[1]).dtype
        zf = Array(graph, zf_name, state_chunks, meta=_meta(x, x.ndim + lead, zf_dtype))
        return type(result)((y, zf))


@dataclass(frozen=True)
class ForwardBackward:
    """A zero-phase filter (``filtfilt``, ``sosfiltfilt``, ``method="pad"``):
    SciPy's own steps on dask arrays, each lazy: the signal extended at both
    ends (``padtype``, from the end chunks' samples), the forward pass as a
    recurrence chain from the steady state times the first sample, the
    backward pass as a chain from the last chunk to the first, then the
    extension trimmed; within 1e-12 relative of the unchunked result.

    ``sections``: ``sos`` rather than ``b, a``.
    """

    sections: bool = False
    kind: str = "forward-backward"

    def build(self, call: Call) -> Any:
        import dask.array as da

        from .. import signal
        from ..errors import UnsupportedParameterError

        Task.of(call, ["x"])  # refuses dask arrays passed as options (b, a, sos), before they are read
        if not self.sections and call.get("method", "pad") != "pad":
            raise UnsupportedParameterError(
                f"{call.name} on dask arrays: method={call.get('method')!r} (Gustafsson's) solves for the initial "
                "states from both ends of the whole signal at once; use method='pad' or compute it eagerly"
            )
        x = _as_dask(call, "x", call.get("x"))
        axis = _normalize_axis(call, int(call.get("axis", -1)), x.ndim)
        if self.sections:
            sos = np.atleast_2d(np.asarray(call.get("sos")))
            count = sos.shape[0]
            ntaps = 2 * count + 1 - min(int((sos[:, 2] == 0).sum()), int((sos[:, 5] == 0).sum()))
        else:
            b, a = np.atleast_1d(np.asarray(call.get("b"))), np.atleast_1d(np.asarray(call.get("a")))
            ntaps = max(a.size, b.size)
        padtype, padlen = call.get("padtype", "odd"), call.get("padlen")
        # the options checked by the routine itself on a host probe long enough for them
        probe_length = (3 * ntaps if padlen is None else int(padlen)) + 1
        probe = np.ones(tuple(probe_length if d == axis else 1 for d in range(x.ndim)), dtype=x.dtype)
        _probe(call, {"x": probe})
        edge = 0 if padtype is None else 3 * ntaps if padlen is None else int(padlen)
        if x.shape[axis] <= edge:
            raise ValueError(f"The length of the input vector x must be greater than padlen, which is {edge}.")

        def part(start: int | None = None, stop: int | None = None, step: int | None = None) -> Any:
            index = [slice(None)] * x.ndim
            index[axis] = slice(start, stop, step)
            return tuple(index)

        ext = x
        if edge > 0:
            if padtype == "even":
                left, right = x[part(edge, 0, -1)], x[part(-2, -(edge + 2), -1)]
            elif padtype == "odd":
                left = 2 * x[part(0, 1)] - x[part(edge, 0, -1)]
                right = 2 * x[part(-1, None)] - x[part(-2, -(edge + 2), -1)]
            else:
                shape = list(x.shape)
                shape[axis] = edge
                left = da.broadcast_to(x[part(0, 1)], tuple(shape))
                right = da.broadcast_to(x[part(-1, None)], tuple(shape))
            ext = da.concatenate([left, x, right], axis=axis)
        shape = [1] * x.ndim
        if self.sections:
            shape[axis] = 2
            zi = np.asarray(signal.sosfilt_zi(sos)).reshape([count] + shape)

            def run(z: Any, s: Any) -> Any:
                return signal.sosfilt(sos, s, axis=axis, zi=z)
        else:
            shape[axis] = ntaps - 1
            zi = np.asarray(signal.lfilter_zi(b, a)).reshape(shape)

            def run(z: Any, s: Any) -> Any:
                return signal.lfilter(b, a, s, axis=axis, zi=z)

        y, _ = run(zi * ext[part(0, 1)], ext)
        y, _ = run(zi * y[part(-1, None)], da.flip(y, axis))
        y = da.flip(y, axis)
        return y[part(edge, -edge)] if edge > 0 else y
