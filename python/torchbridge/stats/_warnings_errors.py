"""`scipy.stats._warnings_errors`: the warnings the correlations give for degenerate data."""

from __future__ import annotations


class DegenerateDataWarning(RuntimeWarning):
    """Data are degenerate: the statistic may be undefined or inaccurate (SciPy's class)."""


class ConstantInputWarning(DegenerateDataWarning):
    """All values of an input are equal: the correlation coefficient is not defined (SciPy's class)."""


class NearConstantInputWarning(DegenerateDataWarning):
    """The values of an input are nearly equal: the correlation may be inaccurate (SciPy's class)."""
