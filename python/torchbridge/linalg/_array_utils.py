"""scipy.linalg._cythonized_array_utils: bandwidth and symmetry tests (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

bandwidth = _compiled.bandwidth
issymmetric = _compiled.issymmetric
ishermitian = _compiled.ishermitian

__all__ = ["bandwidth", "issymmetric", "ishermitian"]
