"""``torchbridge.apply``: run any torch function on foreign arrays."""

from __future__ import annotations

from typing import Any, Callable

from . import _core
from ._device import DeviceLike


def apply(fn: Callable[..., Any], *arrays: Any, device: DeviceLike = None, **kwargs: Any) -> Any:
    """Call ``fn(*tensors, **kwargs)`` on zero-copy torch views of ``arrays``.

    ``arrays`` must come from one array library (Python scalars, lists and
    tuples are taken as numpy). ``fn`` receives ``torch.Tensor`` views and may
    return a tensor, or a tuple or list of them (nested); each tensor comes
    back in the caller's array type, on the same device. Anything else that
    ``fn`` returns passes through unchanged. ``kwargs`` go to ``fn`` as they are.

    Inputs share memory with the tensors ``fn`` sees, so ``fn`` may write into
    them, except for read-only memory (numpy arrays with ``writeable=False``,
    JAX arrays): those are copied first, since torch ignores read-only flags.
    Negative-stride inputs are copied too (torch cannot represent them).

    ``device`` (``"cpu"``, ``"cuda"``, ``"cuda:N"`` or a ``torch.device``)
    runs ``fn`` there instead of where the arrays live: ``fn`` sees copies on
    that device (no copy for arrays already there; writes into copies do not
    reach the caller), and results are copied back to the caller's device. To
    pass a keyword named ``device`` to ``fn`` itself, bind it with
    ``functools.partial``.
    """
    import torch  # the views are torch tensors: torch must be imported first

    tensors, container = _core.torch_views(list(arrays), device)
    result = fn(*tensors, **kwargs)
    if container.is_torch:
        return result
    return convert_results(result, container, torch)


def convert_results(value: Any, container: Any, torch: Any, originals: dict | None = None) -> Any:
    """Tensors in ``value`` (also inside tuples, named tuples, lists and dicts)
    as arrays of ``container``'s library; anything else passes through.

    ``originals`` maps ``id(tensor)`` to the caller's own array for tensors
    that are views of an argument (an in-place function returning it): those
    come back as the caller's object itself.
    """
    if isinstance(value, torch.Tensor):
        original = originals.get(id(value)) if originals else None
        if original is not None:
            return original
        return container.wrap(value)  # detached, any lazy conjugate or negation applied
    if isinstance(value, tuple):
        items = [convert_results(v, container, torch, originals) for v in value]
        if hasattr(value, "_fields"):  # a named tuple such as torch.linalg.eigh's
            return type(value)(*items)
        return tuple(items) if type(value) is tuple else type(value)(items)
    if isinstance(value, list):
        return [convert_results(v, container, torch, originals) for v in value]
    if isinstance(value, dict):
        return {k: convert_results(v, container, torch, originals) for k, v in value.items()}
    return value
