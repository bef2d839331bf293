"""The chunking classes: how a routine's call on dask arrays becomes a graph.

Each class builds the graph with dask.array's own primitives
(``apply_gufunc``, ``map_blocks``, ``reduction``); in every task the compiled
routine computes on the task's blocks (numpy or cupy chunks, as the caller's
array has them), so libtorch does the work inside the workers. Building a
graph computes nothing: dtypes and metas are found by calling the routine
once on a tiny host probe (one element, or one small matrix) with the
caller's options, which also reports a bad option at once, as the eager call
would; dask is always given ``meta``, so it never calls a routine on fake
data itself.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..errors import MixedContainersError, UnsupportedParameterError
from ._route import Call, dask_array_type

# --------------------------------------------------------------------------- tasks


class _Slot:
    """A placeholder for the ``index``-th block a task receives."""

    def __init__(self, index: int):
        self.index = index

    def __dask_tokenize__(self) -> tuple[str, int]:
        return ("torchbridge-slot", self.index)


class Task:
    """``func`` applied to blocks: the call's other arguments fixed, the
    blocks put where the call had its arrays. Picklable: the compiled
    routine pickles by reference."""

    def __init__(self, func: Callable[..., Any], args: tuple, kwargs: dict):
        self.func = func
        self.args = args
        self.kwargs = kwargs
        # dask names a graph's layers after their function, and keys them by its token
        self.__name__ = getattr(func, "__name__", type(self).__name__)

    def __dask_tokenize__(self) -> Any:
        from dask.base import normalize_token

        return normalize_token((self.func, self.args, self.kwargs))

    @classmethod
    def of(cls, call: Call, names: Sequence[str], **fixed: Any) -> Task:
        """The task that calls ``call``'s routine with its array arguments
        ``names`` (see :class:`Gufunc` for ``"x.i"``) replaced by the blocks,
        in that order (and ``fixed`` as given). A dask array anywhere else is
        refused: captured in the task, it would be computed inside it."""
        bases = {name.partition(".")[0] for name in names}
        array_type = _da().Array
        for name, value in call.bound.arguments.items():
            values = value if isinstance(value, (list, tuple)) else (value,)
            if name not in bases and name not in fixed and any(isinstance(v, array_type) for v in values):
                raise UnsupportedParameterError(
                    f"{call.name}: `{name}` as a dask array is not supported (it is an option, not an "
                    "array the routine maps over); pass a number or a numpy array"
                )
        slots = replacing(call, {name: _Slot(i) for i, name in enumerate(names)})
        args, kwargs = call.replaced(**slots, **fixed)
        return cls(call.func, args, kwargs)

    def __call__(self, *blocks: Any) -> Any:
        def fill(value: Any) -> Any:
            if isinstance(value, tuple):  # a tuple argument holding blocks: ``(c, lower)``
                return tuple(fill(item) for item in value)
            return blocks[value.index] if isinstance(value, _Slot) else value

        args = tuple(fill(value) for value in self.args)
        kwargs = {key: fill(value) for key, value in self.kwargs.items()}
        return self.func(*args, **kwargs)


def _da():
    import dask.array as da

    return da


def _meta(like: Any, ndim: int, dtype: Any) -> Any:
    """An empty array of ``like``'s chunk type (numpy, cupy) with ``ndim`` and ``dtype``."""
    return namespace_of(like._meta).empty((0,) * ndim, dtype=dtype)


def _probe(call: Call, values: dict[str, Any]) -> Any:
    """``call``'s routine on host probes ``values`` (by argument name), its
    other options as the caller gave them (``device`` left out: dtypes are
    the same everywhere)."""
    args, kwargs = call.replaced(**values)
    kwargs.pop("device", None)
    return call.func(*args, **kwargs)


def options(call: Call, *names: str) -> dict[str, Any]:
    """The options ``names`` the caller passed, to hand on to each task."""
    return {name: call.bound.arguments[name] for name in names if name in call.bound.arguments}


def _outputs(result: Any) -> list[Any]:
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _is_python_scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, complex)) or value is None


