"""Shared pieces of the dask tests: chunkings, and a scheduler that counts computes.

This package is ``dask_arrays``, not ``dask``: pytest puts tests/python on
``sys.path``, where a package named dask would shadow the real one.
"""

from __future__ import annotations

import contextlib

import dask
import dask.array as da
import numpy as np

#: Ways to chunk a (rows, cols) array: one chunk, a 4x4 grid, ragged chunks,
#: and chunks of one element along the first axis.
CHUNKINGS = {
    "one-chunk": lambda shape: tuple(-1 for _ in shape),
    "4x4": lambda shape: tuple(max(1, -(-n // 4)) for n in shape),
    "ragged": lambda shape: tuple(_ragged(n) for n in shape),
    "tiny": lambda shape: (1,) + tuple(-1 for _ in shape[1:]),
}


def _ragged(n: int) -> tuple[int, ...]:
    """Uneven chunks summing to ``n`` (1, 2, 3, ... and the rest)."""
    sizes, left, step = [], n, 1
    while left > 0:
        sizes.append(min(step, left))
        left -= sizes[-1]
        step += 1
    return tuple(sizes)


def chunked(x: np.ndarray, how: str) -> da.Array:
    """``x`` as a dask array chunked ``how`` (a key of :data:`CHUNKINGS`)."""
    return da.from_array(x, chunks=CHUNKINGS[how](x.shape))


class ComputeCounter:
    """A dask scheduler that counts how often it is asked to compute (SciPy's
    array-API tests check laziness this way): building a graph must not
    compute anything."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, dsk, keys, **kwargs):
        self.count += 1
        return dask.get(dsk, keys, **kwargs)


@contextlib.contextmanager
def no_compute():
    """Fails when the block computes any dask graph."""
    counter = ComputeCounter()
    with dask.config.set(scheduler=counter):
        yield counter
    assert counter.count == 0, f"{counter.count} compute(s) while building the graph"
