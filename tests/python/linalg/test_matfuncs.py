"""scipy.linalg._matfuncs' expm against SciPy: structures, dtypes, scalars."""

from __future__ import annotations

import numpy as np
import pytest

from torchbridge import linalg as tl

from .cases import (
    assert_same_structure,
    both,
    close,
)


def test_expm_structures_and_dtypes(rng):
    cases = [np.diag([1.0, -2.0, 30.0]), np.triu(rng.standard_normal((5, 5))) * 3,
             np.tril(rng.standard_normal((5, 5))), rng.standard_normal((6, 6)) * 4,
             rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)), np.zeros((3, 3))]
    for a in cases:
        got, want = both("expm", a)
        assert_same_structure(got, want)
        # libtorch's Taylor approximant vs SciPy's Pade: both backward stable;
        # they agree to about 1e-14 relative at these norms (up to 12).
        close(got, want, 1e-13)
    for x in (np.float16(0.5), 2, 1.5, 1 + 2j, [[0.5]], np.array([[2]], dtype=np.int8),
              np.array([[1.0]], dtype=np.float16), np.array([[True]])):
        got, want = both("expm", x)
        assert_same_structure(got, want)
        close(got, want, 1e-3 if np.asarray(want).dtype == np.float16 else 1e-15)
    with pytest.raises(np.linalg.LinAlgError):
        tl.expm(np.ones(3))
    with pytest.raises(np.linalg.LinAlgError):
        tl.expm(np.ones((2, 3)))
