"""``torch.compile`` support: torchbridge's routines as torch custom operators.

A compiled builtin (torchbridge's routines are pyo3 functions) is opaque to
Dynamo, so a function calling one would break the graph there. Each routine
listed here is registered once as a torch custom operator
(``torch.ops.torchbridge.<family>_<name>``, :func:`torch.library.custom_op`)
with a fake kernel (the result's shape and dtype, computed without data), and
Dynamo is told to trace the builtin as a call of that operator
(``torch._dynamo.substitute_in_graph``). Compiled code therefore calls the
same builtin at run time (results equal eager mode), with no graph break.
Eager calls never see any of this: the public routine calls the builtin
directly, so registering costs the common call nothing.

:func:`register` runs when Dynamo is loaded (``torch._dynamo``, which
``torch.compile`` imports on its first use), or at ``import torchbridge`` if
it already is: importing Dynamo takes seconds, which a program that never
compiles does not pay for torchbridge's sake.

Covered: every ufunc of ``torchbridge.special``; ``fft.fft``, ``ifft``,
``rfft``, ``irfft``, ``dct``, ``idct``, ``dst``, ``idst``; ``linalg.solve``,
``inv``, ``det``, ``expm``. A compiled backward goes through the formulas of
:func:`_derivatives` (19 ufuncs so far); through any other operator it raises
torch's own error (no autograd formula registered), never a wrong gradient.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading
from typing import Any

from . import _core

_lock = threading.Lock()
_registered = False

#: numpy type characters of the ufunc loops (``.types``) -> torch dtype names
_CHARS = {"f": "float32", "d": "float64", "F": "complex64", "D": "complex128", "e": "float16", "l": "int64"}
#: the loop type characters each input dtype casts to safely (NumPy's
#: ``can_cast(..., "safe")``; "l" is int64, "g" long double has no torch dtype)
_SAFE = {
    "bool": "lfdFD",
    "uint8": "lfdFD",
    "int8": "lfdFD",
    "int16": "lfdFD",
    "int32": "ldD",
    "int64": "ldD",
    "float16": "efdFD",
    "float32": "fdFD",
    "float64": "dD",
    "complex64": "FD",
    "complex128": "D",
}


def _ufunc_dtype(name: str, types: list[str], dtypes: list[Any]) -> Any:
    """The result dtype of ufunc ``name`` for inputs of ``dtypes``: the first
    loop of ``types`` every input casts to safely, as NumPy resolves it."""
    import torch

    names = [str(d).removeprefix("torch.") for d in dtypes]
    # an exact match first, then the first loop in SciPy's order that every input casts
    # to safely (as NumPy, and src/ops/special/loops.rs: float32 takes wofz's D->D)
    for loop in types:
        ins, out = loop.split("->")
        if len(ins) == len(names) and all(_CHARS.get(c) == n for c, n in zip(ins, names)) and out[0] in _CHARS:
            return getattr(torch, _CHARS[out[0]])
    for loop in types:
        ins, out = loop.split("->")
        fits = len(ins) == len(names) and all(c in _SAFE.get(n, "") for c, n in zip(ins, names))
        if fits and out[0] in _CHARS:
            return getattr(torch, _CHARS[out[0]])
    raise TypeError(f"special.{name}: no loop for input dtypes {names} (loops: {types})")


def _contiguous(routine: Any) -> Any:
    """``routine`` with a C-contiguous result: what the fake kernels promise
    (LAPACK-backed routines return column-major matrices)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        result = routine(*args, **kwargs)
        if isinstance(result, tuple):  # a multi-output ufunc: its outputs may be views of one buffer,
            return tuple(t.contiguous().clone() for t in result)  # which a custom op must not return
        return result.contiguous()

    return call


