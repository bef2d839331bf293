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


def test_logit_keeps_its_digits_near_one_half():
    # the quotient form log(p / (1 - p)) lost 4 digits at 0.4999999999999 (rel err 2.8e-4)
    x = np.array([0.3, 0.4, 0.4999999999999, 0.5, 0.5000000000001, 0.6, 0.65, 0.2, 0.9, 1e-300, 0.0, 1.0])
    reference = [mp.log(mpf(v) / (1 - mpf(v))) if 0 < v < 1 else mpf(0) for v in x]
    ours = tb.special.logit(x)
    assert relative_to_mpmath(ours[:10], reference[:10]).max() < 4e-16
    assert ours[3] == 0.0 and ours[10] == -np.inf and ours[11] == np.inf
    assert np.array_equal(ours, sc.logit(x)) or np.allclose(ours, sc.logit(x), rtol=4e-16, atol=0)
    x32 = np.array([0.3, 0.4999, 0.5001, 0.6, 0.2], dtype=np.float32)
    reference = [mp.log(mpf(float(v)) / (1 - mpf(float(v)))) for v in x32]
    ours32 = tb.special.logit(x32)
    assert ours32.dtype == np.float32
    assert relative_to_mpmath(ours32, reference).max() < 2e-7  # was 2e-5


def test_logit_gradient_near_one_half_and_at_the_ends():
    import torch

    x = torch.tensor([1e-12, 0.3, 0.4999999999999, 0.5, 0.65, 0.9], dtype=torch.float64, requires_grad=True)
    tb.special.logit(x).sum().backward()
    expected = 1 / (x.detach() * (1 - x.detach()))
    assert torch.allclose(x.grad, expected, rtol=1e-14, atol=0)
