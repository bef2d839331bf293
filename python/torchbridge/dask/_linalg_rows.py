"""The chunking table's ``linalg`` rows (see :mod:`._table`).

Every routine SciPy 1.17 batches over stacked matrices (its
``_apply_over_batch``, or native batching as ``inv``, ``det``, ``expm``) is a
:class:`Gufunc` row with its core signature; options that change the output
structure (``compute_uv``, ``eigvals_only``, ``mode``, ...) choose the
signature per call; ``solve_circulant`` batches by its own axis arguments. A
routine whose whole input is one problem (``hankel``: SciPy 1.17 ravels it)
is a gufunc whose every axis is core: one task, its inputs each in one chunk. Routines whose output shapes
or dtypes depend on the data (a numerical rank, eigenvalues in an interval,
``eig``'s real-or-complex eigenvectors) are :class:`Unsupported` (whole rows,
or the options that do it), as are outputs that are not arrays per matrix
(``return_rank=True``, nested tuples). Each task is the eager routine on its
blocks, so a result equals the eager one on the whole stack.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UnsupportedParameterError
from . import _reductions
from ._chunking import (
    Chunking,
    Gufunc,
    NoArrays,
    Reduction,
    Unsupported,
    _as_dask,
    _eye,
    _normalize_axis,
    _single_chunk,
)
from ._route import Call

Shapes = dict[str, tuple[int, ...]]
Signature = tuple[str, dict[str, int]]


def _refuse(call: Call, what: str) -> UnsupportedParameterError:
    return UnsupportedParameterError(f"{call.name} on dask arrays: {what}")


def _sized(signature: str, sizes: Callable[[Call, Shapes], dict[str, int]]) -> Callable[[Call, Shapes], Signature]:
    """A signature that no option changes, its output-only dims sized by ``sizes``."""

    def sized(call: Call, shapes: Shapes) -> Signature:
        return signature, sizes(call, shapes)

    return sized


def _fixed(signature: str) -> Callable[[Call, Shapes], Signature]:
    """A signature that no option changes, without output-only dims."""
    return _sized(signature, lambda call, shapes: {})


def _min_k(shape: tuple[int, ...]) -> dict[str, int]:
    """``k = min(m, n)`` of a matrix's core ``(m, n)``."""
    return {"k": min(shape[-2:])}


def _min_k_of_a(call: Call, shapes: Shapes) -> dict[str, int]:
    return _min_k(shapes["a"])


def _cores(shapes: Shapes, core: str) -> str:
    """``core`` for every array present (``eigh``'s optional ``b``)."""
    return ",".join(core for _ in shapes)


def _with_rhs(shapes: Shapes, cores: list[str], name: str, rows: str = "m") -> str:
    """``cores``, then the right-hand side ``name`` with ``rows`` rows -> the
    solution (``m`` rows): a vector where it is 1-d, else (stacked) matrices,
    as SciPy's ``_apply_over_batch`` reads ``'1|2'``."""
    rhs = f"({rows})" if len(shapes[name]) == 1 else f"({rows},k)"
    return f"{','.join(cores)},{rhs}->{rhs.replace(rows, 'm', 1)}"


def _solver(*lhs: str) -> Callable[[Call, Shapes], Signature]:
    """``lhs`` cores, then ``b`` -> the solution."""

    def solver(call: Call, shapes: Shapes) -> Signature:
        return _with_rhs(shapes, list(lhs), "b"), {}

    return solver


def _dtype(call: Call, name: str) -> np.dtype:
    return np.dtype(getattr(call.get(name), "dtype", np.float64))


# --------------------------------------------------------------------------- signatures by option


def _eigh(call: Call, shapes: Shapes) -> Signature:
    if call.get("subset_by_value") is not None:
        raise _refuse(call, "subset_by_value= gives as many eigenvalues as lie in the interval (data-dependent)")
    subset = call.get("subset_by_index")
    sizes = {} if subset is None else {"e": int(subset[1]) - int(subset[0]) + 1}
    k = "m" if subset is None else "e"
    only = call.name.endswith("eigvalsh") or call.get("eigvals_only")
    return f"{_cores(shapes, '(m,m)')}->" + (f"({k})" if only else f"({k}),(m,{k})"), sizes