def _derivatives() -> dict[str, Any]:
    """By ufunc, the partial derivatives ``d(out)/d(x_i)`` as functions of
    ``(torch, inputs, out)`` (DLMF; SciPy's definitions), written with torch
    ops and torchbridge's own operators so that they trace under compile."""
    import math

    sqrt_pi, sqrt_2pi = math.sqrt(math.pi), math.sqrt(2 * math.pi)

    def tb_op(torch: Any, name: str) -> Any:
        return torch.ops.torchbridge.__getattr__(f"special_{name}").default

    return {
        "erf": lambda t, x, out: [2 / sqrt_pi * t.exp(-x[0] * x[0])],
        "erfc": lambda t, x, out: [-2 / sqrt_pi * t.exp(-x[0] * x[0])],
        "erfcx": lambda t, x, out: [2 * x[0] * out - 2 / sqrt_pi],
        "wofz": lambda t, x, out: [-2 * x[0] * out + 2j / sqrt_pi],
        "ndtr": lambda t, x, out: [t.exp(-x[0] * x[0] / 2) / sqrt_2pi],
        "log_ndtr": lambda t, x, out: [t.exp(-x[0] * x[0] / 2 - out) / sqrt_2pi],
        "expit": lambda t, x, out: [out * (1 - out)],
        "log_expit": lambda t, x, out: [t.sigmoid(-x[0])],
        "logit": lambda t, x, out: [1 / (x[0] * (1 - x[0]))],
        "gammaln": lambda t, x, out: [tb_op(t, "digamma")(x[0])],
        "digamma": lambda t, x, out: [t.special.polygamma(1, x[0])],
        "expm1": lambda t, x, out: [out + 1],
        "log1p": lambda t, x, out: [1 / (1 + x[0])],
        "exp2": lambda t, x, out: [out * math.log(2)],
        "exp10": lambda t, x, out: [out * math.log(10)],
        "i0": lambda t, x, out: [tb_op(t, "i1")(x[0])],
        "i0e": lambda t, x, out: [tb_op(t, "i1e")(x[0]) - t.sign(x[0]) * out],
        "entr": lambda t, x, out: [-t.log(x[0]) - 1],
        "xlogy": lambda t, x, out: [t.log(x[1]), x[0] / x[1]],
        "xlog1py": lambda t, x, out: [t.log1p(x[1]), x[0] / (1 + x[1])],
    }


def _chain(grad: Any, d: Any, x: Any) -> Any:
    """``grad * d`` in PyTorch's convention for a holomorphic ``d(out)/dx``:
    its conjugate, and the real part for a real input."""
    if not d.is_complex():
        return grad * d
    product = grad * d.conj()
    return product if x.is_complex() else product.real


def _register_derivative(torch: Any, op: Any, derivative: Any) -> None:
    """``op``'s autograd formula: the chain rule over ``derivative``'s partials,
    each gradient summed back to its input's (broadcast) shape."""

    def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
        ctx.save_for_backward(*inputs, output)

    def backward(ctx: Any, grad: Any) -> Any:
        *xs, out = ctx.saved_tensors
        partials = derivative(torch, xs, out)
        grads = tuple(
            _chain(grad, d, x).sum_to_size(x.shape) if needed else None
            for x, d, needed in zip(xs, partials, ctx.needs_input_grad)
        )
        return grads[0] if len(grads) == 1 else grads

    op.register_autograd(backward, setup_context=setup_context)


_DERIVATIVES = _derivatives()


def _special(torch: Any, name: str) -> None:
    builtin = getattr(_core.special, name)
    types = _core.special._ufunc_types(name)
    ins, outs = types[0].split("->")
    returns = "Tensor" if len(outs) == 1 else "(" + ", ".join(["Tensor"] * len(outs)) + ")"
    schema = "(" + ", ".join(f"Tensor x{i}" for i in range(len(ins))) + ") -> " + returns
    op = torch.library.custom_op(f"torchbridge::special_{name}", _contiguous(builtin), mutates_args=(), schema=schema)

    @op.register_fake
    def _(*xs: Any) -> Any:
        shape = torch.broadcast_shapes(*(x.shape for x in xs))
        dtype = _ufunc_dtype(name, types, [x.dtype for x in xs])
        if len(outs) == 1:
            return xs[0].new_empty(shape, dtype=dtype)
        return tuple(xs[0].new_empty(shape, dtype=dtype) for _ in outs)

    if name in _DERIVATIVES:
        _register_derivative(torch, op, _DERIVATIVES[name])

    traced = torch.ops.torchbridge.__getattr__(f"special_{name}").default  # what Dynamo records

    def polyfill(*xs: Any, out: Any = None, device: Any = None, **kwargs: Any) -> Any:
        if out is not None or device is not None or kwargs:
            raise NotImplementedError(f"special.{name} under torch.compile takes its array arguments only")
        return traced(*(x if isinstance(x, torch.Tensor) else torch.as_tensor(x) for x in xs))

    torch._dynamo.substitute_in_graph(builtin, skip_signature_check=True)(polyfill)


