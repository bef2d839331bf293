"""`scipy.ndimage._filters`: correlations, convolutions and the smoothing,
selection and derivative filters.

The compiled functions of ``torchbridge._core.ndimage``; ``torchbridge.ndimage``
gives each its public face (see ``torchbridge._dispatch``).

``generic_gradient_magnitude`` and ``generic_laplace`` take a derivative
callable; they are SciPy's Python composites, written here in Python.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import _core
from .._core.ndimage import (
    convolve,
    convolve1d,
    correlate,
    correlate1d,
    gaussian_filter,
    gaussian_filter1d,
    gaussian_gradient_magnitude,
    gaussian_laplace,
    generic_filter,
    generic_filter1d,
    laplace,
    maximum_filter,
    maximum_filter1d,
    median_filter,
    minimum_filter,
    minimum_filter1d,
    percentile_filter,
    prewitt,
    rank_filter,
    sobel,
    uniform_filter,
    uniform_filter1d,
)
from ..errors import InvalidArgumentError, UnsupportedParameterError

__all__: list[str] = [
    "convolve",
    "convolve1d",
    "correlate",
    "correlate1d",
    "gaussian_filter",
    "gaussian_filter1d",
    "gaussian_gradient_magnitude",
    "gaussian_laplace",
    "generic_filter",
    "generic_filter1d",
    "generic_gradient_magnitude",
    "generic_laplace",
    "laplace",
    "maximum_filter",
    "maximum_filter1d",
    "median_filter",
    "minimum_filter",
    "minimum_filter1d",
    "percentile_filter",
    "prewitt",
    "rank_filter",
    "sobel",
    "uniform_filter",
    "uniform_filter1d",
]


# ---------------------------------------------------------------------------
# The routines that take a derivative callable (SciPy's Python-level
# composites): the derivative runs as the caller wrote it, on the caller's
# arrays; the squares, sums and square root are libtorch's, on the device.
# ---------------------------------------------------------------------------

#: What torchbridge's filters say when ``output=`` is an array (``output_arg``
#: in src/python/ndimage/filters.rs): a derivative that wraps one of them is
#: then called again with the output dtype.
_OUTPUT_ARRAY_REFUSED = "output= as an array"


def _is_array(obj: Any) -> bool:
    return (
        any(hasattr(obj, attr) for attr in ("__dlpack__", "__array__", "__array_interface__"))
        and not isinstance(obj, type)
    ) or isinstance(obj, list)


def _output_dtype(output: Any, input_dtype: np.dtype) -> np.dtype:
    """``output`` as SciPy's ``_get_output`` reads a dtype (``None``: the input's);
    an array to fill is refused as torchbridge's filters refuse it."""
    if output is None:
        return input_dtype
    if _is_array(output):
        raise UnsupportedParameterError(
            "output= as an array (filled in place) is not implemented; pass None or a dtype and use the result"
        )
    dtype = np.dtype(output)
    if not issubclass(dtype.type, (np.number, np.bool_)):
        raise UnsupportedParameterError(f"output dtype {dtype.name} is not implemented (a numeric dtype is needed)")
    return dtype


def _check_axes(axes: Any, ndim: int) -> tuple[int, ...]:
    """SciPy's ``_ni_support._check_axes``."""
    if axes is None:
        return tuple(range(ndim))
    scalar = np.isscalar(axes)  # (a scalar axis is neither checked nor wrapped, as in SciPy)
    if scalar:
        axes = (operator.index(axes),)
    elif isinstance(axes, Iterable):
        axes = tuple(operator.index(ax) for ax in axes)
        for ax in axes:
            if ax < -ndim or ax > ndim - 1:
                raise InvalidArgumentError(f"specified axis: {ax} is out of range")
        axes = tuple(ax % ndim if ax < 0 else ax for ax in axes)
    else:
        raise InvalidArgumentError("axes must be an integer, iterable of integers, or None")
    if len(set(axes)) != len(axes):
        raise InvalidArgumentError("axes must be unique")
    return axes


