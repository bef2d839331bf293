"""``torchbridge.apply``: run any torch function on foreign arrays."""

from __future__ import annotations

from typing import Any, Callable

from . import _core


def apply(fn: Callable[..., Any], *arrays: Any, **kwargs: Any) -> Any:
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
    """
    import torch

    views, container = _core.torch_views(list(arrays))
    tensors = [v if isinstance(v, torch.Tensor) else torch.from_dlpack(v) for v in views]
    result = fn(*tensors, **kwargs)
    if container.is_torch:
        return result
    return _convert(result, container, torch)


def _convert(value: Any, container: Any, torch: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return container.wrap(value.detach().resolve_conj().resolve_neg())
    if isinstance(value, tuple):
        converted = [_convert(v, container, torch) for v in value]
        if hasattr(value, "_fields"):  # a named tuple such as torch.linalg.eigh's
            return type(value)(*converted)
        return type(value)(converted) if type(value) is not tuple else tuple(converted)
    if isinstance(value, list):
        return [_convert(v, container, torch) for v in value]
    return value
