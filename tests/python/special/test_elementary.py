"""The elementary functions (src/ops/special/elementary.rs): cosm1, sindg/cosdg
at their cut-off, exp10 below the normal range.

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


def test_sindg_cosdg_at_scipys_cut_off():
    # 0 beyond |x| = 1e14, the cut-off applied to x itself: cosdg(1e14) is cos(280 degrees), not 0
    x = np.array([1e14, -1e14, 1e14 - 45, 1e14 + 0.25, -2e14, 1e300, np.inf, -np.inf, np.nan])
    for ours, theirs in ((tb.special.sindg, sc.sindg), (tb.special.cosdg, sc.cosdg)):
        np.testing.assert_allclose(ours(x), theirs(x), rtol=1e-15, atol=1e-16)
    assert abs(tb.special.cosdg(1e14) - np.cos(np.deg2rad(280.0))) < 1e-15


def test_exp10_keeps_subnormal_results():
    # SciPy's exp10 flushes below log10 of the smallest normal to 0 (and reports underflow);
    # torchbridge returns the subnormal value, within the subnormal spacing of mpmath's
    x = np.array([-308.0, -308.3, -310.0, -323.3, -324.0, -np.inf])
    ours = tb.special.exp10(x)
    with mp.workdps(30):
        reference = np.array([float(mp.power(10, mpf(v))) if np.isfinite(v) else 0.0 for v in x])
    np.testing.assert_allclose(ours, reference, rtol=4e-16, atol=1e-323)  # 1e-323: two subnormal steps
    assert sc.exp10(-308.3) == 0.0 and ours[1] > 0
