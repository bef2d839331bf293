"""The logistic functions (src/ops/special/logit.rs): expit, log_expit.

mpmath (50 digits, set in ``cases``) is the judge where SciPy itself is off.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import mp, mpf, relative_to_mpmath


def test_expit_and_log_expit_for_large_arguments():
    import torch

    x = np.array([-745.0, -700.0, -40.0, 40.0, 700.0])
    reference = [-mp.log1p(mp.exp(-mpf(v))) for v in x]
    assert tb.special.log_expit(745.0) == sc.log_expit(745.0) == -5e-324
    assert relative_to_mpmath(tb.special.log_expit(x), reference).max() < 3e-16
    # libtorch's log_sigmoid flushes its subnormal results to 0
    assert torch.nn.functional.logsigmoid(torch.tensor(745.0, dtype=torch.float64)).item() == 0
    assert tb.special.log_expit(40.0) == pytest.approx(-4.248354255291589e-18, rel=1e-15)
    reference = [1 / (1 + mp.exp(-mpf(v))) for v in x[1:]]  # expit(-745) is subnormal
    assert relative_to_mpmath(tb.special.expit(x[1:]), reference).max() < 3e-16
