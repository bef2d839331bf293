"""Every array library: every routine's results in the caller's type, values as SciPy's."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import LIBRARIES, library_type, to_library

from torchbridge import linalg as tl

from .cases import (
    ROUTINE_RTOL,
    ROUTINES,
    _call,
    compare_result,
)


def _to_lib(x, lib):
    if isinstance(x, np.ndarray):
        return to_library(lib, x)
    if isinstance(x, tuple):
        return tuple(_to_lib(y, lib) for y in x)
    return x


def _assert_library_types(got, want, lib):
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            _assert_library_types(g, w, lib)
    elif isinstance(want, (np.ndarray, np.generic)):
        if lib == "numpy":
            assert type(got) is type(want)
        else:
            assert isinstance(got, library_type(lib)), type(got)
    else:
        assert type(got) is type(want)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", ROUTINES)
def test_every_library(name, lib):
    rng = np.random.default_rng(7)
    args, kwargs = ROUTINES[name][0](rng, "complex128" if name in ("ishermitian",) else "float64")
    want = _call(sl, name, args, kwargs)
    got = _call(tl, name, _to_lib(args, lib), kwargs)
    _assert_library_types(got, want, lib)
    compare_result(name, got, want, args, ROUTINE_RTOL.get(name, 1e-12))
