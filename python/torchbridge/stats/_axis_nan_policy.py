"""`scipy.stats._axis_nan_policy`: the warning SciPy's ``axis``/``nan_policy``
machinery gives for samples too small for a statistic.

``SmallSampleWarning`` (a ``RuntimeWarning``) is made on first use by the
module ``__getattr__``: a subclass of SciPy's class of the same name too
where SciPy is installed (see :mod:`torchbridge._scipy_classes`).
"""

from __future__ import annotations

from typing import Any

from .._scipy_classes import scipy_subclass

_DOC = """A sample (or an axis-slice of one) is too small for the statistic: its result is NaN.

SciPy's class of the same name (``scipy.stats._axis_nan_policy``), with the same messages.
"""


def __getattr__(name: str) -> Any:
    if name != "SmallSampleWarning":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return scipy_subclass(name, RuntimeWarning, __name__, "scipy.stats._axis_nan_policy", _DOC)
