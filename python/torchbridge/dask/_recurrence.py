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
            shape = list(shape)
            shape[axis] = order
            return tuple(([count] if self.sections else []) + shape)

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
        layer: dict[Any, Any] = {}
        for index in np.ndindex(*x.numblocks):
            k = index[axis]
            state_index = (0,) * lead + index[:axis] + (0,) + index[axis + 1 :]
            if k > 0:
                state: Any = (operator.getitem, (chain, *index[:axis], k - 1, *index[axis + 1 :]), 1)
            elif given:
                state = (zi.name, *state_index)
            else:
                state = None
            layer[(chain, *index)] = (link, (x.name, *index), state)
            layer[(y_name, *index)] = (operator.getitem, (chain, *index), 0)
            if k == x.numblocks[axis] - 1:
                layer[(zf_name, *state_index)] = (operator.getitem, (chain, *index), 1)
        graph = HighLevelGraph.from_collections(chain, layer, dependencies=dependencies)
        y = Array(graph, y_name, x.chunks, meta=_meta(x, x.ndim, y_dtype))
        if not given:
            return y
        zf_dtype = np.asarray(result[1]).dtype
        zf = Array(graph, zf_name, state_chunks, meta=_meta(x, x.ndim + lead, zf_dtype))
        return type(result)((y, zf))
