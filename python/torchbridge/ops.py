"""``torchbridge.ops``: every operator in libtorch's dispatcher, by name, on any array.

Works without the Python ``torch`` package (it is never imported here)::

    import numpy as np, torchbridge as tb
    x = np.linspace(-2, 2, 5)
    tb.ops.aten.erf(x)                              # numpy in, numpy out
    tb.ops.aten.linalg_eigh(a, UPLO="U")            # a tuple of numpy arrays
    tb.ops.aten.add.Tensor(x, x, alpha=2)           # one overload, by name
    tb.ops.call("aten::add.Tensor", x, x, alpha=2)  # the same, by schema name
    tb.ops.schema("aten::add.Tensor")               # 'aten::add.Tensor(Tensor self, ...) -> Tensor'

Arguments are matched against the operator's schema: arrays (numpy, torch,
JAX, array-api, any ``__dlpack__`` producer; one library per call) are viewed
zero-copy as tensors, Python numbers, strings, bools and None map to
``int``/``float``/``Scalar``/``str``/``bool``/optional parameters, lists of
ints to ``int[]``, lists of arrays to ``Tensor[]``, and dtypes (``"float32"``,
``np.float32``, ``np.dtype("int64")``, ``float``) to ``ScalarType``. Without
an overload name (``tb.ops.aten.add``) the overloads are tried in order
(default, ``Tensor``, ``Scalar``, then the others, ``out`` variants last) and
the first whose schema accepts the arguments runs. Tensor results come back
in the caller's array type (numpy when no array was passed); several results
as a tuple. Arguments that fit no schema raise ``InvalidArgumentError`` with
the schemas in the message; operators that would write into read-only memory
(numpy ``writeable=False``, JAX) raise ``InvalidArgumentError`` too.
"""

from __future__ import annotations

import difflib
from typing import Any

from . import _core

__all__ = ["call", "schema", "overloads", "operators", "aten", "Namespace", "OpOverloadPacket", "OpOverload"]

_aten = _core.aten


def call(name: str, /, *args: Any, **kwargs: Any) -> Any:
    """Calls the operator ``name`` (``"aten::add.Tensor"``, or ``"aten::add"``
    to pick the overload that accepts the arguments) on ``args``/``kwargs``."""
    return _aten.call(name, *args, **kwargs)


def schema(name: str) -> str:
    """The schema of ``name`` as libtorch prints it; without an overload name,
    the default overload's (an operator without one raises, listing its overloads)."""
    return _aten.schema(name)


def overloads(name: str) -> list[str]:
    """The overload names of operator ``name`` (``"aten::add"``) in resolution
    order; ``""`` is the default overload. Unknown operators raise
    ``InvalidArgumentError``."""
    found = _aten.overloads(name)
    if found is None:
        from .errors import InvalidArgumentError

        raise InvalidArgumentError(f"unknown operator {name}: libtorch's dispatcher has no operator of that name")
    return list(found)


def operators(namespace: str | None = None) -> list[str]:
    """Every operator in libtorch's dispatcher as ``"ns::name"``, optionally of one namespace."""
    return list(_aten.operators(namespace))


class OpOverload:
    """One overload of an operator, e.g. ``tb.ops.aten.add.Tensor``."""

    __slots__ = ("_name", "_overload")

    def __init__(self, name: str, overload: str) -> None:
        self._name = name
        self._overload = overload

    @property
    def name(self) -> str:
        """The full schema name, e.g. ``"aten::add.Tensor"`` (``"aten::erf"`` for a default overload)."""
        return self._name + (f".{self._overload}" if self._overload else "")

    @property
    def overload(self) -> str:
        return self._overload

    @property
    def schema(self) -> str:
        return _aten.schema(self._name + "." + (self._overload or "default"))

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        return _aten.call(self._name + "." + (self._overload or "default"), *args, **kwargs)

    def __repr__(self) -> str:
        return f"<torchbridge.ops {self.name}>"


class OpOverloadPacket:
    """An operator with all its overloads, e.g. ``tb.ops.aten.add``; calling it
    picks the first overload whose schema accepts the arguments."""

    __slots__ = ("_name", "_overloads", "_cache")

    def __init__(self, name: str, overload_names: list[str]) -> None:
        self._name = name
        self._overloads = overload_names
        self._cache: dict[str, OpOverload] = {}

    @property
    def name(self) -> str:
        return self._name

    def overloads(self) -> list[str]:
        """Overload names in resolution order (``"default"`` for the default overload)."""
        return [o or "default" for o in self._overloads]

    def schemas(self) -> list[str]:
        """The schema of every overload, in resolution order."""
        return [getattr(self, o).schema for o in self.overloads()]

    def __getattr__(self, overload: str) -> OpOverload:
        if overload.startswith("__"):
            raise AttributeError(overload)
        key = "" if overload == "default" else overload
        found = self._cache.get(key)
        if found is not None:
            return found
        if key not in self._overloads:
            raise AttributeError(
                f"{self._name} has no overload {overload!r}; its overloads: {', '.join(self.overloads())}"
            )
        found = self._cache[key] = OpOverload(self._name, key)
        return found

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self.overloads()))

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        return _aten.call(self._name, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<torchbridge.ops {self._name} ({len(self._overloads)} overloads)>"


class Namespace:
    """An operator namespace, e.g. ``tb.ops.aten``: its attributes are the
    operators registered in libtorch's dispatcher."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._packets: dict[str, OpOverloadPacket] = {}

    def __getattr__(self, op: str) -> OpOverloadPacket:
        if op.startswith("__"):
            raise AttributeError(op)
        packet = self._packets.get(op)
        if packet is not None:
            return packet
        qualified = f"{self._name}::{op}"
        found = _aten.overloads(qualified) if op.isidentifier() else None
        if found is None:
            names = [n.split("::", 1)[1] for n in _aten.operators(self._name)]
            close = difflib.get_close_matches(op, names, n=5)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise AttributeError(
                f"torchbridge.ops.{self._name} has no operator {op!r} (not in libtorch's dispatcher){hint}"
            )
        packet = self._packets[op] = OpOverloadPacket(qualified, list(found))
        return packet

    def __dir__(self) -> list[str]:
        return [n.split("::", 1)[1] for n in _aten.operators(self._name)]

    def __repr__(self) -> str:
        return f"<torchbridge.ops namespace {self._name!r}>"


aten = Namespace("aten")
_namespaces: dict[str, Namespace] = {"aten": aten}


def __getattr__(name: str) -> Namespace:
    """Other operator namespaces (``prims``, ``quantized``, ...), as ``tb.ops.<namespace>``."""
    if name.startswith("__"):
        raise AttributeError(name)
    found = _namespaces.get(name)
    if found is not None:
        return found
    if not any(op.startswith(name + "::") for op in _aten.operators(name)):
        raise AttributeError(f"module 'torchbridge.ops' has no attribute {name!r} (no operator namespace of that name)")
    found = _namespaces[name] = Namespace(name)
    return found


def __dir__() -> list[str]:
    """The public names (``__all__``) and the operator namespaces libtorch has registered (``prims``, ...),
    but its private ones (``_c10d_functional``, ...), which ``tb.ops._c10d_functional`` still reaches."""
    namespaces = {name.split("::", 1)[0] for name in _aten.operators(None)}
    return sorted({*__all__, *(ns for ns in namespaces if not ns.startswith("_"))})