def _eigh_probe(call: Call, shapes: Shapes) -> dict[str, object]:
    """A subset of the probe's two eigenpairs (the caller's may need a bigger matrix)."""
    return {} if call.get("subset_by_index") is None else {"subset_by_index": [0, 0]}


def _eig(call: Call, shapes: Shapes) -> Signature:
    if call.name.endswith(".eig") and (call.get("left") or call.get("right")):
        raise _refuse(
            call,
            "the eigenvectors' dtype depends on the data (real when every eigenvalue is real, else complex), "
            "so no chunk's dtype is known before computing; eigvals (or eig with right=False) is batched",
        )
    return f"{_cores(shapes, '(m,m)')}->" + ("(h,m)" if call.get("homogeneous_eigvals") else "(m)"), {"h": 2}


def _svd(call: Call, shapes: Shapes) -> Signature:
    if not call.get("compute_uv"):
        outputs = "(k)"
    else:
        outputs = "(m,m),(k),(n,n)" if call.get("full_matrices") else "(m,k),(k),(k,n)"
    return f"(m,n)->{outputs}", _min_k_of_a(call, shapes)


def _lu(call: Call, shapes: Shapes) -> Signature:
    p = "(m)" if call.get("p_indices") else "(m,m)"
    outputs = "(m,k),(k,n)" if call.get("permute_l") else f"{p},(m,k),(k,n)"
    return f"(m,n)->{outputs}", _min_k_of_a(call, shapes)


def _qr(call: Call, shapes: Shapes) -> Signature:
    mode = call.get("mode")
    if mode == "raw":
        raise _refuse(call, "mode='raw' returns nested tuples ((Q, tau), R), not arrays per matrix")
    q, r = ("(m,k)", "(k,n)") if mode == "economic" else ("(m,m)", "(m,n)")
    outputs = ([r] if mode == "r" else [q, r]) + ["(n)"] * bool(call.get("pivoting"))
    return f"(m,n)->{','.join(outputs)}", _min_k_of_a(call, shapes)


def _rq(call: Call, shapes: Shapes) -> Signature:
    mode = call.get("mode")
    r, q = ("(m,k)", "(k,n)") if mode == "economic" else ("(m,n)", "(n,n)")
    return f"(m,n)->{r if mode == 'r' else f'{r},{q}'}", _min_k_of_a(call, shapes)


def _no_rank(signature: str) -> Callable[[Call, Shapes], Signature]:
    """``signature`` unless ``return_rank=True`` (a Python int per matrix)."""

    def no_rank(call: Call, shapes: Shapes) -> Signature:
        if call.get("return_rank"):
            raise _refuse(call, "return_rank=True returns the rank as a Python int (per matrix), not an array")
        return signature, {}

    return no_rank


def _polar(call: Call, shapes: Shapes) -> Signature:
    return ("(m,n)->(m,n),(m,m)" if call.get("side") == "left" else "(m,n)->(m,n),(n,n)"), {}


def _cossin(call: Call, shapes: Shapes) -> Signature:
    if call.get("separate"):
        raise _refuse(call, "separate=True returns nested tuples ((u1, u2), theta, (v1h, v2h)), not arrays per matrix")
    if not (call.get("p") or call.get("q")):
        raise _refuse(call, "X given as its four blocks (p and q omitted); pass the whole X with p and q")
    u = "(m,m)" if call.get("compute_u") else "(e,e)"
    vh = "(m,m)" if call.get("compute_vh") else "(e,e)"
    return f"(m,m)->{u},(m,m),{vh}", {"e": 0}


def _expm_frechet(call: Call, shapes: Shapes) -> Signature:
    return ("(m,m),(m,m)->(m,m),(m,m)" if call.get("compute_expm") else "(m,m),(m,m)->(m,m)"), {}


def _matrix_balance(call: Call, shapes: Shapes) -> Signature:
    if call.get("separate"):
        raise _refuse(call, "separate=True returns nested tuples (B, (scale, perm)), not arrays per matrix")
    return "(m,m)->(m,m),(m,m)", {}


def _hessenberg(call: Call, shapes: Shapes) -> Signature:
    return ("(m,m)->(m,m),(m,m)" if call.get("calc_q") else "(m,m)->(m,m)"), {}


def _schur(call: Call, shapes: Shapes) -> Signature:
    return ("(m,m)->(m,m),(m,m)" + (",()" if call.get("sort") is not None else "")), {}