def _as_dask(call: Call, name: str, value: Any) -> Any:
    """A dask array for ``value``: dask arrays as they are, numpy arrays and
    Python sequences as one-chunk dask arrays; other libraries' arrays are
    refused as the eager routines refuse mixed containers."""
    da = _da()
    if isinstance(value, da.Array):
        return value
    if isinstance(value, (np.ndarray, np.generic, list, tuple)):
        return da.asarray(np.asarray(value))
    raise MixedContainersError(
        f"{call.name}: `{name}` is a {type(value).__module__}.{type(value).__qualname__} "
        "beside dask arrays; pass dask arrays (or numpy arrays and Python scalars) in one call"
    )


def _refuse_out(call: Call) -> None:
    out = call.get("out")
    # (a tuple of Nones: the multi-output ufuncs' default, ``out=(None, None)``)
    if out is not None and not (isinstance(out, tuple) and all(o is None for o in out)):
        raise UnsupportedParameterError(f"{call.name}: `out=` with dask arrays is not supported (results are lazy)")


def _single_chunk(call: Call, x: Any, axes: Sequence[int], why: str) -> None:
    """Raises naming the first of ``axes`` along which ``x`` has more than one chunk."""
    for axis in axes:
        if x.numblocks[axis] > 1:
            raise ValueError(
                f"{call.name} on a dask array needs axis {axis} in one chunk ({why}); it has "
                f"{x.numblocks[axis]} chunks {x.chunks[axis]}: rechunk first, "
                f"x.rechunk({{{axis}: -1}})"
            )


