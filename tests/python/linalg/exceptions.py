"""The exception-parity table: every routine of ``torchbridge.linalg`` given
the same bad inputs as ``scipy.linalg``, and what each raises.

The rule (issue 16): where SciPy raises, torchbridge raises the same class or
a subclass of it (its own hierarchy as the other parent: ``InputTypeError`` is
a ``TypeError`` and a ``ValueError``); where SciPy computes, so does
torchbridge. NumPy's internal subclasses of ``TypeError`` (``UFuncTypeError``,
``DTypePromotionError``) count as ``TypeError``. The cells that break the rule
on purpose are each covered by one of :data:`DEVIATIONS`, with the reason.

    python .ci/exception_table.py --write    # regenerate tests/python/linalg/exceptions.md

``test_exceptions.py`` fails when a cell breaks the rule without a deviation
that covers it, or when ``exceptions.md`` and this module disagree.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.linalg as sl

from torchbridge import linalg as tl

from .cases import ROUTINES

TABLE = Path(__file__).with_name("exceptions.md")

#: The bad inputs: each replaces the routine's first array argument (of a call that
#: succeeds) by a bad one, or adds a keyword. ``None`` from a maker: not applicable.
BAD_INPUTS: dict[str, Callable[[np.ndarray], object]] = {
    "object dtype": lambda a: a.astype(object),
    "str dtype": lambda a: a.astype(str),
    "nan": lambda a: _with_first(a, np.nan),
    "inf": lambda a: _with_first(a, np.inf),
    "one dimension less": lambda a: a[0],
    "not square": lambda a: a[:, :-1] if a.ndim == 2 and a.shape[0] == a.shape[1] else None,
    "empty": lambda a: np.zeros((0,) * a.ndim, a.dtype),
    "None": lambda a: None,
    "dict": lambda a: {"a": 1},
    "unknown keyword": lambda a: a,
}

#: NumPy's internal subclasses of TypeError, raised from inside SciPy's code.
_NUMPY_TYPE_ERRORS = (np._core._exceptions.UFuncTypeError, np.exceptions.DTypePromotionError)

#: SciPy's classes that come from its own code tripping over the input, not from a check.
_ACCIDENTAL = (AttributeError, IndexError, KeyError)


@dataclass(frozen=True)
class Deviation:
    """Cells where torchbridge departs from SciPy on purpose."""

    key: str
    reason: str
    applies: Callable[[str, str, type | None, type | None], bool]


DEVIATIONS = [
    Deviation(
        "N", "SciPy converts the contents of an object or str array (or fails inside NumPy on them); torchbridge "
        "refuses every dtype that holds no numbers with `NonNumericDtypeError` (a `ValueError` and a `TypeError`)",
        lambda name, bad, theirs, ours: bad in ("object dtype", "str dtype") and ours is not None
        and ours.__name__ == "NonNumericDtypeError"),
    Deviation(
        "A", "SciPy makes an object array of a non-array argument and computes on it (`toeplitz(None)`) or "
        "fails inside its own code; torchbridge raises `InputTypeError`",
        lambda name, bad, theirs, ours: bad in ("None", "dict") and ours is not None
        and ours.__name__ == "InputTypeError" and (theirs is None or issubclass(theirs, _ACCIDENTAL))),
    Deviation(
        "S", "SciPy fails inside its own code (an `AttributeError`, `IndexError` or `KeyError` that no check "
        "raises on purpose); torchbridge's own check raises a named torchbridge error",
        lambda name, bad, theirs, ours: theirs is not None and issubclass(theirs, _ACCIDENTAL)
        and not issubclass(theirs, np.exceptions.AxisError) and ours is not None
        and ours.__module__.startswith("torchbridge")),
    Deviation(
        "D", "SciPy takes some 1-D arguments as a matrix of one row or one band (`lu_factor`, the banded "
        "solvers) and computes; torchbridge asks for the 2-D array it documents",
        lambda name, bad, theirs, ours: bad == "one dimension less" and theirs is None and ours is not None
        and name in ("lu_factor", "solveh_banded", "cholesky_banded", "solve_discrete_lyapunov")),
    Deviation(
        "E", "SciPy fails on a 0x0 matrix inside its own code; torchbridge returns the 0x0 result",
        lambda name, bad, theirs, ours: bad == "empty" and ours is None and theirs is not None
        and issubclass(theirs, _ACCIDENTAL)),
    Deviation(
        "C", "SciPy's `cossin` fails on a 1-D `X` with a `TypeError` from its own call `np.equal(*X.shape)`; "
        "torchbridge raises `InvalidArgumentError` naming the shape",
        lambda name, bad, theirs, ours: name == "cossin" and bad == "one dimension less" and theirs is TypeError
        and ours is not None and ours.__name__ == "InvalidArgumentError"),
    Deviation(
        "V", "SciPy does not check that the shapes of `a`, `b` and `q` agree and returns an array of the "
        "wrong shape; torchbridge refuses with `InvalidArgumentError`",
        lambda name, bad, theirs, ours: name == "solve_sylvester" and theirs is None and ours is not None
        and ours.__name__ == "InvalidArgumentError"),
]


def _with_first(a: np.ndarray, value: float):
    b = a.astype(np.result_type(a, np.float64))
    b.flat[0] = value
    return b


def _first_array(args: tuple) -> int | None:
    for i, a in enumerate(args):
        if isinstance(a, np.ndarray) and a.size:
            return i
    return None


def _outcome(function, args, kwargs) -> type | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            function(*args, **kwargs)
        except Exception as e:  # the class is the outcome
            return type(e)
    return None


def _scipy_class(cls: type | None) -> type | None:
    return TypeError if cls is not None and issubclass(cls, _NUMPY_TYPE_ERRORS) else cls


@dataclass(frozen=True)
class Cell:
    routine: str
    bad: str
    theirs: type | None
    ours: type | None

    @property
    def same(self) -> bool:
        theirs = _scipy_class(self.theirs)
        return (theirs is None and self.ours is None) or (
            theirs is not None and self.ours is not None and issubclass(self.ours, theirs))

    @property
    def deviation(self) -> Deviation | None:
        if self.same:
            return None
        return next((d for d in DEVIATIONS if d.applies(self.routine, self.bad, self.theirs, self.ours)), None)

    def text(self) -> str:
        ours = "computes" if self.ours is None else f"`{self.ours.__name__}`"
        theirs = "computes" if self.theirs is None else f"`{self.theirs.__name__}`"
        if self.same:
            return ours if self.ours is None or self.ours is self.theirs else f"{ours} ({theirs})"
        deviation = self.deviation
        return f"{ours} ({theirs}; {deviation.key if deviation else '**breaks the rule**'})"


def cells() -> list[Cell]:
    """Every routine with a call in ``ROUTINES``, given every bad input that applies."""
    out = []
    for name, (make, _) in ROUTINES.items():
        args, kwargs = make(np.random.default_rng(0), "float64")
        first = _first_array(args)
        for bad, maker in BAD_INPUTS.items():
            call_args, call_kwargs = list(args), dict(kwargs)
            if bad == "unknown keyword":
                call_kwargs["not_an_option"] = 1
            elif first is None:
                continue
            else:
                replacement = maker(args[first])
                if replacement is None and bad != "None":
                    continue
                call_args[first] = replacement
            theirs = _outcome(getattr(sl, name), call_args, call_kwargs)
            ours = _outcome(getattr(tl, name), call_args, call_kwargs)
            out.append(Cell(name, bad, theirs, ours))
    return out


def markdown(table: list[Cell]) -> str:
    by_routine: dict[str, dict[str, Cell]] = {}
    for cell in table:
        by_routine.setdefault(cell.routine, {})[cell.bad] = cell
    lines = [
        "# torchbridge.linalg: the exception for each bad input, beside SciPy's",
        "",
        "Generated by `python .ci/exception_table.py --write` from `tests/python/linalg/exceptions.py`; "
        "`tests/python/linalg/test_exceptions.py` fails when they disagree. Each cell: what torchbridge raises "
        "(or *computes*), and in parentheses what `scipy.linalg` 1.17 raises where that is a different class. "
        "The rule: SciPy's class is torchbridge's class or one of its bases; where SciPy computes, torchbridge "
        "computes. The first argument that is an array is replaced by the bad input (the keyword column adds "
        "`not_an_option=1`). The cells that depart from the rule on purpose name their reason:",
        "",
        *[f"- **{d.key}**: {d.reason}." for d in DEVIATIONS],
        "",
        "| routine | " + " | ".join(BAD_INPUTS) + " |",
        "|---|" + "---|" * len(BAD_INPUTS),
    ]
    for routine, row in by_routine.items():
        lines.append(f"| `{routine}` | " + " | ".join(row[b].text() if b in row else "" for b in BAD_INPUTS) + " |")
    return "\n".join(lines) + "\n"
