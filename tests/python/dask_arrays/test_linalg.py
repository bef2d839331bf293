"""The chunking table's ``linalg`` rows on dask arrays, generated from the table.

Every :class:`Gufunc` row runs on each of its example calls (stacks of B = 4
small well-conditioned matrices, fixed seed; SPD where the routine needs it),
its batched arrays chunked along the batch axis one matrix per chunk and
raggedly: the graph is built under :func:`no_compute`, the result has the
eager routine's structure (a dask array, or a tuple/list of them where the
eager result is a tuple/list) and equals the eager torchbridge routine on the
numpy input within 1e-12 relative. Measured here: all 184 (example,
chunking) results are bit-identical, as each task is the same routine on
fewer matrices; the tolerance is there because libtorch's batched kernels may
treat a batch of one differently from a batch of four (``eig``'s left vectors
differed in the last bit before ``eig`` with vectors was refused).

A chunked core axis raises ``ValueError`` naming it; every ``Unsupported`` row
(and each option a row refuses) raises ``NotImplementedError`` saying why;
every name in ``torchbridge.linalg.__all__`` has a row. The ``norm``
reduction agrees with the unchunked call within 1e-12 relative for 1 to 64
chunks, over the ords and axes ``scipy.linalg.norm`` takes.
"""

from __future__ import annotations

import inspect
import math
import re
from typing import Any

import dask
import dask.array as da
import numpy as np
import pytest

import torchbridge.linalg as tl
from torchbridge.dask import CHUNKING
from torchbridge.dask._chunking import Gufunc, NoArrays, Reduction, Unsupported

from .cases import CHUNKINGS, no_compute

B, N = 4, 3  # the batch size differs from every core size: a leading 4 marks a batch axis
RTOL = 1e-12
BATCHED = Gufunc.kind
ROWS = {key.split(".", 1)[1]: row for key, row in CHUNKING.items() if key.startswith("linalg.")}

_rng = np.random.default_rng(17)
GENERAL = _rng.standard_normal((B, N, N)) + N * np.eye(N)
SPD = GENERAL @ GENERAL.transpose(0, 2, 1) + np.eye(N)
TALL = _rng.standard_normal((B, 5, N))
VECTOR = _rng.standard_normal((B, N))
FIRST = N * (np.arange(N) == 0)  # added to a Toeplitz/circulant/companion generator: invertible
RHS = _rng.standard_normal((B, N, 2))
BANDED = np.stack([np.r_[0, np.ones(N - 1)], 4 + np.zeros(N), np.r_[np.ones(N - 1), 0]]) * np.ones((B, 1, 1))
SYM_BANDED = np.stack([np.r_[0, 0.5 * np.ones(N - 1)], 4 + np.zeros(N)]) * np.ones((B, 1, 1))
ORTHO = np.linalg.qr(GENERAL)[0]  # orthogonal: cossin's input
CHO = tuple(tl.cho_factor(SPD))  # (c, lower) with lower an array per matrix
LU = tuple(tl.lu_factor(GENERAL))


def ex(*args: Any, **kwargs: Any) -> tuple[tuple, dict]:
    return args, kwargs


