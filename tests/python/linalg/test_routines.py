"""Every routine of torchbridge.linalg against scipy.linalg 1.17: SciPy's
signatures, and for every dtype SciPy's result types, dtypes and values
(the ROUTINES table of ``cases``)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import with_device

from torchbridge import linalg as tl

from .cases import (
    DTYPES,
    ORDER_ROUTINES,
    ROUTINE_RTOL,
    ROUTINES,
    SCIPY_REFERENCE_FROM,
    _call,
    assert_same_structure,
    compare_result,
    result_tolerance,
    tolerance,
)


def _not_passed_as_none(signature):
    """SciPy's private "not passed" sentinel (a bare ``object()``, for its deprecated ``disp``/``blocksize``)
    shown as ``None``, torchbridge's default for the same meaning."""
    params = [p.replace(default=None) if type(p.default) is object else p for p in signature.parameters.values()]
    return signature.replace(parameters=params)


def test_every_scipy_signature_matches():
    assert len(tl.__all__) == len(set(tl.__all__)) >= 28
    for name in tl.__all__:
        theirs = _not_passed_as_none(inspect.signature(getattr(sl, name)))
        assert inspect.signature(getattr(tl, name)) == with_device(theirs), name


def test_every_routine_is_tested():
    assert set(tl.__all__) == set(ROUTINES) | set(ORDER_ROUTINES)


def _scipy_dtype_error(name, args, kwargs):
    try:
        with np.errstate(all="ignore"):
            return None, _call(sl, name, args, kwargs)
    except Exception as exc:
        return exc, None


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ROUTINES)
def test_matches_scipy_types_dtypes_values(name, dtype):
    rng = np.random.default_rng(20261201)
    make, compare = ROUTINES[name]
    args, kwargs = make(rng, dtype)
    error, want = _scipy_dtype_error(name, args, kwargs)
    if (name, dtype) in SCIPY_REFERENCE_FROM:
        # SciPy loses accuracy on this dtype; see SCIPY_REFERENCE_FROM.
        ref_dtype = SCIPY_REFERENCE_FROM[name, dtype]
        ref = _call(sl, name, tuple(np.asarray(a).astype(ref_dtype) if isinstance(a, np.ndarray) else a
                                    for a in args), kwargs)
        if want is None:  # SciPy's own warning about its accuracy here (logm's, an error under pytest)
            error, want = None, ref
        else:
            want = ref.astype(want.dtype) if isinstance(want, np.ndarray) else \
                type(want)(np.asarray(r).astype(np.asarray(w).dtype)[()] for r, w in zip(ref, want))
    if error is not None:
        # SciPy refuses this dtype (e.g. -bool in coshm): so does torchbridge.
        with pytest.raises(type(error) if not isinstance(error, np.linalg.LinAlgError) else Exception):
            _call(tl, name, args, kwargs)
        return
    got = _call(tl, name, args, kwargs)
    assert_same_structure(got, want)
    rtol = max(tolerance(dtype), result_tolerance(want[0] if isinstance(want, (tuple, list)) else want))
    rtol = max(rtol, ROUTINE_RTOL.get(name, 0.0))
    compare_result(name, got, want, args, rtol)
