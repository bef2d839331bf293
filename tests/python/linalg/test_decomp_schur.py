"""The Schur family against SciPy 1.17: schur (defining properties, SciPy's
sorting and sdim), hessenberg, rsf2csf and cdf2rdf values, SciPy's errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

from torchbridge import linalg as tl

from .cases import check_schur


def _matrices(rng):
    yield rng.standard_normal((6, 6))  # complex pairs and real eigenvalues
    yield np.array([[0.0, 1, 0], [-1, 0, 0], [0, 0, 2]])  # an exact pair +-i
    yield np.triu(rng.standard_normal((5, 5)))  # already triangular
    yield np.diag([1.0, 1, 1, 2])  # repeated eigenvalues
    yield rng.standard_normal((30, 30))
    yield np.eye(4)[::-1]  # a permutation: eigenvalues on the unit circle


@pytest.mark.parametrize("output", ["real", "complex"])
def test_schur_properties(output, rng):
    for a in _matrices(rng):
        for x in (a, a + 1j * rng.standard_normal(a.shape)):
            check_schur(tl.schur(x, output=output), sl.schur(x, output=output), x, 1e-13)


@pytest.mark.parametrize("sort", ["lhp", "rhp", "iuc", "ouc", lambda x: x.imag > 1e-8])
def test_schur_sort_complex(sort, rng):
    for a in _matrices(rng):
        t, z, sdim = tl.schur(a, output="complex", sort=sort)
        ts, zs, sdims = sl.schur(a, output="complex", sort=sort)
        assert sdim == sdims and isinstance(sdim, int)
        check_schur((t, z), (ts, zs), a, 1e-13)
        # the selected eigenvalues lead, in SciPy's order
        np.testing.assert_allclose(np.diag(t)[:sdim], np.diag(ts)[:sdims], atol=1e-10 * max(1, np.abs(a).max()))


def test_schur_sort_real_form_unsupported():
    with pytest.raises(NotImplementedError, match="output='real'"):
        tl.schur(np.eye(3), sort="lhp")


def test_schur_dtypes_and_edges(rng):
    a = rng.standard_normal((5, 5))
    for dtype in (np.float32, np.complex64, np.int8, np.int64, np.float16):
        for output in ("real", "complex"):
            got, want = tl.schur(a.astype(dtype), output=output), sl.schur(a.astype(dtype), output=output)
            assert [x.dtype for x in got] == [x.dtype for x in want]
    for empty in (np.zeros((0, 0)), np.zeros((0, 0), np.float32)):
        got, want = tl.schur(empty), sl.schur(empty)
        assert [(x.dtype, x.shape) for x in got] == [(x.dtype, x.shape) for x in want]
        assert tl.schur(empty, sort="lhp", output="complex")[2] == sl.schur(empty, sort="lhp", output="complex")[2]
    batch = rng.standard_normal((2, 3, 4, 4))
    got = tl.schur(batch, output="complex", sort="lhp")
    want = sl.schur(batch, output="complex", sort="lhp")
    assert isinstance(got, list) and isinstance(want, list)
    np.testing.assert_array_equal(got[2], want[2])
    check_schur(got, want, batch, 1e-13)
    for bad, kwargs, error in [
        (np.array([[np.nan, 1], [1, 1.0]]), {}, ValueError),
        (np.ones((2, 3)), {}, ValueError),
        (np.eye(2), {"output": "x"}, ValueError),
        (np.eye(2), {"sort": "x"}, ValueError),
    ]:
        with pytest.raises(error) as ours:
            tl.schur(bad, **kwargs)
        with pytest.raises(error) as theirs:
            sl.schur(bad, **kwargs)
        assert str(ours.value) == str(theirs.value)
    t, z = tl.schur(np.array([[np.inf, 1], [1, 1.0]]), check_finite=False, output="complex")
    assert t.shape == (2, 2)


def test_hessenberg_matches_scipy(rng):
    for n in (1, 2, 3, 4, 7, 25):
        for a in (rng.standard_normal((n, n)), rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))):
            for calc_q in (False, True):
                got, want = tl.hessenberg(a, calc_q=calc_q), sl.hessenberg(a, calc_q=calc_q)
                for g, w in zip(got if calc_q else [got], want if calc_q else [want]):
                    assert g.dtype == w.dtype
                    np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12 * n * max(1, np.abs(a).max()))
    ints = np.arange(4).reshape(2, 2)
    got, want = tl.hessenberg(ints, calc_q=True), sl.hessenberg(ints, calc_q=True)
    assert [x.dtype for x in got] == [x.dtype for x in want]  # order 2: returned as it is
    assert tl.hessenberg(np.zeros((0, 0), np.float32)).dtype == sl.hessenberg(np.zeros((0, 0), np.float32)).dtype
    batch = rng.standard_normal((3, 5, 5))
    got, want = tl.hessenberg(batch, calc_q=True), sl.hessenberg(batch, calc_q=True)
    assert isinstance(got, list) and isinstance(want, list)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_rsf2csf_matches_scipy(rng):
    for a in _matrices(rng):
        t, z = sl.schur(a)
        for g, w in zip(tl.rsf2csf(t, z), sl.rsf2csf(t, z)):
            assert g.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12 * max(1, np.abs(a).max()))
    t, z = sl.schur(rng.standard_normal((4, 4)).astype(np.float32))
    assert [x.dtype for x in tl.rsf2csf(t, z)] == [x.dtype for x in sl.rsf2csf(t, z)]
    for args in [(np.eye(3), np.eye(2)), (np.ones((2, 3)), np.eye(2)), (np.eye(2), np.ones((2, 3)))]:
        with pytest.raises(ValueError) as ours:
            tl.rsf2csf(*args)
        with pytest.raises(ValueError) as theirs:
            sl.rsf2csf(*args)
        assert str(ours.value) == str(theirs.value)


def test_cdf2rdf_matches_scipy(rng):
    x = np.array([[1, 2, 3], [0, 4, 5], [0, -5, 4]])
    w, v = sl.eig(x)
    for g, want in zip(tl.cdf2rdf(w, v), sl.cdf2rdf(w, v)):
        assert g.dtype == want.dtype
        np.testing.assert_allclose(g, want, rtol=1e-13, atol=1e-13)
    ws, vs = sl.eig(rng.standard_normal((4, 6, 6)))  # stacks
    for g, want in zip(tl.cdf2rdf(ws, vs), sl.cdf2rdf(ws, vs)):
        np.testing.assert_allclose(g, want, rtol=1e-13, atol=1e-13)
    for args in [(np.array([1j, 2]), np.eye(2)), (np.ones(3), np.eye(2)), (np.ones(()), np.eye(2))]:
        with pytest.raises(ValueError) as ours:
            tl.cdf2rdf(*args)
        with pytest.raises(ValueError) as theirs:
            sl.cdf2rdf(*args)
        assert str(ours.value) == str(theirs.value)
