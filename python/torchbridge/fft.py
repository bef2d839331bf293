"""SciPy-compatible `scipy.fft` routines, computed by libtorch.

Swap ``from scipy import fft`` for ``from torchbridge import fft``: same
names, same parameters, results in the caller's array type.
"""

from __future__ import annotations

from ._core import fft as _fft  # noqa: F401

__all__: list[str] = []