def _cho_solve(call: Call, shapes: Shapes) -> Signature:
    # ``lower`` is an array where it came from a batched cho_factor, else an option
    return _with_rhs(shapes, ["(m,m)"] + ["()"] * ("c_and_lower.1" in shapes), "b"), {}


def _toeplitz_solve(call: Call, shapes: Shapes) -> Signature:
    return _with_rhs(shapes, ["(m)"] * (1 + ("c_or_cr.1" in shapes)), "b"), {}


def _matmul_toeplitz(call: Call, shapes: Shapes) -> Signature:
    if "c_or_cr.1" not in shapes:
        return _with_rhs(shapes, ["(m)"], "x"), {}
    return _with_rhs(shapes, ["(m)", "(n)"], "x", rows="n"), {}


def _toeplitz(call: Call, shapes: Shapes) -> Signature:
    return ("(m),(n)->(m,n)" if "r" in shapes else "(m)->(m,m)"), {}


def _block_diag(call: Call, shapes: Shapes) -> Signature:
    # each item's core: its last two axes (a 1-d item is one row, a scalar one element)
    cores, rows, cols = [], 0, 0
    for i, item in enumerate(call.get("arrs")):
        core = shapes.get(f"arrs.{i}", np.shape(item))[-2:]
        if f"arrs.{i}" in shapes:
            cores.append("(" + ",".join(f"{axis}{i}" for axis in "rc"[2 - len(core) :]) + ")")
        rows, cols = rows + (core[0] if len(core) == 2 else 1), cols + (core[-1] if core else 1)
    return f"{','.join(cores)}->(p,q)", {"p": rows, "q": cols}


def _convolution_matrix(call: Call, shapes: Shapes) -> Signature:
    m, n, mode = shapes["a"][-1], int(call.get("n")), call.get("mode")
    rows = {"full": m + n - 1, "same": max(m, n), "valid": max(m, n) - min(m, n) + 1}.get(mode, m + n - 1)
    return "(m)->(p,q)", {"p": rows, "q": n}


def _selected_eigen(call: Call, inputs: str, values_only: str) -> Signature:
    """The signature of an eigensolver with SciPy's ``select``/``select_range`` (``inputs``: its core
    input dimensions; ``values_only``: the name of its eigenvalues-only twin)."""
    select = str(call.get("select")).lower()
    if select in ("v", "value"):
        raise _refuse(call, "select='v' gives as many eigenvalues as lie in the interval (data-dependent)")
    sizes = {}
    if select in ("i", "index"):
        low, high = call.get("select_range")
        sizes = {"e": int(high) - int(low) + 1}
    k = "e" if sizes else "m"
    only = call.name.endswith(values_only) or call.get("eigvals_only")
    return f"{inputs}->({k})" + ("" if only else f",(m,{k})"), sizes


def _tridiagonal(call: Call, shapes: Shapes) -> Signature:
    return _selected_eigen(call, "(m),(n)", "eigvalsh_tridiagonal")


def _shorter(name: str, like: str) -> Callable[[Call, Shapes], dict[str, object]]:
    """A probe for ``name`` one shorter than ``like``'s (``leslie``'s ``s``, a tridiagonal's ``e``)."""

    def shorter(call: Call, shapes: Shapes) -> dict[str, object]:
        values: dict[str, object] = {name: _eye(shapes[name][:-1] + (shapes[like][-1] - 1,), _dtype(call, name))}
        if call.name.endswith("tridiagonal"):  # every eigenpair of the probe
            values.update(select="a", select_range=None)
        return values

    return shorter


def _band_probe(call: Call, shapes: Shapes) -> dict[str, object]:
    """An identity in banded layout: its diagonal row ones (``solve_banded``'s
    row ``u`` of ``l + u + 1``; one row for the symmetric routines)."""
    batch, n = shapes["ab"][:-2], shapes["ab"][-1]
    lower_upper = call.get("l_and_u")
    rows, diagonal = (1, 0) if lower_upper is None else (int(lower_upper[0]) + int(lower_upper[1]) + 1, lower_upper[1])
    ab = np.zeros(batch + (rows, n), dtype=_dtype(call, "ab"))
    ab[..., diagonal, :] = 1
    return {"ab": ab}


def _eig_banded(call: Call, shapes: Shapes) -> Signature:
    return _selected_eigen(call, "(r,m)", "eigvals_banded")


