"""The ``device=`` keyword every routine takes.

``device=None`` (the default) computes where the arrays live. ``"cpu"``,
``"cuda"``, ``"cuda:N"`` or a ``torch.device`` compute there instead: each
input is copied to that device (no copy when already there) and each result
is copied back to the device of the caller's arrays, so results still come
back in the caller's container on the caller's device. The copies are the
whole cost of the choice; nothing else changes. ``"cuda"`` without an ordinal
means the inputs' CUDA device, or ``cuda:0`` for host inputs.

``device`` is an explicit keyword-only parameter of every routine,
implemented in Rust (``src/python/placement.rs``); the few routines written
in Python (``special.factorial``, ``linalg.hadamard``) pass it on to the
compiled ones they call.
"""

from __future__ import annotations

from typing import Optional, Protocol, Union

__all__ = ["DeviceLike"]


class TorchDeviceLike(Protocol):
    """A ``torch.device``: a ``type`` ("cpu", "cuda") and an optional ``index``."""

    @property
    def type(self) -> str: ...

    @property
    def index(self) -> Optional[int]: ...


#: What ``device=`` accepts.
DeviceLike = Union[str, TorchDeviceLike, None]