def _normalize_axis(call: Call, axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        from ..errors import AxisError

        raise AxisError(f"{call.name}: axis {axis} is out of bounds for an array of dimension {ndim}")
    return axis % ndim


# --------------------------------------------------------------------------- classes


class Chunking(Protocol):
    """What every chunking class is: a name for the docs table and a graph builder."""

    @property
    def kind(self) -> str:
        """The class's name in the docs table."""

    def build(self, call: Call) -> Any:
        """The lazy result of ``call`` (raises for what the class cannot do)."""


@dataclass(frozen=True)
class Elementwise:
    """A ufunc-like routine: ``blockwise`` over broadcast blocks, one task per
    chunk (``apply_gufunc`` for several outputs), every chunk computed alone:
    the unchunked result bit for bit, except where libtorch's kernel rounds
    its SIMD body and scalar tail differently (its eager result then moves by
    the same ulps with the array's size).

    ``arrays`` names the array arguments (the others are fixed options);
    ``probe`` is the value of the one-element probe that finds the result's
    dtype (inside every routine's domain unless the row says otherwise).
    """

    arrays: tuple[str, ...]
    probe: float = 1.0
    kind: str = "elementwise"

    def build(self, call: Call) -> Any:
        _refuse_out(call)
        present = [name for name in self.arrays if name in call.bound.arguments]
        names = [name for name in present if not _is_python_scalar(call.get(name))]
        task = Task.of(call, names)  # first: it refuses dask arrays passed as options
        arrays = [_as_dask(call, name, call.get(name)) for name in names]
        probes = {name: np.full((1,) * min(a.ndim, 1), self.probe, a.dtype) for name, a in zip(names, arrays)}
        probe = _probe(call, probes)
        outputs = _outputs(probe)
        ndim = max(a.ndim for a in arrays)
        metas = tuple(_meta(arrays[0], ndim, np.asarray(o).dtype) for o in outputs)
        if len(outputs) == 1:  # one task per chunk: ``blockwise``, indices aligned from the right
            pairs: list[Any] = []
            for array in arrays:
                pairs += [array, tuple(range(ndim - array.ndim, ndim))]
            return _da().blockwise(task, tuple(range(ndim)), *pairs, dtype=metas[0].dtype, meta=metas[0])
        signature = ",".join("()" for _ in arrays) + "->" + ",".join("()" for _ in outputs)
        return tuple(_da().apply_gufunc(task, signature, *arrays, meta=metas))


@dataclass(frozen=True)
class AlongAxis:
    """A transform along one or more core axes (the FFT family): each core
    axis in one chunk (else ``ValueError`` naming it, as ``dask.array.fft``
    does), the batch axes in parallel with ``map_blocks``.

    ``axes`` is the name of the axis argument (``"axis"`` or ``"axes"``; ``""``:
    the last axis, as ``fht``), ``lengths`` that of the output-length argument
    (``"n"`` or ``"s"``; ``""``: none, the length is kept); ``last`` says how
    the last transformed axis's length changes: ``"same"`` (``n`` or the
    input's), ``"r2c"`` (``n // 2 + 1``) or ``"c2r"`` (``n`` or ``2 * (m - 1)``);
    ``array`` is the name of the array argument.
    """

    axes: str
    lengths: str
    last: str = "same"
    array: str = "x"
    kind: str = "along-axis"

    def build(self, call: Call) -> Any:
        task = Task.of(call, [self.array])  # first: it refuses dask arrays passed as options
        x = _as_dask(call, self.array, call.get(self.array))
        axes, lengths = self._axes(call, x)
        _single_chunk(call, x, axes, "a transform needs its whole axis")
        chunks = list(x.chunks)
        for position, (axis, n) in enumerate(zip(axes, lengths)):
            m = x.shape[axis]
            if position == len(axes) - 1 and self.last == "r2c":
                length = (n if n is not None else m) // 2 + 1
            elif position == len(axes) - 1 and self.last == "c2r":
                length = n if n is not None else 2 * (m - 1)
            else:
                length = n if n is not None else m
            chunks[axis] = (length,)
        probes = {self.array: np.ones((2,) * x.ndim, dtype=x.dtype)} | ({self.lengths: None} if self.lengths else {})
        probe = _probe(call, probes)
        meta = _meta(x, x.ndim, probe.dtype)
        return x.map_blocks(task, chunks=tuple(chunks), dtype=probe.dtype, meta=meta)

    def _axes(self, call: Call, x: Any) -> tuple[list[int], list[int | None]]:
        given = call.get(self.lengths) if self.lengths else None
        if not self.axes:
            return [x.ndim - 1], [None]
        if self.axes == "axis":
            return [_normalize_axis(call, call.get("axis"), x.ndim)], [given]
        axes = call.get("axes")
        if axes is None:
            axes = range(x.ndim) if given is None else range(x.ndim - len(given), x.ndim)
        elif isinstance(axes, int):
            axes = [axes]
        axes = [_normalize_axis(call, int(axis), x.ndim) for axis in axes]
        if isinstance(given, int):  # one length for every axis (hilbert2's N)
            given = [given] * len(axes)
        lengths = list(given) if given is not None else [None] * len(axes)
        return axes, lengths


@dataclass(frozen=True)
class Reorder:
    """Index movement only (``fftshift``/``ifftshift``): dask's own slicing,
    on any chunking, exact."""

    kind: str = "reorder"

    def build(self, call: Call) -> Any:
        x = _as_dask(call, "x", call.get("x"))
        shift = _da().fft.fftshift if call.name.endswith(".fftshift") else _da().fft.ifftshift
        return shift(x, axes=call.get("axes"))


@dataclass(frozen=True)
class Reduction:
    """A reduction with mergeable partials (``dask.array.reduction``): each
    chunk reduced by the routine itself, the partials merged by it too,
    within 1e-12 relative of the unchunked result (see ``_reductions``)."""

    build_graph: Callable[[Call], Any]
    kind: str = "reduction"

    def build(self, call: Call) -> Any:
        return self.build_graph(call)


@dataclass(frozen=True)
class Gufunc:
    """Stacked matrices (or vectors): ``apply_gufunc`` with the routine's
    core signature, the batch axes in parallel, the core axes each in one
    chunk (else ``ValueError`` naming the axis). A routine SciPy does not
    batch has no batch axes: its whole input is one task.

    ``arrays`` names the array arguments: ``"x"`` the argument ``x``,
    ``"x.i"`` the ``i``-th item of a tuple argument (``cho_solve``'s
    ``c_and_lower.0``; ``x`` itself for ``i == 0`` when ``x`` is not a
    tuple, as ``solve_toeplitz``'s ``c_or_cr``), ``"x.*"`` every item
    (``block_diag``'s ``*arrs``).

    ``signature(call, shapes)`` returns the gufunc signature for the
    arrays' shapes (a routine whose core depends on an option or on an
    argument's ndim decides here) and the sizes of output-only core dims.

    ``probe(call, shapes)``, where given, returns the probe call's values
    that the default probe (identity matrices, unit vectors, with the
    default probe ``shapes``) does not fit: a banded layout, an option that
    needs a bigger matrix than the probe's.
    """

    arrays: tuple[str, ...]
    signature: Callable[[Call, dict[str, tuple[int, ...]]], tuple[str, dict[str, int]]]
    probe: Callable[[Call, dict[str, tuple[int, ...]]], dict[str, Any]] | None = None
    kind: str = "batched"

    def build(self, call: Call) -> Any:
        from dask.array.gufunc import _parse_gufunc_signature

        _refuse_out(call)
        found = array_arguments(call, self.arrays)
        names = [name for name, _ in found]
        arrays = [_as_dask(call, name, value) for name, value in found]
        task: Callable[..., Any] = Task.of(call, names)  # before the probe: it refuses dask options
        signature, sizes = self.signature(call, {n: a.shape for n, a in zip(names, arrays)})
        cores, out_cores = _parse_gufunc_signature(signature)
        if not isinstance(out_cores, list):  # one output: dask gives its core dims alone
            out_cores = [out_cores]
        dims: dict[str, int] = dict(sizes)
        for array, core in zip(arrays, cores):
            loop = array.ndim - len(core)
            if loop < 0:
                raise ValueError(f"{call.name}: a {array.ndim}-d dask array where {len(core)} core dims are needed")
            _single_chunk(call, array, range(loop, array.ndim), "the core dimensions of one problem")
            dims.update(zip(core, array.shape[loop:]))
        probe_sizes = {dim: 2 + i for i, dim in enumerate(sorted(dims))}
        shapes = {
            name: (1,) * (array.ndim - len(core)) + tuple(probe_sizes[d] for d in core)
            for name, array, core in zip(names, arrays, cores)
        }
        values: dict[str, Any] = {name: _eye(shapes[name], array.dtype) for name, array in zip(names, arrays)}
        if self.probe is not None:
            values.update(self.probe(call, shapes))
        probe = _probe(call, replacing(call, values))
        outputs = _outputs(probe)
        loop_ndim = max(a.ndim - len(c) for a, c in zip(arrays, cores))
        metas = tuple(_meta(arrays[0], loop_ndim + len(oc), np.asarray(o).dtype) for o, oc in zip(outputs, out_cores))
        if len(out_cores) == 1 and isinstance(probe, (tuple, list)):  # ``qr(a, mode="r")``: ``(R,)``
            task = _Only(task)
        result = _da().apply_gufunc(
            task,
            signature,
            *_unified_batches(arrays, cores, loop_ndim),
            output_sizes={d: s for d, s in dims.items() if d in sizes},
            meta=metas if len(metas) > 1 else metas[0],
        )
        results = list(result) if len(out_cores) > 1 else [result]
        if isinstance(probe, (tuple, list)):  # the eager structure: a list for batches, else a tuple
            return type(probe)(results)
        return results[0]


@dataclass(frozen=True)
class MultiUfunc:
    """SciPy's multi-ufuncs (``sph_harm_y``, ``legendre_p``, ...): ``apply_gufunc``
    over broadcast blocks, the derivative axes (``diff_n``) core axes of each
    task; Python scalars become 0-d arrays first (SciPy calls ``np.asarray``);
    where the eager result puts its core axis first (``(diff_n + 1, ...)``),
    so does the dask one."""

    inner: Gufunc
    leading: bool = False
    kind: str = "multi-ufunc"

    def build(self, call: Call) -> Any:
        arguments = dict(call.bound.arguments)
        for name in self.inner.arrays:
            value = call.get(name)
            if value is not None and _is_python_scalar(value):
                arguments[name] = np.asarray(value)
        func = _CoreLast(call.func) if self.leading else call.func
        result = self.inner.build(Call(call.name, func, (), arguments))
        return _da().moveaxis(result, -1, 0) if self.leading else result


class _CoreLast:
    """A routine whose result's leading core axis is moved last, as ``apply_gufunc`` wants it."""

    def __init__(self, func: Callable[..., Any]):
        import inspect

        self.func = func
        self.__signature__ = inspect.signature(func)
        self.__name__ = getattr(func, "__name__", "routine")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return np.moveaxis(self.func(*args, **kwargs), 0, -1)

    def __reduce__(self) -> tuple:
        return (_CoreLast, (self.func,))


def _unified_batches(arrays: list[Any], cores: list[tuple[str, ...]], loop_ndim: int) -> list[Any]:
    """``arrays`` with their batch axes (broadcast from the right) rechunked
    to common chunks, as ``blockwise`` does (``apply_gufunc`` refuses
    differing ones): ``solve(a, b)`` with ``a`` and ``b`` chunked apart."""
    if len(arrays) < 2:
        return arrays
    from dask.array.core import unify_chunks

    pairs: list[Any] = []
    for k, (array, core) in enumerate(zip(arrays, cores)):
        loop = array.ndim - len(core)
        pairs += [array, tuple(f"l{loop_ndim - loop + i}" for i in range(loop)) + tuple(f"c{k}_{d}" for d in core)]
    return list(unify_chunks(*pairs)[1])


class _Only:
    """A task whose routine returns a one-item tuple: the item (dask's block)."""

    def __init__(self, task: Callable[..., Any]):
        self.task = task

    def __call__(self, *blocks: Any) -> Any:
        return self.task(*blocks)[0]


def _packed(value: Any) -> bool:
    """Whether an argument is a tuple of arrays (``(c, lower)``) rather than an array."""
    return isinstance(value, tuple) or (isinstance(value, list) and _holds_dask(value))


def _holds_dask(value: list) -> bool:
    array_type = dask_array_type()
    return array_type is not None and any(isinstance(item, array_type) for item in value)


def array_arguments(call: Call, names: Sequence[str]) -> list[tuple[str, Any]]:
    """The array arguments ``names`` (see :class:`Gufunc`) the call has, by
    name: not ``None``; a tuple's items that are Python scalars
    (``cho_solve``'s ``lower``, ``block_diag``'s scalar blocks) stay options."""
    found: list[tuple[str, Any]] = []
    for name in names:
        base, _, index = name.partition(".")
        value = call.get(base)
        if not index:
            found.append((name, value))
        elif not _packed(value):
            found += [(f"{base}.0", value)] if index in ("0", "*") else []
        elif index == "*":
            found += [(f"{base}.{i}", item) for i, item in enumerate(value) if not _is_python_scalar(item)]
        elif int(index) < len(value) and not _is_python_scalar(value[int(index)]):
            found.append((name, value[int(index)]))
    return [(name, value) for name, value in found if value is not None]


def replacing(call: Call, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` by array name (``"x.i"`` too) as the call's arguments: the
    tuples they are items of rebuilt around them."""
    plain: dict[str, Any] = {}
    for name, value in values.items():
        base, _, index = name.partition(".")
        if not index:
            plain[name] = value
            continue
        original = call.get(base)
        if not _packed(original):
            plain[base] = value
            continue
        items = list(plain.get(base, original))
        items[int(index)] = value
        plain[base] = tuple(items)
    return plain


def _eye(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """A well-conditioned probe: identity matrices, unit vectors ``(1, 0, ...)``
    (an identity's first column: an invertible Toeplitz or circulant
    generator, valid LU pivots), ones for scalars."""
    if len(shape) < 2:
        probe = np.zeros(shape, dtype=dtype)
        probe[(..., 0) if shape else ()] = 1
        return probe
    return np.broadcast_to(np.eye(shape[-2], shape[-1], dtype=dtype), shape).copy()


@dataclass(frozen=True)
class Unsupported:
    """No dask path (yet): ``NotImplementedError`` saying why, never a silent compute."""

    reason: str
    kind: str = "not chunkable"

    def build(self, call: Call) -> Any:
        raise UnsupportedParameterError(f"{call.name} on dask arrays: {self.reason}")


@dataclass(frozen=True)
class NoArrays:
    """A routine of sizes and options only (``fftfreq(n)``, ``hilbert(n)``):
    a dask array where it takes a number is refused."""

    kind: str = "no array input"
    note: str = field(default="")

    def build(self, call: Call) -> Any:
        raise TypeError(f"{call.name} takes no arrays; a dask array was passed where it takes a number")


def namespace_of(block: Any) -> Any:
    """The array module of a block (numpy or cupy), for the few glue steps
    on reduction partials."""
    return sys.modules[type(block).__module__.split(".")[0]]
