"""`scipy.stats._axis_nan_policy`: the warning SciPy's ``axis``/``nan_policy``
machinery gives for samples too small for a statistic."""

from __future__ import annotations


class SmallSampleWarning(RuntimeWarning):
    """A sample (or an axis-slice of one) is too small for the statistic: its result is NaN.

    SciPy's class of the same name (``scipy.stats._axis_nan_policy``), with the same messages.
    """
