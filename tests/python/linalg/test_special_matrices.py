"""scipy.linalg._special_matrices against SciPy: the order constructors (the
ORDER_ROUTINES table of ``cases``), hankel's warning, every integer dtype
kept by the constructors, toeplitz's default row in every library."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
from conftest import LIBRARIES, to_library

from torchbridge import linalg as tl

from .cases import (
    ORDER_ROUTINES,
    assert_same_structure,
    both,
    close,
)


@pytest.mark.parametrize("name", ORDER_ROUTINES)
def test_order_constructors_match_scipy(name):
    for args, kwargs in ORDER_ROUTINES[name]:
        want = getattr(sl, name)(*args, **kwargs)
        got = getattr(tl, name)(*args, **kwargs)
        assert_same_structure(got, want)
        if name == "invhilbert" and not kwargs.get("exact"):
            # SciPy multiplies floating-point binomials (comb(exact=False)),
            # about 1e-15 off for each; torchbridge rounds the exact integer once.
            np.testing.assert_allclose(got, want, rtol=1e-13)
        elif name == "dft":
            # SciPy raises omega to integer powers; torchbridge reduces jk mod n first.
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-14)
        else:
            np.testing.assert_array_equal(got, want)


def test_hankel_warns_and_flattens_like_scipy():
    c = np.arange(6).reshape(2, 3)
    with pytest.warns(FutureWarning, match="SciPy 1.19"):
        got = tl.hankel(c, [9, 8])
    with pytest.warns(FutureWarning):
        want = sl.hankel(c, [9, 8])
    np.testing.assert_array_equal(got, want)
    got, want = both("toeplitz", [1 + 1j, 2 - 1j, 3j])  # r defaults to conj(c)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64", "int8", "bool"])
def test_constructors_keep_every_integer_dtype_exactly(dtype):
    # libtorch has few uint16/32/64 kernels: torchbridge rearranges their bits
    # as signed integers; values (and NumPy's wraparound in fiedler) must survive.
    v = np.array([1, 60000, 3, 2**15 + 5, 7]).astype(dtype)
    m = (np.arange(25).reshape(5, 5) % 3).astype(dtype)
    cases = [("toeplitz", (v,)), ("toeplitz", (v, v[:3])), ("circulant", (v,)), ("hankel", (v, v[:3])),
             ("block_diag", (m, m[:2])), ("khatri_rao", (m, m)), ("leslie", (v, v[:4])), ("diagsvd", (v[:3], 3, 5)),
             ("convolution_matrix", (v, 3)), ("convolution_matrix", (v, 7, "same"))]
    if dtype != "bool":
        cases.append(("fiedler", (v,)))
    for name, args in cases:
        got, want = both(name, *args)
        assert_same_structure(got, want)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_toeplitz_defaults_conjugate_first_column_in_every_library(lib):
    c = np.array([5 + 1j, 1 - 2j, 0.5j])
    b = np.array([1.0, 2.0, 3.0])
    close(tl.solve_toeplitz(to_library(lib, c), to_library(lib, b)), sl.solve_toeplitz(c, b))
    close(tl.matmul_toeplitz(to_library(lib, c), to_library(lib, b)), sl.matmul_toeplitz(c, b), 1e-14)
    close(tl.toeplitz(to_library(lib, c)), sl.toeplitz(c))