#: Example calls of every Gufunc row: the options that change its output structure, batched and not.
EXAMPLES: dict[str, list[tuple[tuple, dict]]] = {
    "solve": [ex(GENERAL, RHS), ex(GENERAL[0], VECTOR[0]), ex(SPD, RHS, assume_a="pos")],
    "solve_triangular": [ex(GENERAL, RHS, lower=True), ex(GENERAL[0], VECTOR[0])],
    "inv": [ex(GENERAL)],
    "det": [ex(GENERAL), ex(GENERAL[0])],
    "eigh": [ex(SPD), ex(SPD, eigvals_only=True), ex(SPD, SPD + np.eye(N)), ex(SPD, subset_by_index=[1, 2])],
    "eigvalsh": [ex(SPD), ex(SPD[0], subset_by_index=[0, 1])],
    "eig": [ex(GENERAL, right=False), ex(GENERAL, right=False, homogeneous_eigvals=True)],
    "eigvals": [ex(GENERAL), ex(GENERAL[0], homogeneous_eigvals=True)],
    "svd": [ex(TALL), ex(TALL, full_matrices=False), ex(TALL, compute_uv=False), ex(TALL[0].T)],
    "svdvals": [ex(TALL)],
    "cholesky": [ex(SPD), ex(SPD, lower=True)],
    "cho_factor": [ex(SPD), ex(SPD[0])],
    "cho_solve": [ex((CHO[0], False), RHS), ex(CHO, RHS), ex((CHO[0][0], False), VECTOR[0])],
    "lu": [ex(TALL), ex(TALL, permute_l=True), ex(TALL, p_indices=True), ex(GENERAL[0])],
    "lu_factor": [ex(GENERAL)],
    "lu_solve": [ex(LU, RHS), ex(LU, RHS, trans=1)],
    "qr": [ex(TALL), ex(TALL, mode="economic"), ex(TALL, mode="r"), ex(TALL[0], mode="r")],
    "rq": [ex(TALL), ex(TALL, mode="economic"), ex(TALL, mode="r")],
    "pinv": [ex(TALL)],
    "pinvh": [ex(SPD)],
    **{name: [ex(GENERAL / 4)] for name in ("expm", "cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm")},
    "expm_frechet": [ex(GENERAL / 4, SPD / 8), ex(GENERAL / 4, SPD / 8, compute_expm=False)],
    "polar": [ex(TALL), ex(TALL, side="left")],
    "subspace_angles": [ex(TALL, TALL[..., :2])],
    "orthogonal_procrustes": [ex(GENERAL, SPD), ex(GENERAL[0], SPD[0])],
    "block_diag": [ex(GENERAL, TALL[0, 0], 1.0), ex(GENERAL[0], TALL[0])],
    "toeplitz": [ex(VECTOR), ex(VECTOR, TALL[..., 0])],
    "circulant": [ex(VECTOR)],
    "hankel": [ex(VECTOR[0]), ex(VECTOR[0], TALL[0, :, 0])],
    "khatri_rao": [ex(GENERAL, TALL)],
    "companion": [ex(VECTOR + FIRST)],
    "fiedler": [ex(VECTOR)],
    "leslie": [ex(VECTOR, VECTOR[:, :2])],
    "diagsvd": [ex(VECTOR, 5, N), ex(VECTOR[0], N, 5)],
    "convolution_matrix": [ex(VECTOR, 2), ex(VECTOR, 5, mode="same"), ex(VECTOR, 5, mode="valid")],
    "bandwidth": [ex(np.triu(TALL)), ex(np.tril(GENERAL[0]))],
    "issymmetric": [ex(SPD), ex(GENERAL[0])],
    "ishermitian": [ex(SPD + 1j * (GENERAL - GENERAL.transpose(0, 2, 1)))],
    "solve_banded": [ex((1, 1), BANDED, RHS)],
    "solveh_banded": [ex(SYM_BANDED, RHS), ex(SYM_BANDED[:, ::-1], RHS, lower=True)],
    "cholesky_banded": [ex(SYM_BANDED)],
    "eigh_tridiagonal": [ex(VECTOR, VECTOR[:, :2]), ex(VECTOR, VECTOR[:, :2], select="i", select_range=(1, 2))],
    "eigvalsh_tridiagonal": [ex(VECTOR, VECTOR[:, :2])],
    "solve_toeplitz": [ex(VECTOR + FIRST, RHS), ex((VECTOR + FIRST, VECTOR + FIRST), RHS)],
    "matmul_toeplitz": [ex(VECTOR, RHS), ex((VECTOR, TALL[:, :2, 0]), RHS[:, :2])],
    "solve_circulant": [
        ex(VECTOR + FIRST, RHS[..., 0], baxis=1),
        ex(VECTOR + FIRST, VECTOR[0], outaxis=-1),
        ex(VECTOR[0] + FIRST, RHS[0]),
        ex(TALL[0, :2] + FIRST, RHS[0], outaxis=-1),
    ],
    "matrix_balance": [ex(GENERAL[0]), ex(GENERAL)],
    "hessenberg": [ex(GENERAL), ex(GENERAL, calc_q=True)],
    "schur": [ex(GENERAL), ex(GENERAL[0], output="complex")],
    "rsf2csf": [ex(np.triu(GENERAL), np.broadcast_to(np.eye(N), GENERAL.shape).copy())],
    "qz": [ex(GENERAL, SPD, output="complex"), ex(GENERAL, SPD)],
    "ordqz": [ex(GENERAL, SPD, output="complex", sort="ouc"), ex(GENERAL, SPD, sort="iuc")],
    "cossin": [ex(ORTHO, p=1, q=2), ex(ORTHO[0], p=2, q=1, swap_sign=True), ex(ORTHO, p=2, compute_u=False)],
    "cdf2rdf": [ex(VECTOR, GENERAL)],
    "solve_sylvester": [ex(SPD, SPD, GENERAL)],
    "solve_continuous_lyapunov": [ex(-SPD, GENERAL)],
    "solve_lyapunov": [ex(-SPD, GENERAL)],
    "fiedler_companion": [ex(VECTOR + FIRST), ex(np.c_[VECTOR + FIRST, VECTOR[:, :2]])],
    "cho_solve_banded": [
        ex((tl.cholesky_banded(SYM_BANDED), False), RHS),
        ex((tl.cholesky_banded(SYM_BANDED[0]), False), VECTOR[0]),
    ],
    "eig_banded": [ex(SYM_BANDED), ex(SYM_BANDED, select="i", select_range=(0, 1)), ex(SYM_BANDED, eigvals_only=True)],
    "eigvals_banded": [ex(SYM_BANDED)],
    "expm_cond": [ex(GENERAL[0] / 10)],
    "qr_multiply": [ex(TALL, RHS[:, :, :2].transpose(0, 2, 1)[:, :, :1].repeat(5, -1)), ex(TALL, RHS, mode="left"),
                    ex(TALL, VECTOR[0], mode="left", pivoting=True)],
    "ldl": [ex(SPD - 2 * np.eye(N)), ex(SPD, lower=False)],
    "solve_continuous_are": [ex(GENERAL, TALL[:, :N, :2], SPD, SPD[:, :2, :2])],
    "solve_discrete_are": [
        ex(GENERAL / 10, TALL[:, :N, :2], SPD, SPD[:, :2, :2]),
        ex(GENERAL / 10, TALL[:, :N, :2], SPD, SPD[:, :2, :2], e=SPD, s=TALL[:, :N, :2] / 10),
    ],
}

