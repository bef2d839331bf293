"""scipy.linalg._decomp_polar: the polar decomposition."""

from __future__ import annotations

from .._core import linalg as _legacy
from ._helpers import _batched, _placed

__all__ = ["polar"]

# These routines are still Python functions around positional compiled
# helpers (their SciPy logic not yet moved into Rust); each takes its own
# keyword-only `device=None` and re-enters itself computing there.


def polar(a, side="right", *, device=None):
    """Polar decomposition (``scipy.linalg.polar``), from the SVD."""
    if device is not None:
        return _placed(device, polar, a, side)
    if side not in ("right", "left"):
        raise ValueError("`side` must be either 'right' or 'left'")
    batched = _batched("polar", (a, 2))
    result = _legacy.polar(a, side == "right")
    return list(result) if batched else result
