"""Helpers of the Python-level linalg routines (SciPy's `_apply_over_batch`
conventions, its warnings, option checks) for the seams whose routines are
still Python functions."""

from __future__ import annotations

import math

import numpy as np

from .. import _core


def _placed(device, routine, *args, **kwargs):
    """``routine(*args, **kwargs)`` computing on ``device`` (see ``torchbridge._device``)."""
    return _core.call_on(device, routine, args, kwargs)


def _shape(x) -> tuple[int, ...]:
    shape = getattr(x, "shape", None)
    if shape is None:
        shape = np.shape(x)
    return tuple(int(s) for s in shape)


def _batch(x, core: int) -> tuple[int, ...]:
    """The batch shape of ``x`` around ``core`` trailing dimensions (``()`` for None)."""
    if x is None:
        return ()
    shape = _shape(x)
    return shape[: max(len(shape) - core, 0)]


def _batched(name: str, *args: tuple[object, int]) -> bool:
    """Whether SciPy's ``_apply_over_batch`` would batch this call; raises its
    ValueError for zero-size batches."""
    batches = [_batch(x, core) for x, core in args]
    if not any(batches):
        return False
    shape = np.broadcast_shapes(*batches)
    if math.prod(shape) == 0:
        raise ValueError(f"`{name}` does not support zero-size batches.")
    return True


def _unsupported(routine: str, parameter: str, value) -> NotImplementedError:
    from ..errors import UnsupportedParameterError

    return UnsupportedParameterError(f"linalg.{routine}: {parameter}={value!r} is not supported")


def _check_driver(routine: str, lapack_driver) -> None:
    if not isinstance(lapack_driver, str):
        raise TypeError("lapack_driver must be a string")
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f'lapack_driver must be "gesdd" or "gesvd", not "{lapack_driver}"')
