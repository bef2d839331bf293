"""torchbridge's exceptions.

Every error torchbridge raises derives from :class:`TorchbridgeError` and
also from the built-in exception a caller would expect, so ``except TypeError``
and ``except ValueError`` keep working when torchbridge replaces SciPy.
"""

from __future__ import annotations

__all__ = [
    "TorchbridgeError",
    "DLPackError",
    "DtypeError",
    "DeviceError",
    "InputTypeError",
    "MixedContainersError",
    "InvalidArgumentError",
    "TorchError",
    "UnsupportedParameterError",
]


class TorchbridgeError(Exception):
    """Root of every exception torchbridge raises."""


class DLPackError(TorchbridgeError, ValueError):
    """A producer's DLPack export failed or its descriptor is invalid."""


class DtypeError(TorchbridgeError, TypeError):
    """A dtype torchbridge (or the routine called) does not accept."""


class DeviceError(TorchbridgeError, ValueError):
    """Memory on a device torchbridge does not handle."""


class InputTypeError(TorchbridgeError, TypeError):
    """An argument that is neither an array nor a Python scalar, list or tuple."""


class MixedContainersError(TorchbridgeError, TypeError):
    """Arrays from two different array libraries in one call."""


class InvalidArgumentError(TorchbridgeError, ValueError):
    """An argument value outside what the routine accepts."""


class TorchError(TorchbridgeError, RuntimeError):
    """libtorch raised an error while computing."""


class UnsupportedParameterError(TorchbridgeError, NotImplementedError):
    """A parameter value SciPy accepts that torchbridge does not implement."""
