"""scipy.linalg._misc: norms, and SciPy's exception and warning classes."""

from __future__ import annotations

import numpy as np

from .._core.linalg import LinAlgWarning, norm

__all__ = ["LinAlgError", "LinAlgWarning", "norm"]

#: The exception SciPy raises for singular matrices (``numpy.linalg.LinAlgError``).
LinAlgError = np.linalg.LinAlgError
