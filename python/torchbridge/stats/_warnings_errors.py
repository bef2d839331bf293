"""`scipy.stats._warnings_errors`: the warnings the correlations give for degenerate data.

``DegenerateDataWarning``, ``ConstantInputWarning`` and
``NearConstantInputWarning`` (a ``RuntimeWarning``, and its two subclasses)
are made on first use by the module ``__getattr__``: subclasses of SciPy's
classes of the same names too where SciPy is installed (see
:mod:`torchbridge._scipy_classes`), so that filters and ``pytest.warns``
written for SciPy's catch torchbridge's warnings.
"""

from __future__ import annotations

from typing import Any

from .._scipy_classes import scipy_subclass

_DOCS = {
    "DegenerateDataWarning": "Data are degenerate: the statistic may be undefined or inaccurate (SciPy's class).",
    "ConstantInputWarning": "All values of an input are equal: the correlation coefficient is not defined "
    "(SciPy's class).",
    "NearConstantInputWarning": "The values of an input are nearly equal: the correlation may be inaccurate "
    "(SciPy's class).",
}


def __getattr__(name: str) -> Any:
    if name not in _DOCS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    base = RuntimeWarning if name == "DegenerateDataWarning" else __getattr__("DegenerateDataWarning")
    return scipy_subclass(name, base, __name__, "scipy.stats", _DOCS[name])