def _eig_banded_probe(call: Call, shapes: Shapes) -> dict[str, object]:
    """An identity's band (its diagonal alone), with every eigenpair of it asked for."""
    batch, n = shapes["a_band"][:-2], shapes["a_band"][-1]
    return {"a_band": np.ones(batch + (1, n), dtype=_dtype(call, "a_band")), "select": "a", "select_range": None}


def _cho_solve_banded(call: Call, shapes: Shapes) -> Signature:
    return _with_rhs(shapes, ["(r,m)"] + ["()"] * ("cb_and_lower.1" in shapes), "b"), {}


def _cho_banded_probe(call: Call, shapes: Shapes) -> dict[str, object]:
    """A factor of ones in band storage: a nonsingular triangular factor."""
    return {"cb_and_lower.0": np.ones(shapes["cb_and_lower.0"], dtype=_dtype(call, "cb_and_lower.0"))}


def _qr_multiply(call: Call, shapes: Shapes) -> Signature:
    left = call.get("mode") == "left"
    a = shapes["a"]
    if left and call.get("overwrite_c") and a[-2] > a[-1]:
        raise _refuse(call, "overwrite_c=True with mode='left' multiplies by the full Q (SciPy's legacy shapes)")
    vector = len(shapes["c"]) == 1
    if left:
        c, cq = ("(k)", "(m)") if vector else ("(k,q)", "(m,q)")
    else:
        c, cq = ("(m)", "(k)") if vector else ("(p,m)", "(p,k)")
    outputs = [cq, "(k,n)"] + ["(n)"] * bool(call.get("pivoting"))
    return f"(m,n),{c}->{','.join(outputs)}", ({} if left else _min_k(a))


def _qr_multiply_probe(call: Call, shapes: Shapes) -> dict[str, object]:
    """``c`` with as many rows as the probe's ``Q`` has columns (``mode='left'``)."""
    if call.get("mode") != "left":
        return {}
    a, c = shapes["a"], shapes["c"]
    k = min(a[-2:])
    return {"c": np.ones(c[:-2] + (k, c[-1]) if len(c) > 1 else (k,), dtype=_dtype(call, "c"))}


def _riccati(call: Call, shapes: Shapes) -> Signature:
    cores = ["(m,m)", "(m,n)", "(m,m)", "(n,n)"] + ["(m,m)"] * ("e" in shapes) + ["(m,n)"] * ("s" in shapes)
    return f"{','.join(cores)}->(m,m)", {}


# --------------------------------------------------------------------------- whole-problem routines


def _whole(shapes: Shapes, out: tuple[int, ...]) -> Signature:
    """Every axis of every array core (one task), to an output of shape ``out``."""
    cores = ["(" + ",".join(f"a{i}_{j}" for j in range(len(shape))) + ")" for i, shape in enumerate(shapes.values())]
    return f"{','.join(cores)}->(" + ",".join(f"o{j}" for j in range(len(out))) + ")", {
        f"o{j}": n for j, n in enumerate(out)
    }


def _hankel(call: Call, shapes: Shapes) -> Signature:
    # SciPy 1.17 ravels multidimensional c and r (batching them from 1.19 on)
    rows = math.prod(shapes["c"])
    return _whole(shapes, (rows, math.prod(shapes["r"]) if "r" in shapes else rows))


@dataclass(frozen=True)
class _CoreAxesLast:
    """``solve_circulant``, batched by its own axis arguments (``caxis``,
    ``baxis``, ``outaxis``) rather than ``_apply_over_batch``: the core axes
    moved last, the stacks batched as the other gufunc rows, the solutions'
    axis moved to ``outaxis``."""

    kind: str = "batched"

    def build(self, call: Call) -> Any:
        import dask.array as da

        moved = {}
        for name in ("c", "b"):
            x = da.atleast_1d(_as_dask(call, name, call.get(name)))
            axis = _normalize_axis(call, int(call.get(name[0] + "axis")), x.ndim)
            _single_chunk(call, x, [axis], "the core dimension of one circulant system")
            moved[name] = da.moveaxis(x, axis, -1)
        args, kwargs = call.replaced(**moved, caxis=-1, baxis=-1, outaxis=-1)
        solved = Gufunc(("c", "b"), _fixed("(n),(n)->(n)")).build(Call(call.name, call.func, args, kwargs))
        return da.moveaxis(solved, -1, int(call.get("outaxis")))