#: Options a Gufunc row refuses, its reason: (routine, example, the reason's words).
REFUSED = [
    ("pinv", ex(TALL, return_rank=True), "return_rank"),
    ("pinvh", ex(SPD, return_rank=True), "return_rank"),
    ("eigh", ex(SPD, subset_by_value=(0, 5)), "data-dependent"),
    ("eigh_tridiagonal", ex(VECTOR, VECTOR[:, :2], select="v", select_range=(0, 5)), "data-dependent"),
    ("eig", ex(GENERAL), "dtype depends on the data"),
    ("eig", ex(GENERAL, left=True, right=False), "dtype depends on the data"),
    ("qr", ex(TALL[0], mode="raw"), "nested"),
    ("matrix_balance", ex(GENERAL[0], separate=True), "nested"),
    ("cossin", ex(ORTHO, p=1, q=1, separate=True), "nested"),
    ("cossin", ex((ORTHO[0, :1, :1], ORTHO[0, :1, 1:], ORTHO[0, 1:, :1], ORTHO[0, 1:, 1:])), "blocks"),
    ("eig_banded", ex(SYM_BANDED, select="v", select_range=(0, 5)), "data-dependent"),
]


def _rows(kind: str) -> list[str]:
    """The rows of ``kind`` (a chunking class's name in the docs table; "batched"
    is every Gufunc row, and ``solve_circulant``'s, which moves its core axes last)."""
    return [name for name, row in ROWS.items() if row.kind == kind]


def _cases() -> list[Any]:
    return [
        pytest.param(name, args, kwargs, id=f"{name}-{i}")
        for name in _rows(BATCHED)
        for i, (args, kwargs) in enumerate(EXAMPLES.get(name, []))
    ]


def _lazy(value: Any, how: str) -> Any:
    """``value`` with its arrays as dask arrays: a batched one (leading ``B``)
    chunked along the batch axis ``how``, the others in one chunk."""
    if isinstance(value, tuple):
        return tuple(_lazy(item, how) for item in value)
    if not isinstance(value, np.ndarray):
        return value
    if value.ndim and value.shape[0] == B:
        return da.from_array(value, chunks=(CHUNKINGS[how]((B,))[0],) + (-1,) * (value.ndim - 1))
    return da.from_array(value, chunks=-1)


def _check(got: Any, want: Any) -> None:
    """``got`` (lazy, computed here) has ``want``'s structure and values within RTOL."""
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        computed = dask.compute(*got, scheduler="synchronous")
        for lazy, value, expected in zip(got, computed, want):
            assert isinstance(lazy, da.Array)
            _close(value, expected)
        return
    assert isinstance(got, da.Array), type(got)
    _close(got.compute(scheduler="synchronous"), want)


