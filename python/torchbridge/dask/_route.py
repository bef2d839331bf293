"""From a routine's call with dask arrays to its lazy graph.

:func:`route` is what ``torchbridge._dispatch`` calls when a compiled routine
refused an argument's type: it finds the dask arrays among the arguments,
looks the routine up in :data:`torchbridge.dask._table.TABLE` and lets the
row's chunking class build the graph. Nothing here computes.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Any


def dask_array_type() -> type | None:
    """``dask.array.Array`` when the caller has imported dask.array, else ``None``."""
    module = sys.modules.get("dask.array")
    return None if module is None else module.Array


def route(qualified: str, func: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """The lazy result of ``func(*args, **kwargs)``, or ``NotImplemented`` when
    no argument is a dask array (the caller's error then stands)."""
    array_type = dask_array_type()
    if array_type is None or not any(_holds(value, array_type) for value in (*args, *kwargs.values())):
        return NotImplemented
    from ._table import TABLE

    return TABLE[qualified].build(Call(qualified, func, args, kwargs))


def _holds(value: Any, array_type: type) -> bool:
    if isinstance(value, array_type):
        return True
    return isinstance(value, (list, tuple)) and any(isinstance(item, array_type) for item in value)


class Call:
    """One call of a compiled routine, its arguments bound to their names."""

    def __init__(self, qualified: str, func: Callable[..., Any], args: tuple, kwargs: dict):
        self.name = qualified
        self.func = func
        self.signature = inspect.signature(func)
        self.bound = self.signature.bind(*args, **kwargs)

    def get(self, name: str, default: Any = None) -> Any:
        """The argument ``name`` as passed, else its default (else ``default``)."""
        if name in self.bound.arguments:
            return self.bound.arguments[name]
        parameter = self.signature.parameters.get(name)
        if parameter is not None and parameter.default is not inspect.Parameter.empty:
            return parameter.default
        return default

    def replaced(self, **values: Any) -> tuple[tuple, dict]:
        """``(args, kwargs)`` of this call with the named arguments replaced."""
        bound = self.signature.bind_partial()
        bound.arguments.update(self.bound.arguments)
        bound.arguments.update(values)
        return bound.args, bound.kwargs
