"""SciPy-compatible `scipy.linalg` routines, computed by libtorch.

Swap ``from scipy import linalg`` for ``from torchbridge import linalg``: same
names, same parameters, results in the caller's array type.
"""

from __future__ import annotations

from ._core import linalg as _linalg  # noqa: F401

__all__: list[str] = []
