"""Entropies and divergences (src/ops/special/convex_analysis.rs) at their
domain edges."""

from __future__ import annotations

import numpy as np
import scipy.special as sc

import torchbridge as tb


def test_entropy_and_divergence_domain_edges():
    assert tb.special.xlogy(0.0, 0.0) == 0 and np.isnan(tb.special.xlogy(0.0, np.nan))
    assert tb.special.xlogy(0.0, -1.0) == 0 and tb.special.xlog1py(0.0, -2.0) == 0
    assert tb.special.xlog1py(1.0, -1.0) == -np.inf
    x = np.array([0.0, 0.0, -1.0, 1.0, 1.0, 0.0, np.nan, 1e300])
    y = np.array([0.0, 1.0, 1.0, -1.0, 0.0, -1.0, 1.0, 1e-300])
    np.testing.assert_array_equal(tb.special.rel_entr(x, y), sc.rel_entr(x, y))
    np.testing.assert_array_equal(tb.special.kl_div(x, y), sc.kl_div(x, y))
    np.testing.assert_array_equal(tb.special.rel_entr(x, y)[:6], [0, 0, np.inf, np.inf, np.inf, np.inf])
    e = np.array([-1.0, -0.0, 0.0, 1.0, np.inf, np.nan])
    np.testing.assert_array_equal(tb.special.entr(e), sc.entr(e))
