"""scipy.linalg._decomp_qr's qr and rq (with lu's and svd's modes on the same
matrices) against SciPy: every mode's types and values."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

from torchbridge import linalg as tl

from .cases import (
    assert_same_structure,
    both,
    check_rq,
    check_svd,
    close,
    close_all,
    rect,
)


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5)])
def test_decomposition_modes(shape, rng):
    a = rect(rng, "float64", *shape)
    for mode in ("full", "economic", "r"):
        got, want = both("qr", a, mode=mode)
        assert_same_structure(got, want)
        close_all(got, want)
    (qr_raw, tau), r = tl.qr(a, mode="raw")
    (qr_w, tau_w), r_w = sl.qr(a, mode="raw")
    close(qr_raw, qr_w)
    close(tau, tau_w)
    close(r, r_w)
    for mode in ("full", "economic"):
        got, want = both("rq", a, mode=mode)
        assert_same_structure(got, want)
        check_rq(got, want, a, 1e-12)
    r_only, want = both("rq", a, mode="r")
    close(np.abs(r_only), np.abs(want))
    for kwargs in ({}, {"permute_l": True}, {"p_indices": True}):
        got, want = both("lu", a, **kwargs)
        assert_same_structure(got, want)
        close_all(got, want)
    for full in (True, False):
        got, want = both("svd", a, full_matrices=full)
        assert_same_structure(got, want)
        check_svd(got, want, a, 1e-12)
    got, want = both("lu", a[:1, :1])  # SciPy's 1x1 path
    assert_same_structure(got, want)
    got, want = both("lu", a[:1, :1], p_indices=True)
    assert_same_structure(got, want)