def _close(value: Any, expected: Any) -> None:
    value, expected = np.asarray(value), np.asarray(expected)
    assert value.shape == expected.shape and value.dtype == expected.dtype
    if expected.dtype == np.bool_ or expected.dtype.kind in "iu":
        np.testing.assert_array_equal(value, expected)
    else:
        scale = float(np.max(np.abs(expected), initial=1.0))
        np.testing.assert_allclose(value, expected, rtol=0, atol=RTOL * scale)


# --------------------------------------------------------------------------- the table


def test_every_linalg_routine_has_a_row() -> None:
    assert sorted(ROWS) == sorted(tl.__all__)


def test_every_gufunc_row_has_examples() -> None:
    assert [name for name in _rows(BATCHED) if not EXAMPLES.get(name)] == []
    assert sorted(set(EXAMPLES) - set(_rows(BATCHED))) == []


def test_rows_by_class() -> None:
    # the size-only constructors and the data-dependent shapes; everything else is batched
    assert sorted(_rows(NoArrays.kind)) == [
        "dft",
        "hadamard",
        "helmert",
        "hilbert",
        "invhilbert",
        "invpascal",
        "pascal",
    ]
    assert sorted(_rows(Unsupported.kind)) == [
        "clarkson_woodruff_transform",
        "fractional_matrix_power",
        "funm",
        "logm",
        "lstsq",
        "null_space",
        "orth",
        "qr_delete",
        "qr_insert",
        "qr_update",
        "signm",
        "solve_discrete_lyapunov",
        "sqrtm",
    ]
    assert _rows(Reduction.kind) == ["norm"]


# --------------------------------------------------------------------------- batched rows


@pytest.mark.parametrize("how", ["tiny", "ragged"])
@pytest.mark.parametrize(("name", "args", "kwargs"), _cases())
def test_batched_equals_eager(name: str, args: tuple, kwargs: dict, how: str) -> None:
    func = getattr(tl, name)
    want = func(*args, **kwargs)
    with no_compute():
        got = func(*_lazy(args, how), **kwargs)
    _check(got, want)


def test_batch_chunks_unified_and_broadcast() -> None:
    # batch axes chunked apart (and broadcast) are rechunked to common chunks, as blockwise does
    b = np.stack([RHS, RHS[::-1]])  # (2, B, N, 2): broadcast against a's (B,)
    with no_compute():
        got = tl.solve(_lazy(GENERAL, "tiny"), da.from_array(b, chunks=(1, (2, 2), N, 2)))
    _check(got, tl.solve(GENERAL, b))
    c, rhs = TALL[:, :2].transpose(1, 0, 2) + FIRST, RHS.transpose(2, 1, 0)  # (2, B, N), (2, N, B)
    with no_compute():
        got = tl.solve_circulant(
            da.from_array(c, chunks=(2, 1, N)), da.from_array(rhs, chunks=(1, N, (3, 1))), caxis=-1, baxis=1, outaxis=0
        )
    _check(got, tl.solve_circulant(c, rhs, caxis=-1, baxis=1, outaxis=0))


def _chunk_core(args: tuple) -> tuple[tuple, int]:
    """``args`` lazy, the first array whose last axis (a core axis in every
    row) is >= 2 long in chunks of one along it; and that axis."""
    split: list[int] = []

    def lazy(value: Any) -> Any:
        if isinstance(value, tuple):
            return tuple(lazy(item) for item in value)
        if isinstance(value, np.ndarray) and not split and value.ndim and value.shape[-1] >= 2:
            split.append(value.ndim - 1)
            return da.from_array(value, chunks=value.shape[:-1] + (1,))
        return _lazy(value, "one-chunk")

    return lazy(args), split[0]


@pytest.mark.parametrize(("name", "args", "kwargs"), _cases())
def test_chunked_core_axis_raises(name: str, args: tuple, kwargs: dict) -> None:
    lazy, axis = _chunk_core(args)
    with no_compute(), pytest.raises(ValueError, match=f"needs axis {axis} in one chunk"):
        getattr(tl, name)(*lazy, **kwargs)


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize("name", _rows(Unsupported.kind))
def test_unsupported_row_raises(name: str) -> None:
    func = getattr(tl, name)
    required = [p for p in inspect.signature(func).parameters.values() if p.default is inspect.Parameter.empty]
    lazy = [da.from_array(GENERAL[0]) for _ in required]
    with no_compute(), pytest.raises(NotImplementedError, match=re.escape(ROWS[name].reason)):
        func(*lazy)


