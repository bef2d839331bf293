"""The ``device=`` keyword every routine takes.

``device=None`` (the default) computes where the arrays live. ``"cpu"``,
``"cuda"``, ``"cuda:N"`` or a ``torch.device`` compute there instead: each
input is copied to that device (no copy when already there) and each result
is copied back to the device of the caller's arrays, so results still come
back in the caller's container on the caller's device. The copies are the
whole cost of the choice; nothing else changes. ``"cuda"`` without an ordinal
means the inputs' CUDA device, or ``cuda:0`` for host inputs.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Optional, Protocol, TypeVar, Union

from . import _core

__all__ = ["DeviceLike", "TAKES_NO_ARRAYS", "takes_device"]

#: Routines that take no arrays, so have no computation to place.
TAKES_NO_ARRAYS = frozenset({"next_fast_len", "prev_fast_len"})


class TorchDeviceLike(Protocol):
    """A ``torch.device``: a ``type`` ("cpu", "cuda") and an optional ``index``."""

    @property
    def type(self) -> str: ...

    @property
    def index(self) -> Optional[int]: ...


#: What ``device=`` accepts.
DeviceLike = Union[str, TorchDeviceLike, None]

_F = TypeVar("_F", bound=Callable[..., Any])


def takes_device(routine: _F) -> _F:
    """``routine`` with a keyword-only ``device=None`` parameter (see the
    module docs); routines that already take ``device`` are returned as is."""
    signature = inspect.signature(routine)
    if "device" in signature.parameters:
        return routine

    @functools.wraps(routine)
    def on_device(*args: Any, device: DeviceLike = None, **kwargs: Any) -> Any:
        if device is None:
            return routine(*args, **kwargs)
        return _core.call_on(device, routine, args, kwargs)

    parameters = list(signature.parameters.values())
    keyword = inspect.Parameter("device", inspect.Parameter.KEYWORD_ONLY, default=None)
    if parameters and parameters[-1].kind is inspect.Parameter.VAR_KEYWORD:
        parameters.insert(len(parameters) - 1, keyword)
    else:
        parameters.append(keyword)
    on_device.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return on_device  # type: ignore[return-value]
