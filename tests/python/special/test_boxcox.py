"""The Box-Cox transformations (src/ops/special/boxcox.rs) at lambda = 0."""

from __future__ import annotations

import numpy as np
import scipy.special as sc

import torchbridge as tb


def test_boxcox_at_lambda_zero():
    x = np.array([0.5, 1.0, 2.0, 10.0, 0.0, -1.0])
    with np.errstate(all="ignore"):
        log_x = np.log(x)
        np.testing.assert_array_equal(tb.special.boxcox(x, 0.0), log_x)
        np.testing.assert_array_equal(tb.special.boxcox(x, 1e-20), log_x)
        np.testing.assert_allclose(tb.special.boxcox(x, 1e-10), sc.boxcox(x, 1e-10), rtol=1e-15)
        np.testing.assert_array_equal(tb.special.boxcox(x, 0.0), sc.boxcox(x, 0.0))
    np.testing.assert_array_equal(tb.special.inv_boxcox(x, 0.0), np.exp(x))
    np.testing.assert_allclose(tb.special.inv_boxcox(tb.special.boxcox(x[:4], 0.3), 0.3), x[:4],
                               rtol=1e-15)