@pytest.mark.parametrize(("name", "example", "why"), REFUSED, ids=[f"{name}-{why}" for name, _, why in REFUSED])
def test_refused_option_raises(name: str, example: tuple[tuple, dict], why: str) -> None:
    args, kwargs = example
    with no_compute(), pytest.raises(NotImplementedError, match=why):
        getattr(tl, name)(*_lazy(args, "tiny"), **kwargs)


# --------------------------------------------------------------------------- norm


VECTOR_ORDS = [None, 2, 1, 3, 0.5, np.inf, -np.inf, 0, -1, -2]
MATRIX_ORDS = [None, "fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2]
LONG = np.random.default_rng(64).standard_normal(192)


def _assert_norm(lazy: Any, expected: Any) -> None:
    assert isinstance(lazy, da.Array)
    value = np.asarray(lazy.compute(scheduler="synchronous"))
    scale = max(float(np.max(np.abs(expected), initial=0.0)), np.finfo(float).tiny)
    assert value.shape == np.shape(expected)
    np.testing.assert_allclose(value, expected, rtol=0, atol=RTOL * scale)


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=repr)
def test_vector_norm_1_to_64_chunks(ord: Any) -> None:
    expected = tl.norm(LONG, ord)
    for chunks in range(1, 65):
        x = da.from_array(LONG, chunks=(tuple(np.diff(np.linspace(0, LONG.size, chunks + 1).astype(int))),))
        assert x.numblocks == (chunks,)
        with no_compute():
            lazy = tl.norm(x, ord)
        _assert_norm(lazy, expected)


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=repr)
@pytest.mark.parametrize(("axis", "keepdims"), [(0, False), (1, True), (-1, False), (None, False)])
def test_vector_norm_over_an_axis(ord: Any, axis: Any, keepdims: bool) -> None:
    x = TALL[0] if axis is not None else TALL[0].ravel()
    expected = tl.norm(x, ord, axis=axis, keepdims=keepdims)
    for how in ("4x4", "ragged", "tiny"):
        with no_compute():
            lazy = tl.norm(da.from_array(x, chunks=CHUNKINGS[how](x.shape)), ord, axis=axis, keepdims=keepdims)
        _assert_norm(lazy, expected)


@pytest.mark.parametrize("per_axis", [1, 2, 3, 5, 8])
def test_frobenius_norm_chunked_grid(per_axis: int) -> None:
    # up to 8 x 8 = 64 chunks
    x = np.random.default_rng(per_axis).standard_normal((40, 24))
    lazy_x = da.from_array(x, chunks=(math.ceil(40 / per_axis), math.ceil(24 / per_axis)))
    assert lazy_x.numblocks == (per_axis, per_axis)
    for ord, axis in [(None, None), ("fro", None), ("fro", (0, 1)), (None, (1, 0))]:
        with no_compute():
            lazy = tl.norm(lazy_x, ord, axis=axis)
        _assert_norm(lazy, tl.norm(x, ord, axis=axis))


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=repr)
def test_matrix_norm_over_transposed_axes(ord: Any) -> None:
    expected = tl.norm(TALL, ord, axis=(2, 1))
    with no_compute():
        lazy = tl.norm(_lazy(TALL, "ragged"), ord, axis=(2, 1))
    _assert_norm(lazy, expected)


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=repr)
@pytest.mark.parametrize("axis", [(1, 2), (-2, -1)])
def test_matrix_norm_over_stacked_matrices(ord: Any, axis: tuple[int, int]) -> None:
    expected = tl.norm(TALL, ord, axis=axis)
    with no_compute():
        lazy = tl.norm(_lazy(TALL, "ragged"), ord, axis=axis)
    _assert_norm(lazy, expected)


@pytest.mark.parametrize("ord", [o for o in MATRIX_ORDS if o not in (None, "fro")], ids=repr)
def test_matrix_norm_on_a_chunked_matrix_raises(ord: Any) -> None:
    x = da.from_array(TALL[0], chunks=(2, N))
    with no_compute(), pytest.raises(ValueError, match="needs axis 0 in one chunk"):
        tl.norm(x, ord)
