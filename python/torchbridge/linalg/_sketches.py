"""scipy.linalg._sketches: the Clarkson-Woodruff transform.

SciPy draws the sketch matrix ``S`` with the caller's NumPy generator (one
call to ``integers`` for the rows, one to ``choice`` for the signs); the same
draws are made here, on the host, so a seeded call gives SciPy's result, and
the compiled ``_clarkson_woodruff_apply`` applies ``S`` with libtorch
(``index_add``: differentiable in the input, on its device).
"""

from __future__ import annotations

import inspect
import numbers
from typing import Any

import numpy as np

from .._core import linalg as _compiled
from ..errors import InvalidArgumentError

__all__ = ["clarkson_woodruff_transform"]


def _check_random_state(seed: Any) -> Any:
    """SciPy's ``check_random_state``: None (the global RandomState), an int, a Generator or a RandomState."""
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, (numbers.Integral, np.integer)):
        return np.random.RandomState(int(seed))
    if isinstance(seed, (np.random.RandomState, np.random.Generator)):
        return seed
    raise ValueError(f"'{seed}' cannot be used to seed a numpy.random.RandomState instance")


def _draws(n_rows: int, n_columns: int, rng: Any) -> tuple[np.ndarray, np.ndarray]:
    """SciPy's ``cwt_matrix`` draws: each column's row and sign."""
    rng = _check_random_state(rng)
    if isinstance(rng, np.random.Generator):
        rows = rng.integers(0, n_rows, n_columns, dtype="int64", endpoint=False)
    else:
        rows = rng.randint(0, n_rows, n_columns, dtype="int64")
    signs = rng.choice([1, -1], n_columns)
    return np.asarray(rows, dtype=np.int64), np.asarray(signs, dtype=np.int64)


def clarkson_woodruff_transform(*args: Any, **kwargs: Any) -> Any:
    """Applies a Clarkson-Woodruff Transform/sketch to the input matrix.

    ``S @ input_matrix`` for the CountSketch matrix ``S`` of shape
    ``(sketch_size, n)`` (``scipy.linalg.clarkson_woodruff_transform``):
    each column of ``S`` holds a random ``+1`` or ``-1`` in a random row.
    ``rng`` (and the legacy ``seed``) are interpreted exactly as SciPy 1.17
    does (``rng=`` by keyword through ``numpy.random.default_rng``; by
    position or as ``seed=`` through ``check_random_state``), and the same
    draws are made with it, so a seeded call returns SciPy's sketch. Leading
    dimensions of ``input_matrix`` are a batch sketched with one ``S``, as in
    SciPy 1.17. The dtype is SciPy's (the int64 sketch times the input:
    float32 input gives float64). Sparse input is not accepted.

    torchbridge: the draws are made on the host with NumPy, the sketch is
    applied by libtorch (an ``index_add``, differentiable in the input) and
    returned in the caller's array type on its device.

    ``device=None`` (keyword-only): ``"cpu"``, ``"cuda"`` (the input's CUDA
    device, else ``cuda:0``), ``"cuda:N"`` or a ``torch.device`` computes
    there, copying the input there and the result back to the caller's
    device; by default the computation runs where the array lives.
    """
    bound = _SIGNATURE.bind(*args, **kwargs)
    as_position = len(args) >= 3
    as_rng = "rng" in kwargs
    as_seed = "seed" in kwargs
    if as_position + as_rng + as_seed > 1:
        raise TypeError(
            "clarkson_woodruff_transform() got multiple values for argument now known as `rng`. "
            "Specify one of `rng` or `seed`."
        )
    generator: Any
    if as_rng:
        generator = np.random.default_rng(kwargs["rng"])
    elif as_seed:
        generator = kwargs["seed"]
    else:
        generator = bound.arguments.get("rng")
    input_matrix = bound.arguments["input_matrix"]
    sketch_size = bound.arguments["sketch_size"]
    shape = np.shape(input_matrix)
    if len(shape) < 2:
        raise InvalidArgumentError(
            f"clarkson_woodruff_transform: expected a 2-D array (or a stack of them), got shape {shape}"
        )
    rows, signs = _draws(sketch_size, shape[-2], generator)
    return _compiled._clarkson_woodruff_apply(
        input_matrix, sketch_size, rows.tolist(), signs.tolist(), device=bound.arguments.get("device")
    )


_SIGNATURE = inspect.Signature(
    [
        inspect.Parameter("input_matrix", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("sketch_size", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("rng", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
        inspect.Parameter("seed", inspect.Parameter.KEYWORD_ONLY, default=None),
        inspect.Parameter("device", inspect.Parameter.KEYWORD_ONLY, default=None),
    ]
)
clarkson_woodruff_transform.__signature__ = _SIGNATURE  # type: ignore[attr-defined]
