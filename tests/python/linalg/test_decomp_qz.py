"""The QZ family against SciPy 1.17: qz and ordqz (defining properties, SciPy's selections, dtypes, batches,
errors), the real generalized Schur form (output='real', SciPy's default, for real input) and the generalized
eigenproblem of eig/eigvals (b given)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

from torchbridge import linalg as tl

from .cases import check_qz, check_qz_real, sorted_eigenvalues


def _pencils(rng):
    yield rng.standard_normal((6, 6)), rng.standard_normal((6, 6))
    yield rng.standard_normal((1, 1)), rng.standard_normal((1, 1))
    yield rng.standard_normal((2, 2)), np.eye(2)
    b = rng.standard_normal((5, 5))
    b[-1] = b[0]  # singular b: an infinite eigenvalue
    yield rng.standard_normal((5, 5)), b
    yield np.diag([1.0, 1, 2, 3]), np.eye(4)  # repeated eigenvalues
    yield rng.standard_normal((25, 25)), rng.standard_normal((25, 25))
    yield np.eye(4)[::-1], np.diag([1.0, 2, 3, 4])
    b = np.triu(rng.standard_normal((6, 6)))
    b[2, 2] = b[4, 4] = 0  # zeros on b's diagonal (zeros chased by zhgeqz)
    yield rng.standard_normal((6, 6)), b


def _complex(rng, a):
    return a + 1j * rng.standard_normal(a.shape)


def test_qz_properties(rng):
    for a, b in _pencils(rng):
        for x, y in ((a, b), (_complex(rng, a), _complex(rng, b)), (a, _complex(rng, b))):
            check_qz(tl.qz(x, y, output="complex"), sl.qz(x, y, output="complex"), x, y, 1e-13)
        x, y = _complex(rng, a), b
        check_qz(tl.qz(x, y), sl.qz(x, y), x, y, 1e-13)  # complex input: the complex form whatever output


@pytest.mark.parametrize("sort", ["lhp", "rhp", "iuc", "ouc", lambda a, b: np.abs(a) > 0.5 * np.abs(b)])
def test_ordqz_selects_as_scipy(sort, rng):
    for a, b in _pencils(rng):
        x, y = _complex(rng, a), b
        got = tl.ordqz(x, y, sort=sort, output="complex")
        want = sl.ordqz(x, y, sort=sort, output="complex")
        check_qz(got, want, x, y, 1e-13)
        fn = {"lhp": sl._decomp_qz._lhp, "rhp": sl._decomp_qz._rhp, "iuc": sl._decomp_qz._iuc,
              "ouc": sl._decomp_qz._ouc}.get(sort, sort) if isinstance(sort, str) else sort
        if (np.abs(want[3]) < 1e-8 * np.abs(want[2])).any():
            continue  # an infinite eigenvalue: which side of the plane its rounding-level beta puts it is noise
        chosen = fn(want[2], want[3])
        sdim = int(chosen.sum())
        assert (chosen[:sdim]).all() and not chosen[sdim:].any()  # SciPy's own leading block
        ours = fn(np.asarray(got[2]), np.asarray(got[3]))
        assert (ours[:sdim]).all() and not ours[sdim:].any(), (sort, ours, chosen)
        with np.errstate(divide="ignore", invalid="ignore"):
            lead = lambda r: sorted_eigenvalues(r[2][:sdim] / r[3][:sdim])  # noqa: E731
            np.testing.assert_allclose(lead(got), lead(want), rtol=1e-9, atol=1e-9)


def test_ordqz_default_sort_is_lhp(rng):
    a, b = _complex(rng, rng.standard_normal((5, 5))), rng.standard_normal((5, 5))
    got, want = tl.ordqz(a, b, output="complex"), sl.ordqz(a, b, output="complex")
    check_qz(got, want, a, b, 1e-13)
    np.testing.assert_allclose(np.sort_complex(got[2] / got[3])[:0], [])
    lhp = (got[2] / got[3]).real < 0
    k = int(lhp.sum())
    assert lhp[:k].all() and not lhp[k:].any()


def _structured_real_pencils(rng):
    yield np.triu(rng.standard_normal((5, 5))), np.triu(rng.standard_normal((5, 5)))  # already triangular
    yield np.zeros((3, 3)), np.eye(3)
    yield np.eye(3), np.zeros((3, 3))  # every eigenvalue infinite
    rot = np.array([[0.0, -1], [1, 0]])
    yield np.kron(np.eye(3), rot), np.eye(6)  # repeated complex pairs (+-i three times)
    yield np.diag([2.0, 2, 2, 2]) + np.diag([1.0, 1, 1], 1), np.eye(4)  # a Jordan block
    a = rng.standard_normal((7, 7))
    b = rng.standard_normal((7, 7))
    b[:, 3] = 0  # singular b
    yield a, b
    yield rng.standard_normal((40, 40)), rng.standard_normal((40, 40))


def test_qz_real_form(rng):
    pencils = list(_pencils(rng)) + list(_structured_real_pencils(rng))
    for a, b in pencils:
        check_qz_real(tl.qz(a, b), sl.qz(a, b), a, b, 1e-13)
        check_qz_real(tl.qz(a, b, output="r"), sl.qz(a, b, output="r"), a, b, 1e-13)
    for a, b in pencils[:4]:
        x, y = a.astype(np.float32), b.astype(np.float32)
        check_qz_real(tl.qz(x, y), sl.qz(x, y), x.astype(np.float64), y.astype(np.float64), 2e-6)


def test_qz_real_form_dtypes_and_empty(rng):
    a, b = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    for da in (np.float32, np.float64, np.int8, np.int64, np.float16, np.uint32, np.int32, np.uint8):
        for db in (np.float32, np.int16, np.float64):
            x, y = (a * 3).astype(da), (b * 3).astype(db)
            got, want = tl.qz(x, y), sl.qz(x, y)
            assert [g.dtype for g in got] == [w.dtype for w in want], (da, db)
            got, want = tl.ordqz(x, y), sl.ordqz(x, y)
            assert [g.dtype for g in got] == [w.dtype for w in want], (da, db)
    got = tl.qz(np.zeros((0, 0)), np.zeros((0, 0)))
    assert [(x.dtype, x.shape) for x in got] == [(np.float64, (0, 0))] * 4
    got = tl.ordqz(np.zeros((0, 0)), np.zeros((0, 0)))
    assert [(x.dtype, x.shape) for x in got] == [(np.float64, (0, 0))] * 2 + [(np.complex128, (0,)),
                                                                              (np.float64, (0,))] + [
        (np.float64, (0, 0))] * 2
    batch_a, batch_b = rng.standard_normal((2, 3, 5, 5)), rng.standard_normal((3, 5, 5))
    for f, kw in ((tl.qz, {}), (tl.ordqz, {"sort": "ouc"})):
        got = f(batch_a, batch_b, **kw)
        want = getattr(sl, f.__name__)(batch_a, batch_b, **kw)
        assert isinstance(got, list) and isinstance(want, list)
        check_qz_real(got, want, batch_a, batch_b, 1e-13)


_FNS = {"lhp": sl._decomp_qz._lhp, "rhp": sl._decomp_qz._rhp, "iuc": sl._decomp_qz._iuc,
        "ouc": sl._decomp_qz._ouc}


@pytest.mark.parametrize("sort", ["lhp", "rhp", "iuc", "ouc", lambda a, b: np.abs(a) > 0.5 * np.abs(b)])
def test_ordqz_real_selects_as_scipy(sort, rng):
    pencils = list(_pencils(rng)) + list(_structured_real_pencils(rng))
    pencils.append((rng.standard_normal((12, 12)) - 0.5 * np.eye(12), rng.standard_normal((12, 12))))
    for a, b in pencils:
        seen = []
        callable_sort = (lambda al, be: seen.append((al.dtype, be.dtype)) or sort(al, be)) if callable(sort) else sort
        got = tl.ordqz(a, b, sort=callable_sort)
        want = sl.ordqz(a, b, sort=sort)
        check_qz_real(got, want, a, b, 1e-13)
        if callable(sort):
            assert seen == [(np.complex128, np.float64)]
        fn = _FNS.get(sort, sort) if isinstance(sort, str) else sort
        if (np.abs(want[3]) < 1e-8 * np.abs(want[2])).any():
            continue  # an infinite eigenvalue: which side of the plane its rounding-level beta puts it is noise
        with np.errstate(divide="ignore", invalid="ignore"):
            chosen, ours = fn(want[2], want[3]), fn(np.asarray(got[2]), np.asarray(got[3]))
        sdim = int(chosen.sum())
        assert (chosen[:sdim]).all() and not chosen[sdim:].any()  # SciPy's own leading block
        assert (ours[:sdim]).all() and not ours[sdim:].any(), (sort, ours, chosen)
        with np.errstate(divide="ignore", invalid="ignore"):
            lead = lambda r: sorted_eigenvalues(r[2][:sdim] / r[3][:sdim])  # noqa: E731
            np.testing.assert_allclose(lead(got), lead(want), rtol=1e-9, atol=1e-9)


def test_ordqz_real_default_and_float32(rng):
    a, b = rng.standard_normal((6, 6)), rng.standard_normal((6, 6))
    got, want = tl.ordqz(a, b), sl.ordqz(a, b)
    check_qz_real(got, want, a, b, 1e-13)
    lhp = (got[2] / got[3]).real < 0
    k = int(lhp.sum())
    assert lhp[:k].all() and not lhp[k:].any()
    x, y = a.astype(np.float32), b.astype(np.float32)
    got, want = tl.ordqz(x, y, sort="iuc"), sl.ordqz(x, y, sort="iuc")
    check_qz_real(got, want, a, b, 2e-6)


def test_qz_dtypes_batches_and_errors(rng):
    a, b = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    for da in (np.float32, np.float64, np.complex64, np.int8, np.int64, np.float16, np.uint32):
        for db in (np.float32, np.complex128, np.int32):
            got, want = tl.qz(a.astype(da), b.astype(db), output="complex"), sl.qz(a.astype(da), b.astype(db),
                                                                                   output="complex")
            assert [x.dtype for x in got] == [x.dtype for x in want], (da, db)
    got, want = tl.qz(_complex(rng, a).astype(np.complex64), b.astype(np.int32)), sl.qz(
        _complex(rng, a).astype(np.complex64), b.astype(np.int32))
    assert [x.dtype for x in got] == [x.dtype for x in want]
    # (empty pencils: SciPy's zgges refuses lwork=0; torchbridge returns empty factors)
    got = tl.qz(np.zeros((0, 0)), np.zeros((0, 0)), output="complex")
    assert [(x.dtype, x.shape) for x in got] == [(np.complex128, (0, 0))] * 4
    batch_a, batch_b = rng.standard_normal((2, 3, 4, 4)), rng.standard_normal((3, 4, 4))
    for f, kw in ((tl.qz, {}), (tl.ordqz, {"sort": "ouc"})):
        got = f(batch_a, batch_b, output="complex", **kw)
        want = getattr(sl, f.__name__)(batch_a, batch_b, output="complex", **kw)
        assert isinstance(got, list) and isinstance(want, list)
        check_qz(got, want, batch_a, batch_b, 1e-13)
    for bad, kwargs in [
        ((np.array([[np.nan, 1], [1, 1.0]]), np.eye(2)), {}),
        ((np.ones((2, 3)), np.ones((2, 3))), {}),
        ((np.eye(2), np.eye(3)), {}),
        ((np.eye(2), np.eye(2)), {"output": "x"}),
        ((np.eye(2), np.eye(2)), {"sort": "lhp"}),
    ]:
        with pytest.raises(ValueError) as ours:
            tl.qz(*bad, **kwargs)
        with pytest.raises(ValueError) as theirs:
            sl.qz(*bad, **kwargs)
        assert str(ours.value) == str(theirs.value)
    for sort in ("x", None):
        with pytest.raises(ValueError) as ours:
            tl.ordqz(np.eye(2), np.eye(2), sort=sort, output="complex")
        with pytest.raises(ValueError) as theirs:
            sl.ordqz(np.eye(2), np.eye(2), sort=sort, output="complex")
        assert str(ours.value) == str(theirs.value)
    aa = tl.qz(np.array([[np.inf, 1], [1, 1.0]]), np.eye(2), check_finite=False, output="complex")[0]
    assert aa.shape == (2, 2)


def _check_generalized_eig(got, want, a, b, left, right, homogeneous):
    got = list(got) if isinstance(got, tuple) else [got]
    want = list(want) if isinstance(want, tuple) else [want]
    assert [np.asarray(x).dtype for x in got] == [np.asarray(x).dtype for x in want]
    assert [np.shape(x) for x in got] == [np.shape(x) for x in want]
    w, ws = got[0], want[0]
    if homogeneous:
        with np.errstate(divide="ignore", invalid="ignore"):
            w, ws = w[0] / w[1], ws[0] / ws[1]
    # (an exactly singular b: LAPACK's beta is 0, or rounding-level, giving inf or a huge finite w)
    big = max(1e8, 1e8 * np.abs(ws[np.abs(ws) < 1e8]).max(initial=1.0))
    finite, ours = np.abs(ws) < big, np.abs(w) < big
    assert ours.sum() == finite.sum()
    scale = max(1.0, np.abs(ws[finite]).max(initial=1.0))
    np.testing.assert_allclose(sorted_eigenvalues(w[ours]), sorted_eigenvalues(ws[finite]),
                               rtol=1e-8, atol=1e-8 * scale)
    vs = got[1:]
    w0 = got[0]
    alpha, beta = (w0[0], w0[1]) if homogeneous else (np.where(ours, w0, 1), ours * 1.0)
    if left:
        vl = vs.pop(0)
        np.testing.assert_allclose(np.linalg.norm(vl, axis=0), 1, rtol=1e-12)
        res = (np.conj(vl).T @ a) * beta[:, None] - alpha[:, None] * (np.conj(vl).T @ b)
        assert np.abs(res).max() < 1e-10 * max(np.abs(a).max(), np.abs(b).max(), 1)
    if right:
        vr = vs.pop(0)
        np.testing.assert_allclose(np.linalg.norm(vr, axis=0), 1, rtol=1e-12)
        res = (a @ vr) * beta - (b @ vr) * alpha
        assert np.abs(res).max() < 1e-10 * max(np.abs(a).max(), np.abs(b).max(), 1)


@pytest.mark.parametrize("homogeneous", [False, True])
@pytest.mark.parametrize("left,right", [(False, True), (True, False), (True, True), (False, False)])
def test_generalized_eig_matches_scipy(left, right, homogeneous, rng):
    for a, b in _pencils(rng):
        for x, y in ((a, b), (_complex(rng, a), _complex(rng, b))):
            got = tl.eig(x, y, left=left, right=right, homogeneous_eigvals=homogeneous)
            want = sl.eig(x, y, left=left, right=right, homogeneous_eigvals=homogeneous)
            _check_generalized_eig(got, want, x, y, left, right, homogeneous)
            got = tl.eigvals(x, y, homogeneous_eigvals=homogeneous)
            want = sl.eigvals(x, y, homogeneous_eigvals=homogeneous)
            _check_generalized_eig(got, want, x, y, False, False, homogeneous)


def test_generalized_eig_real_pencils_give_real_vectors(rng):
    a = rng.standard_normal((5, 5))
    a = a + a.T
    b = np.eye(5) + 0.1 * np.diag(rng.random(5))
    got, want = tl.eig(a, b), sl.eig(a, b)
    assert got[1].dtype == want[1].dtype == np.float64
    assert (np.asarray(got[0]).imag == 0).all()
    w, v = tl.eig(np.diag([1.0, 2.0]), np.diag([0.0, 1.0]))
    ws = sl.eig(np.diag([1.0, 2.0]), np.diag([0.0, 1.0]))[0]
    np.testing.assert_array_equal(np.sort_complex(w), np.sort_complex(ws))  # inf where b is singular
    np.testing.assert_array_equal(tl.eigvals(np.zeros((2, 2)), np.zeros((2, 2))),
                                  sl.eigvals(np.zeros((2, 2)), np.zeros((2, 2))))  # 0/0: nan


def test_generalized_eig_batches_dtypes_errors(rng):
    a, b = rng.standard_normal((2, 4, 4)), rng.standard_normal((4, 4))
    got, want = tl.eigvals(a, b), sl.eigvals(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    for g, w in zip(got, want):
        np.testing.assert_allclose(sorted_eigenvalues(g), sorted_eigenvalues(w), rtol=1e-9, atol=1e-9)
    for dt in (np.float32, np.complex64, np.int64):
        x, y = a[0].astype(dt), b.astype(dt)
        assert [np.asarray(r).dtype for r in tl.eig(x, y)] == [np.asarray(r).dtype for r in sl.eig(x, y)]
    with pytest.raises(ValueError):
        tl.eig(np.eye(2), np.eye(3))
    with pytest.raises(ValueError):
        tl.eig(np.eye(2), np.array([[np.nan, 0], [0, 1]]))
