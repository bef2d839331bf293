"""pandas results of ``special``'s ufuncs, as SciPy's: its ufuncs are NumPy
ufuncs, so a pandas ``Series``/``DataFrame`` argument takes them through
pandas' ``__array_ufunc__``, which hands the result back as the argument's
type with its index (and name, or columns). torchbridge computes on the
values (``np.asarray`` semantics, as for every array-like) and rebuilds that
container here, the one step of the ufuncs that knows about pandas (the
compiled ufunc calls it only once pandas is imported, and only where an
input is not an exact ndarray: ``src/python/special/ufuncs.rs``, ``face``).

Unlike pandas, two Series with different indexes are not aligned first: the
values are combined by position (pandas would align on the union of labels).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

#: ``(pandas.Series, pandas.DataFrame)``, once pandas is imported and has them.
_containers: tuple[type, ...] | None = None


def containers() -> tuple[type, ...]:
    """pandas' two containers (pandas is imported: the face asks only then);
    empty while pandas is still being imported."""
    global _containers
    if _containers is None:
        pd = sys.modules["pandas"]
        found = (getattr(pd, "Series", None), getattr(pd, "DataFrame", None))
        if None in found:
            return ()  # pandas' own import is still running: not kept
        _containers = found  # type: ignore[assignment]
    return _containers  # type: ignore[return-value]


def like(result: Any, args: tuple[Any, ...]) -> Any:
    """``result`` (an array, or a tuple of them for multi-output ufuncs) as the
    pandas container of the first pandas argument, where its shape matches.
    pandas is imported (the face calls this only then); without a pandas
    argument, ``result`` itself (the common call: one ``isinstance`` an argument,
    a fraction of a microsecond)."""
    kinds = containers()
    for x in args:
        if isinstance(x, kinds):
            break
    else:
        return result
    pd: Any = sys.modules["pandas"]
    frames: list[Any] = [x for x in args if isinstance(x, kinds)]
    first = frames[0]
    series = [x for x in frames if isinstance(x, pd.Series)]
    # pandas keeps a Series' name where every Series argument has it
    name = series[0].name if series and all(s.name == series[0].name for s in series) else None

    def one(r: Any) -> Any:
        if not isinstance(r, np.ndarray) or r.shape != first.shape:
            return r
        if isinstance(first, pd.Series):
            return pd.Series(r, index=first.index, name=name, copy=False)
        return pd.DataFrame(r, index=first.index, columns=first.columns, copy=False)

    return tuple(one(r) for r in result) if isinstance(result, tuple) else one(result)
