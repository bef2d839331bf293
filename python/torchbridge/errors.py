"""torchbridge's exceptions.

Every error torchbridge raises derives from :class:`TorchbridgeError` and
also from the built-in exception a caller would expect, so ``except TypeError``
and ``except ValueError`` keep working when torchbridge replaces SciPy. The
one exception is :data:`LinAlgError`, which is ``numpy.linalg.LinAlgError``
itself, as in SciPy.
"""

from __future__ import annotations

import numpy as _np

__all__ = [
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


class TorchbridgeError(Exception):
    """Root of every exception torchbridge raises."""


class DLPackError(TorchbridgeError, ValueError):
    """A producer's DLPack export failed or its descriptor is invalid."""


class DtypeError(TorchbridgeError, TypeError):
    """A dtype torchbridge (or the routine called) does not accept."""


class NonNumericDtypeError(DtypeError, ValueError):
    """An array whose dtype holds no numbers (object, str, bytes, datetime,
    structured): a ``DtypeError`` (a ``TypeError``, as SciPy's ufuncs raise
    for it) and a ``ValueError`` (as ``scipy.linalg`` and others raise)."""


class DeviceError(TorchbridgeError, ValueError):
    """Memory on a device torchbridge does not handle."""


class InputTypeError(TorchbridgeError, TypeError, ValueError):
    """An argument that is not an array and that ``np.asarray`` would only
    make an object array of (``None``, a dict, an arbitrary object): a
    ``TypeError``, and a ``ValueError`` as SciPy raises it for the object
    array it makes of such an argument (``scipy.linalg.inv(None)``)."""


class MixedContainersError(TorchbridgeError, TypeError):
    """Arrays from two different array libraries in one call."""


class InvalidArgumentError(TorchbridgeError, ValueError):
    """An argument value outside what the routine accepts."""


class AxisError(InvalidArgumentError, _np.exceptions.AxisError):
    """An axis outside an array's dimensions: NumPy's ``AxisError`` (hence
    also an ``IndexError``, what SciPy raises for it), with ``.axis`` and ``.ndim``."""


#: A singular matrix, a matrix that is not positive definite, or no
#: convergence. It is ``numpy.linalg.LinAlgError`` itself, as
#: ``scipy.linalg.LinAlgError`` is: code that catches SciPy's catches ours.
LinAlgError = _np.linalg.LinAlgError


class OutOfMemoryError(TorchbridgeError, MemoryError):
    """An allocation that does not fit in memory, as NumPy raises ``MemoryError``."""


class TorchError(TorchbridgeError, RuntimeError):
    """libtorch raised an error while computing."""


class UnsupportedParameterError(TorchbridgeError, NotImplementedError):
    """A parameter value SciPy accepts that torchbridge does not implement."""


class NotDifferentiableError(TorchbridgeError, RuntimeError):
    """An input requires grad (and autograd is recording), but the routine
    does not differentiate in it: raised instead of returning a result
    silently cut from the graph. ``x.detach()`` or ``torch.no_grad()`` gives
    the value alone."""


def __dir__() -> list[str]:
    """The public names only, as SciPy's modules do (``dir()`` is ``__all__``)."""
    return sorted(__all__)
