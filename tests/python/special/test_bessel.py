"""Bessel functions of order 0 and 1 (src/ops/special/bessel.rs).

mpmath (50 digits, set in ``cases``) is the judge where SciPy itself is off.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import ours, reference_bessel, relative_to_mpmath


def test_bessel_small_and_large_arguments():
    small = np.array([5e-324, 1e-300, 1e-100, 1e-10, 1e-3, 0.5, 1.9, 2.1, 24.9, 25.1])
    large = np.array([100.0, 700.0, 12345.678, 1e10, 2.0**53, 1e17, 1e300])
    for name in ("j0", "j1", "y0", "y1"):
        for x in (small, large):
            if name[0] == "y" and x is small:
                reference = [reference_bessel(name, v) for v in x]
            else:
                reference = [reference_bessel(name, v) for v in x]
            err = relative_to_mpmath(ours(name)(x), reference)
            assert err.max() < 2e-14, (name, x[np.argmax(err)], err.max())
    # SciPy rounds x - pi/4: 1e-6 off at 1e10, meaningless beyond 2^53
    assert relative_to_mpmath(sc.j0(large[3:4]), [reference_bessel("j0", 1e10)]).max() > 1e-7
    assert tb.special.y0(0.0) == -np.inf and tb.special.y1(0.0) == -np.inf
    assert tb.special.y1(5e-324) == -np.inf
    assert tb.special.y0(5e-324) == pytest.approx(sc.y0(5e-324), rel=1e-15)
