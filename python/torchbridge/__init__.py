"""torchbridge: the full libtorch API on any array, zero-copy.

Arrays from NumPy, JAX, CuPy, torch or any ``__dlpack__`` producer are viewed
as libtorch tensors without copying, computed on where they live, and handed
back in the caller's own array type::

    import numpy as np, torchbridge as tb
    x = np.linspace(-3, 3, 1_000_000)
    y = tb.special.erf(x)                    # numpy in, numpy out, by libtorch
    t = tb.apply(lambda t: t.cumsum(0), x)   # any torch function
    c = tb.torch.cumsum(x, dim=0)            # the torch namespace on any array
    e = tb.ops.aten.erf(x)                   # ATen operators by name, no Python torch
"""

from __future__ import annotations

# First, before anything loads _core: a clear ImportError when the installed torch is not the one
# _core was built against, then libtorch loaded from the installed torch (_torch_runtime.py).
from . import _torch_runtime  # noqa: F401  (imported for its check and libtorch loading)

# isort: split
from . import _compile, errors, fft, linalg, ndimage, ops, signal, spatial, special, stats, torch
from ._apply import apply
from ._core import __version__, set_num_threads
from ._differentiable import differentiable
from ._gradients import grad, value_and_grad
from .errors import (
    AxisError,
    DeviceError,
    DLPackError,
    DtypeError,
    InputTypeError,
    InvalidArgumentError,
    LinAlgError,
    MixedContainersError,
    NonNumericDtypeError,
    NotDifferentiableError,
    OutOfMemoryError,
    TorchbridgeError,
    TorchError,
    UnsupportedParameterError,
)

__all__ = [
    "__version__",
    "apply",
    "differentiable",
    "grad",
    "value_and_grad",
    "info",
    "set_num_threads",
    "special",
    "fft",
    "linalg",
    "ndimage",
    "signal",
    "spatial",
    "stats",
    "ops",
    "torch",
    "errors",
    "TorchbridgeError",
    "DLPackError",
    "DtypeError",
    "NonNumericDtypeError",
    "DeviceError",
    "InputTypeError",
    "MixedContainersError",
    "InvalidArgumentError",
    "AxisError",
    "LinAlgError",
    "OutOfMemoryError",
    "TorchError",
    "UnsupportedParameterError",
    "NotDifferentiableError",
]


_compile.when_dynamo_loads()


def info() -> dict[str, object]:
    """Versions, libtorch threads and CUDA availability, as a dict."""
    import platform

    import numpy

    from . import _core

    facts: dict[str, object] = dict(_core.build_info())
    facts["numpy"] = numpy.__version__
    facts["python"] = platform.python_version()
    return facts


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
