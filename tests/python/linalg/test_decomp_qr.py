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


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128, np.int64])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)])
def test_lwork_checked_as_scipy(dtype, shape):
    # f2py's workspace checks of ?geqrf/?orgqr (qr) and ?gerqf/?orgrq (rq): the same refusals, messages
    a = np.arange(1, 1 + np.prod(shape)).reshape(shape).astype(dtype)
    for name, modes in (("qr", ("full", "economic", "r", "raw")), ("rq", ("full", "economic", "r"))):
        for lwork in (0, 1, 2, 3, 4, 5, 6, -1, -1.5, 2.9, True, None, "x"):
            for mode in modes:
                outcome = []
                for module in (sl, tl):
                    try:
                        getattr(module, name)(a, lwork=lwork, mode=mode)
                    except Exception as e:  # SciPy raises _flapack.error, an Exception
                        outcome.append(str(e))
                    else:
                        outcome.append("ok")
                assert outcome[0] == outcome[1], (name, lwork, mode)
    with pytest.raises(OverflowError):
        tl.qr(a, lwork=2**40)
    tl.qr(np.ones((0, 3)), lwork=1)  # empty input: SciPy returns before LAPACK
