"""scipy.linalg._misc: norms, and SciPy's exception and warning classes."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.linalg import LinAlgWarning as _CompiledLinAlgWarning
from .._core.linalg import norm
from .._scipy_classes import scipy_subclass

# (and LinAlgWarning, made on first use by the module __getattr__ below)
__all__ = ["LinAlgError", "norm"]

#: The exception SciPy raises for singular matrices (``numpy.linalg.LinAlgError``).
LinAlgError = np.linalg.LinAlgError


def _linalg_warning() -> type[Warning]:
    """``LinAlgWarning``: the compiled module's class, and
    ``scipy.linalg.LinAlgWarning`` where SciPy is installed (see
    :mod:`torchbridge._scipy_classes`); the compiled routines warn with it."""
    doc = _CompiledLinAlgWarning.__doc__ or ""
    return scipy_subclass("LinAlgWarning", _CompiledLinAlgWarning, "torchbridge.linalg", "scipy.linalg", doc)


def __getattr__(name: str) -> Any:
    if name == "LinAlgWarning":
        return _linalg_warning()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