def _square_probe(call: Call, shapes: Shapes) -> dict[str, object]:
    """``diagsvd``'s ``M`` and ``N`` fitted to the probe's ``s``."""
    return {"M": shapes["s"][-1], "N": shapes["s"][-1]}


_MATRIX = _fixed("(m,m)->(m,m)")
_DATA_RANK = "the number of columns is each matrix's numerical rank, known only once computed"
_DATA_DTYPE = (
    "the result's dtype depends on the data (real, or complex where an eigenvalue calls for it), so no chunk's "
    "dtype is known before computing"
)

ROWS: dict[str, Chunking] = {
    "solve": Gufunc(("a", "b"), _solver("(m,m)")),
    "solve_triangular": Gufunc(("a", "b"), _solver("(m,m)")),
    "inv": Gufunc(("a",), _MATRIX),
    "det": Gufunc(("a",), _fixed("(m,m)->()")),
    "eigh": Gufunc(("a", "b"), _eigh, _eigh_probe),
    "eigvalsh": Gufunc(("a", "b"), _eigh, _eigh_probe),
    "eig": Gufunc(("a", "b"), _eig),
    "eigvals": Gufunc(("a", "b"), _eig),
    "svd": Gufunc(("a",), _svd),
    "svdvals": Gufunc(("a",), _sized("(m,n)->(k)", _min_k_of_a)),
    "cholesky": Gufunc(("a",), _MATRIX),
    "cho_factor": Gufunc(("a",), _fixed("(m,m)->(m,m),()")),
    "cho_solve": Gufunc(("c_and_lower.0", "c_and_lower.1", "b"), _cho_solve),
    "lu": Gufunc(("a",), _lu),
    "lu_factor": Gufunc(("a",), _sized("(m,n)->(m,n),(k)", _min_k_of_a)),
    "lu_solve": Gufunc(("lu_and_piv.0", "lu_and_piv.1", "b"), _solver("(m,m)", "(m)")),
    "qr": Gufunc(("a",), _qr),
    "rq": Gufunc(("a",), _rq),
    "lstsq": Unsupported(
        "the residues' length depends on each matrix's rank (empty when rank-deficient) and the rank is a "
        "Python int per matrix: data-dependent shapes"
    ),
    "pinv": Gufunc(("a",), _no_rank("(m,n)->(n,m)")),
    "pinvh": Gufunc(("a",), _no_rank("(m,m)->(m,m)")),
    "norm": Reduction(_reductions.norm),
    **{name: Gufunc(("A",), _MATRIX) for name in ("expm", "cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm")},
    "expm_frechet": Gufunc(("A", "E"), _expm_frechet),
    "null_space": Unsupported(_DATA_RANK),
    "orth": Unsupported(_DATA_RANK),
    "polar": Gufunc(("a",), _polar),
    "subspace_angles": Gufunc(
        ("A", "B"), _sized("(m,p),(m,q)->(k)", lambda call, shapes: {"k": min(shapes["A"][-1], shapes["B"][-1])})
    ),
    "orthogonal_procrustes": Gufunc(("A", "B"), _fixed("(m,n),(m,n)->(n,n),()")),
    "block_diag": Gufunc(("arrs.*",), _block_diag),
    "toeplitz": Gufunc(("c", "r"), _toeplitz),
    "circulant": Gufunc(("c",), _fixed("(m)->(m,m)")),
    "hankel": Gufunc(("c", "r"), _hankel),
    "khatri_rao": Gufunc(
        ("a", "b"), _sized("(m,n),(p,n)->(q,n)", lambda call, shapes: {"q": shapes["a"][-2] * shapes["b"][-2]})
    ),
    "companion": Gufunc(("a",), _sized("(m)->(k,k)", lambda call, shapes: {"k": shapes["a"][-1] - 1})),
    "fiedler": Gufunc(("a",), _fixed("(m)->(m,m)")),
    "leslie": Gufunc(("f", "s"), _fixed("(m),(n)->(m,m)"), _shorter("s", "f")),
    "diagsvd": Gufunc(
        ("s",),
        _sized("(k)->(p,q)", lambda call, shapes: {"p": int(call.get("M")), "q": int(call.get("N"))}),
        _square_probe,
    ),
    "convolution_matrix": Gufunc(("a",), _convolution_matrix),
    **{name: NoArrays() for name in ("hilbert", "invhilbert", "helmert", "dft", "hadamard", "pascal", "invpascal")},
    "bandwidth": Gufunc(("a",), _fixed("(m,n)->(),()")),
    "issymmetric": Gufunc(("a",), _fixed("(m,m)->()")),
    "ishermitian": Gufunc(("a",), _fixed("(m,m)->()")),
    "solve_banded": Gufunc(("ab", "b"), _solver("(r,m)"), _band_probe),
    "solveh_banded": Gufunc(("ab", "b"), _solver("(r,m)"), _band_probe),
    "cholesky_banded": Gufunc(("ab",), _fixed("(r,m)->(r,m)"), _band_probe),
    "eigh_tridiagonal": Gufunc(("d", "e"), _tridiagonal, _shorter("e", "d")),
    "eigvalsh_tridiagonal": Gufunc(("d", "e"), _tridiagonal, _shorter("e", "d")),
    "solve_toeplitz": Gufunc(("c_or_cr.0", "c_or_cr.1", "b"), _toeplitz_solve),
    "matmul_toeplitz": Gufunc(("c_or_cr.0", "c_or_cr.1", "x"), _matmul_toeplitz),
    "solve_circulant": _CoreAxesLast(),
    "matrix_balance": Gufunc(("A",), _matrix_balance),
    "hessenberg": Gufunc(("a",), _hessenberg),
    "schur": Gufunc(("a",), _schur),
    "rsf2csf": Gufunc(("T", "Z"), _fixed("(m,m),(m,m)->(m,m),(m,m)")),
    "qz": Gufunc(("A", "B"), _fixed("(m,m),(m,m)->(m,m),(m,m),(m,m),(m,m)")),
    "cossin": Gufunc(("X.0", "X.1", "X.2", "X.3"), _cossin),
    "ordqz": Gufunc(("A", "B"), _fixed("(m,m),(m,m)->(m,m),(m,m),(m),(m),(m,m),(m,m)")),
    "cdf2rdf": Gufunc(("w", "v"), _fixed("(m),(m,m)->(m,m),(m,m)")),
    **{name: Unsupported(_DATA_DTYPE) for name in ("sqrtm", "logm", "signm", "fractional_matrix_power")},
    "funm": Unsupported(_DATA_DTYPE + "; and func is called once per matrix"),
    "solve_sylvester": Gufunc(("a", "b", "q"), _fixed("(m,m),(n,n),(m,n)->(m,n)")),
    "solve_continuous_lyapunov": Gufunc(("a", "q"), _fixed("(m,m),(m,m)->(m,m)")),
    "solve_lyapunov": Gufunc(("a", "q"), _fixed("(m,m),(m,m)->(m,m)")),
    "fiedler_companion": Gufunc(("a",), _sized("(m)->(k,k)", lambda call, shapes: {"k": shapes["a"][-1] - 1})),
    "cho_solve_banded": Gufunc(("cb_and_lower.0", "cb_and_lower.1", "b"), _cho_solve_banded, _cho_banded_probe),
    "eig_banded": Gufunc(("a_band",), _eig_banded, _eig_banded_probe),
    "eigvals_banded": Gufunc(("a_band",), _eig_banded, _eig_banded_probe),
    "expm_cond": Gufunc(("A",), _fixed("(m,m)->()")),
    "qr_multiply": Gufunc(("a", "c"), _qr_multiply, _qr_multiply_probe),
    "clarkson_woodruff_transform": Unsupported(
        "the sketch is random: each chunk would draw its own sketch matrix from the generator (SciPy draws one "
        "for the whole stack); compute the array first"
    ),
    "ldl": Gufunc(("A",), _fixed("(m,m)->(m,m),(m,m),(m)")),
    **{
        name: Unsupported(
            f"{name} takes one 2-D factorization (SciPy's QR updates have no batches); compute the arrays first"
        )
        for name in ("qr_update", "qr_insert", "qr_delete")
    },
    "solve_continuous_are": Gufunc(("a", "b", "q", "r", "e", "s"), _riccati),
    "solve_discrete_are": Gufunc(("a", "b", "q", "r", "e", "s"), _riccati),
    "solve_discrete_lyapunov": Unsupported(
        "solve_discrete_lyapunov on dask arrays is not implemented yet (its chunked batches "
        "raised a singular-matrix error the eager call does not); compute the array first"
    ),
}
