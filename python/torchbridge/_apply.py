"""``torchbridge.apply``: run any torch function on foreign arrays."""

from __future__ import annotations

from typing import Any, Callable

import numpy as _np

from . import _core
from ._device import DeviceLike

_ndarray = _np.ndarray


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
    if device is None and len(arrays) == 1:
        # the commonest call, one exact writable numpy array: ``_core``'s numpy fast path (see below)
        result = _numpy_call(fn, arrays[0], kwargs, _convert_numpy, _DECLINED)
        if result is not _DECLINED:
            return result
    torch = _torch or _import_torch()  # the views are torch tensors: torch must be imported first
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


# The per-call fast path for the commonest caller, exact writable numpy arrays (``apply`` and the
# ``torchbridge.torch`` proxy): torch's own ``from_numpy`` makes the views and the results are ndarrays
# over the result tensors' memory, zero-copy both ways, without a container object (0.4x the cost of the
# general route on a 1-element array). Whatever it declines (read-only memory, unaligned, complex,
# byte-swapped or unsupported dtypes, negative strides) takes the general route, which copies or
# explains as documented; results that require grad, carry a conjugate or negative bit, or live on a GPU
# are converted as the general route converts them. One array: ``_core.numpy_call`` (and the proxies'
# ``_core.ProxyCall``) runs the whole path in Rust, with no Python frame between caller and function;
# several arrays (``torchbridge.torch``'s positional route): ``numpy_views`` and ``numpy_result``.


_torch: Any = None

#: ``_core.numpy_call``'s answer where the fast path does not apply (a private object no function returns).
_DECLINED = object()
_numpy_call = _core.numpy_call


def _convert_numpy(result: Any, view: Any, array: Any) -> Any:
    """``apply``'s fast path for results that are not a ``torch.Tensor`` (tuples, subclasses, others)."""
    return convert_results(result, numpy_container(), _torch or _import_torch())


def _import_torch() -> Any:
    global _torch
    import torch

    _torch = torch
    return torch


def numpy_view(array: Any, torch: Any) -> Any:
    """``torch.from_numpy(array)`` when ``array`` is an exact, writable, aligned, real ``numpy.ndarray``
    that torch can view; ``None`` otherwise (the caller takes the general route, which copies
    unaligned memory and complex data off its itemsize's alignment, as DESIGN.md's traps say)."""
    if type(array) is not _ndarray or not array.flags.behaved or array.dtype.kind == "c":
        return None  # (``behaved``: aligned and writeable, one flags lookup)
    try:
        return torch.from_numpy(array)
    except (TypeError, ValueError, RuntimeError):
        return None


def numpy_views(arrays: list[Any], torch: Any) -> list[Any] | None:
    """:func:`numpy_view` of every one of ``arrays``; ``None`` unless all have one."""
    views = []
    for array in arrays:
        view = numpy_view(array, torch)
        if view is None:
            return None
        views.append(view)
    return views


def numpy_result(tensor: Any) -> Any:
    """A ``torch.Tensor`` result for a numpy caller: ``tensor.numpy()`` (zero-copy), or the general
    conversion where torch declines (autograd, lazy conjugate or negation, a GPU, a dtype numpy lacks)."""
    try:
        return tensor.numpy()
    except (TypeError, ValueError, RuntimeError):
        return numpy_container().wrap(tensor)


_numpy_container: Any = None


def numpy_container() -> Any:
    """The container of numpy callers (results as numpy arrays, on the host)."""
    global _numpy_container
    if _numpy_container is None:
        _numpy_container = _core.torch_views([_np.empty(0)], None)[1]
    return _numpy_container