def _modes(mode: Any, n: int) -> list[Any]:
    """SciPy's ``_normalize_sequence`` of ``mode`` for ``n`` axes."""
    if not isinstance(mode, str) and np.iterable(mode):
        modes = list(mode)
        if len(modes) != n:
            raise InvalidArgumentError(
                f"sequence argument must have length equal to input rank (got {len(modes)} values for {n} axes)"
            )
        return modes
    return [mode] * n


def _as_tensor(value: Any, device: Any, where: Any, torch: Any) -> Any:
    """A derivative's result (any array library) as a torch tensor on ``where``."""
    if isinstance(value, torch.Tensor):
        return value.to(where)
    (tensor,), _ = _core.torch_views([value], device)
    return tensor.to(where)


def _promoted_add(acc: Any, term: Any, torch: Any) -> Any:
    """NumPy's ``acc += term``: the sum in the promoted dtype, cast back to ``acc``'s."""
    common = torch.promote_types(acc.dtype, term.dtype)
    return (acc.to(common) + term.to(common)).to(acc.dtype)


def _sqrt_unsafe(acc: Any, torch: Any) -> Any:
    """``np.sqrt(acc, acc, casting='unsafe')``: NumPy's loop for ``acc``'s dtype
    (float16 for 8-bit integers and bool, float32 for 16-bit ones, float64 for
    wider ones), cast back to ``acc``'s dtype (truncation for integers)."""
    if acc.is_floating_point() or acc.is_complex():
        return torch.sqrt(acc)
    bits = 8 if acc.dtype == torch.bool else acc.element_size() * 8
    loop = {8: torch.float16, 16: torch.float32}.get(bits, torch.float64)
    return torch.sqrt(acc.to(loop)).to(acc.dtype)


def _derivative_sum(
    input: Any,
    derivative: Any,
    output: Any,
    mode: Any,
    cval: Any,
    extra_arguments: Any,
    extra_keywords: Any,
    axes: Any,
    device: Any,
    magnitude: bool,
) -> Any:
    """SciPy's ``generic_gradient_magnitude`` (``magnitude``) or ``generic_laplace``."""
    import torch

    if extra_keywords is None:
        extra_keywords = {}
    (x,), container = _core.torch_views([input], device)
    try:
        input_dtype = np.dtype(str(x.dtype).removeprefix("torch."))
    except TypeError:
        raise UnsupportedParameterError(f"{x.dtype} input is not implemented (SciPy has no such dtype)") from None
    dtype = _output_dtype(output, input_dtype)
    tdtype = getattr(torch, dtype.name)
    # the derivative gets the caller's own array (SciPy: np.asarray(input))
    if container.name == "numpy" and not isinstance(input, np.ndarray):
        input = np.asarray(input)
    axes = _check_axes(axes, x.ndim)
    if not axes:
        result = x.to(tdtype, copy=True)
        return result if container.is_torch else container.wrap(result)
    modes = _modes(mode, len(axes))
    args, kwargs = tuple(extra_arguments), dict(extra_keywords)

    # first axis: SciPy hands the output array to fill (the derivative's return value is ignored)
    zeros = torch.zeros(x.shape, dtype=tdtype, device=x.device)
    fill = zeros if container.is_torch else container.wrap(zeros)
    if getattr(derivative, "_torchbridge_face", False):
        first = derivative(input, axes[0], dtype, modes[0], cval, *args, **kwargs)
    else:
        try:
            first = derivative(input, axes[0], fill, modes[0], cval, *args, **kwargs)
        except UnsupportedParameterError as error:
            if not str(error).startswith(_OUTPUT_ARRAY_REFUSED):
                raise
            first = derivative(input, axes[0], dtype, modes[0], cval, *args, **kwargs)
    if first is None:
        first = fill
    acc = _as_tensor(first, device, x.device, torch).to(tdtype)
    if magnitude:
        acc = acc * acc
    for axis, axis_mode in zip(axes[1:], modes[1:]):
        term = derivative(input, axis, dtype, axis_mode, cval, *args, **kwargs)
        term = _as_tensor(term, device, x.device, torch)
        acc = _promoted_add(acc, term * term if magnitude else term, torch)
    if magnitude:
        acc = _sqrt_unsafe(acc, torch)
    return acc if container.is_torch else container.wrap(acc)


