"""The elementary functions (src/ops/special/elementary.rs): cosm1.

mpmath (50 digits, set in ``cases``) is the judge where SciPy itself is off.
"""

from __future__ import annotations

import numpy as np
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def test_cosm1_near_multiples_of_two_pi():
    x = np.array([2 * np.pi, 6 * np.pi + 1e-4, -2 * np.pi + 1e-7, 1e-8, 3.0])
    reference = [mp.cos(mpf(v)) - 1 for v in x]
    assert relative_to_mpmath(tb.special.cosm1(x), reference).max() < 3e-16
    assert relative_to_mpmath(sc.cosm1(x[:2]), reference[:2]).max() > 1e-10