def _fft(torch: Any, name: str) -> None:
    builtin = getattr(_core.fft, name)
    real_to_real = name in ("dct", "idct", "dst", "idst")
    if real_to_real:
        schema = "(Tensor x, int type=2, SymInt? n=None, int axis=-1, str? norm=None) -> Tensor"

        def call(x: Any, type: int = 2, n: Any = None, axis: int = -1, norm: Any = None) -> Any:
            return builtin(x, type, n, axis, norm)

    else:
        schema = "(Tensor x, SymInt? n=None, int axis=-1, str? norm=None) -> Tensor"

        def call(x: Any, n: Any = None, axis: int = -1, norm: Any = None) -> Any:  # type: ignore[misc]
            return builtin(x, n, axis, norm)

    op = torch.library.custom_op(f"torchbridge::fft_{name}", _contiguous(call), mutates_args=(), schema=schema)

    @op.register_fake
    def _(x: Any, *args: Any, **kwargs: Any) -> Any:
        names = ("type", "n", "axis", "norm") if real_to_real else ("n", "axis", "norm")
        given = {"type": 2, "n": None, "axis": -1, "norm": None, **dict(zip(names, args)), **kwargs}
        n, axis = given["n"], given["axis"]
        if not (x.is_floating_point() or x.is_complex()) or x.dtype == torch.float16:
            x = x.to(torch.float64)
        if real_to_real:
            shape = list(x.shape)
            if n is not None:
                shape[axis] = n
            return x.new_empty(shape)
        return getattr(torch.fft, name)(x, n=n, dim=axis, norm=given["norm"])

    traced = torch.ops.torchbridge.__getattr__(f"fft_{name}").default

    def polyfill(x: Any, *args: Any, device: Any = None, **kwargs: Any) -> Any:
        names = ("type", "n", "axis", "norm") if real_to_real else ("n", "axis", "norm")
        values = dict(zip(names, args))
        values.update((k, v) for k, v in kwargs.items() if k in names)
        if device is not None or set(kwargs) - set(names) - {"overwrite_x", "workers"}:
            raise NotImplementedError(f"fft.{name} under torch.compile takes {', '.join(names)} only")
        return traced(x, **values)

    torch._dynamo.substitute_in_graph(builtin, skip_signature_check=True)(polyfill)


def _linalg(torch: Any, name: str) -> None:
    builtin = getattr(_core.linalg, name)
    fakes = {
        "solve": lambda a, b: (
            torch.linalg.solve(a, b.unsqueeze(-1)).squeeze(-1) if b.dim() == a.dim() - 1 else torch.linalg.solve(a, b)
        ),
        "inv": torch.linalg.inv,
        "det": torch.linalg.det,
        "expm": lambda a: torch.empty_like(a),
    }
    arity = 2 if name == "solve" else 1
    schema = "(" + ", ".join(f"Tensor x{i}" for i in range(arity)) + ") -> Tensor"
    op = torch.library.custom_op(f"torchbridge::linalg_{name}", _contiguous(builtin), mutates_args=(), schema=schema)

    @op.register_fake
    def _(*xs: Any) -> Any:
        xs = tuple(x if x.is_floating_point() or x.is_complex() else x.to(torch.float64) for x in xs)
        return fakes[name](*xs)

    traced = torch.ops.torchbridge.__getattr__(f"linalg_{name}").default

    def polyfill(*args: Any, device: Any = None, **kwargs: Any) -> Any:
        if device is not None or len(args) != arity or set(kwargs) - {"overwrite_a", "overwrite_b", "check_finite"}:
            raise NotImplementedError(f"linalg.{name} under torch.compile takes its matrices only")
        return traced(*args)

    torch._dynamo.substitute_in_graph(builtin, skip_signature_check=True)(polyfill)


FFT = ("fft", "ifft", "rfft", "irfft", "dct", "idct", "dst", "idst")
LINALG = ("solve", "inv", "det", "expm")


def register() -> None:
    """Registers the custom operators and Dynamo's substitutions (once; torch imported)."""
    global _registered
    with _lock:
        if _registered:
            return
        _registered = True
        import torch
        import torch._dynamo

        # the ufunc table's rows (not the functions over its internal loops, such as spherical_jn)
        for name in _core.special.UFUNCS:
            _special(torch, name)
        for name in FFT:
            _fft(torch, name)
        for name in LINALG:
            _linalg(torch, name)


class _AfterDynamo(importlib.abc.MetaPathFinder):
    """A one-shot import hook: :func:`register` once ``torch._dynamo`` has loaded."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != "torch._dynamo":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _RegisteringLoader(spec.loader)
        return spec


class _RegisteringLoader(importlib.abc.Loader):
    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self.loader.exec_module(module)
        register()


def when_dynamo_loads() -> None:
    """:func:`register` now if ``torch._dynamo`` is loaded, else when it loads."""
    if "torch._dynamo" in sys.modules:
        register()
    elif not any(isinstance(finder, _AfterDynamo) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AfterDynamo())
