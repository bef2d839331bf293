"""``torchbridge.grad`` and ``torchbridge.value_and_grad``: gradients of a
scalar function of arrays of any library, recorded by libtorch's autograd.

``fun`` receives torch tensors (zero-copy views of the caller's arrays, as
:func:`torchbridge.apply` gives them) and calls torchbridge's routines, the
``torchbridge.torch`` namespace or tensor methods on them; torch tensors keep
their autograd graph through torchbridge's routines, so the tape covers the
whole function. The value and the gradients come back in the caller's array
library, on the caller's device.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Callable

from . import _core
from ._apply import convert_results


def _argnums(argnums: int | Sequence[int], nargs: int) -> tuple[int, ...]:
    chosen: tuple[int, ...] = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    if not chosen or not all(isinstance(i, int) for i in chosen):
        raise TypeError(f"argnums must be an int or a non-empty sequence of ints, got {argnums!r}")
    for i in chosen:
        if not -nargs <= i < nargs:
            raise ValueError(f"argnums {i} is out of range for a call with {nargs} positional arguments")
    return tuple(i % nargs for i in chosen)


def value_and_grad(fun: Callable[..., Any], argnums: int | Sequence[int] = 0) -> Callable[..., tuple[Any, Any]]:
    """``fun`` and its gradient in the positional arguments ``argnums``.

    Returns a function taking ``fun``'s arguments and returning ``(value,
    gradient)``: ``fun``'s scalar value and its gradient, each in the caller's
    array library (numpy in, numpy out; jax in, jax out), on the caller's
    device. With a sequence ``argnums`` the gradient is a tuple, one per
    argument. The differentiated arguments must be floating-point arrays of
    one library (Python floats and lists are taken as numpy); ``fun`` receives
    them as torch tensors that share their memory, and must return a real
    scalar (a 0-d or one-element tensor). The other positional arrays (those
    with ``__dlpack__``: data, weights) reach ``fun`` as torch views too,
    without gradients; any other argument is passed as it is.

    A routine that does not differentiate in an argument raises
    :class:`~torchbridge.errors.NotDifferentiableError` rather than give a
    wrong gradient.
    """

    @functools.wraps(fun)
    def wrapped(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        import torch

        chosen = _argnums(argnums, len(args))
        views, container = _core.torch_views([args[i] for i in chosen])
        inputs = []
        for tensor in views:
            if not (tensor.is_floating_point() or tensor.is_complex()):
                raise TypeError(
                    f"gradients are defined for floating-point arguments; argument of dtype {tensor.dtype} "
                    "(convert it with `.astype(float)` first)"
                )
            # a new leaf over the same memory: the caller's own tensor is not marked
            inputs.append(tensor.detach().requires_grad_())
        call_args = list(args)
        for i, tensor in zip(chosen, inputs):
            call_args[i] = tensor
        for i, arg in enumerate(args):
            if i not in chosen and hasattr(arg, "__dlpack__") and not isinstance(arg, torch.Tensor):
                # the other arrays (data, weights) as torch views too, each of its own library
                (call_args[i],), _ = _core.torch_views([arg])
        with torch.enable_grad():
            value = fun(*call_args, **kwargs)
            if not isinstance(value, torch.Tensor) or value.numel() != 1 or value.is_complex():
                raise TypeError(
                    "grad and value_and_grad need `fun` to return a real scalar torch tensor (0-d or one "
                    f"element), got {type(value).__name__}"
                    + (
                        f" of shape {tuple(value.shape)} and dtype {value.dtype}"
                        if isinstance(value, torch.Tensor)
                        else ""
                    )
                )
            if not value.requires_grad:
                raise TypeError(
                    "fun's value does not depend on the differentiated arguments through autograd "
                    "(is it computed on detached values, or outside torch?)"
                )
            grads = torch.autograd.grad(value.reshape(()), inputs, allow_unused=True)
        grads = tuple(torch.zeros_like(x) if g is None else g for x, g in zip(inputs, grads))
        if container.is_torch:
            value_out, grads_out = value.detach().reshape(()), grads
        else:
            value_out = convert_results(value.reshape(()), container, torch)
            grads_out = convert_results(grads, container, torch)
        return value_out, (grads_out[0] if isinstance(argnums, int) else tuple(grads_out))

    return wrapped


def grad(fun: Callable[..., Any], argnums: int | Sequence[int] = 0) -> Callable[..., Any]:
    """The gradient of ``fun`` in the positional arguments ``argnums``:
    :func:`value_and_grad` without the value."""
    value_and_grad_fun = value_and_grad(fun, argnums)

    @functools.wraps(fun)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return value_and_grad_fun(*args, **kwargs)[1]

    return wrapped