def generic_gradient_magnitude(
    input, derivative, output=None, mode="reflect", cval=0.0, extra_arguments=(), extra_keywords=None, *,
    axes=None, device=None,
):
    """Gradient magnitude using a provided gradient function.

    torchbridge: SciPy's composite, with the squares, their sum and the square
    root computed by libtorch on the input's device, in the output dtype as
    NumPy computes them (``np.sqrt(..., casting='unsafe')`` included). The
    ``derivative`` is called as SciPy calls it,
    ``derivative(input, axis, output, mode, cval, *extra_arguments, **extra_keywords)``,
    with the caller's own array (a NumPy array stays NumPy, a torch tensor
    stays a torch tensor on its device), one ``mode`` per axis where ``mode``
    is a sequence. On the first axis ``output`` is a zero array of the output
    dtype in the caller's library, which the derivative may fill and return
    ``None`` (as SciPy allows), or return its result; torchbridge's own
    filters (``torchbridge.ndimage.sobel`` ...) refuse arrays to fill, so
    they, and derivatives that hand the array on to them, get the output
    dtype instead. On the other axes ``output`` is the output dtype (a
    ``numpy.dtype``, as in SciPy) and the result is used. So both
    ``generic_gradient_magnitude(x, torchbridge.ndimage.sobel)`` and
    ``generic_gradient_magnitude(numpy_x, scipy.ndimage.sobel)`` work, and
    torch or CUDA input never goes through NumPy. ``output=`` as an array to
    fill is not implemented (``UnsupportedParameterError``): pass ``None`` or
    a dtype. ``device=None`` (keyword-only): ``"cpu"``, ``"cuda"``,
    ``"cuda:N"`` or a ``torch.device`` runs the squares, sums and square root
    there (the derivative still receives the caller's arrays); the result
    comes back in the caller's container on the caller's device.
    """
    return _derivative_sum(
        input, derivative, output, mode, cval, extra_arguments, extra_keywords, axes, device, magnitude=True
    )


def generic_laplace(
    input, derivative2, output=None, mode="reflect", cval=0.0, extra_arguments=(), extra_keywords=None, *,
    axes=None, device=None,
):
    """N-D Laplace filter using a provided second derivative function.

    torchbridge: SciPy's composite, with the sum of the second derivatives
    computed by libtorch on the input's device, in the output dtype as NumPy's
    ``output += tmp`` computes it. ``derivative2`` is called as SciPy calls
    it, ``derivative2(input, axis, output, mode, cval, *extra_arguments, **extra_keywords)``,
    with the caller's own array (NumPy stays NumPy, torch stays torch on its
    device), one ``mode`` per axis where ``mode`` is a sequence. On the first
    axis ``output`` is a zero array of the output dtype in the caller's
    library, which the derivative may fill and return ``None`` (as SciPy
    allows), or return its result; torchbridge's own filters refuse arrays to
    fill, so they, and derivatives that hand the array on to them, get the
    output dtype instead. On the other axes ``output`` is the output dtype (a
    ``numpy.dtype``) and the result is used. ``output=`` as an array to fill
    is not implemented (``UnsupportedParameterError``): pass ``None`` or a
    dtype. ``device=None`` (keyword-only): ``"cpu"``, ``"cuda"``, ``"cuda:N"``
    or a ``torch.device`` runs the sums there (the derivative still receives
    the caller's arrays); the result comes back in the caller's container on
    the caller's device.
    """
    return _derivative_sum(
        input, derivative2, output, mode, cval, extra_arguments, extra_keywords, axes, device, magnitude=False
    )
