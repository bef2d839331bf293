"""scipy.linalg._misc: norms, and SciPy's exception and warning classes."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.linalg import LinAlgWarning as _CompiledLinAlgWarning
from .._core.linalg import norm

# (and LinAlgWarning, made on first use by the module __getattr__ below)
__all__ = ["LinAlgError", "norm"]

#: The exception SciPy raises for singular matrices (``numpy.linalg.LinAlgError``).
LinAlgError = np.linalg.LinAlgError

_warning: type[Warning] | None = None


def _linalg_warning() -> type[Warning]:
    """``LinAlgWarning``, made on first use: a subclass of the compiled
    module's class and, where SciPy is installed, of
    ``scipy.linalg.LinAlgWarning``, so that ``pytest.warns`` and
    ``warnings.simplefilter`` written for SciPy's class catch torchbridge's
    warnings too. Made lazily because importing ``scipy.linalg`` costs more
    than ``import torchbridge`` should; the compiled routines warn with
    this class (``torchbridge.linalg.LinAlgWarning``)."""
    global _warning
    if _warning is None:
        try:
            from scipy.linalg import LinAlgWarning as scipy_warning  # type: ignore[import-untyped]
        except ImportError:
            bases: tuple[type[Warning], ...] = (_CompiledLinAlgWarning,)
        else:
            bases = (_CompiledLinAlgWarning, scipy_warning)
        _warning = type(
            "LinAlgWarning",
            bases,
            {"__module__": "torchbridge.linalg", "__doc__": _CompiledLinAlgWarning.__doc__},
        )
    return _warning


def __getattr__(name: str) -> Any:
    if name == "LinAlgWarning":
        return _linalg_warning()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
