//! The positional helpers behind the seams of `torchbridge.linalg` whose
//! Python functions are not yet compiled ones: they import the arrays, call
//! `ops::linalg`, and return the caller's array type; their Python callers
//! (`python/torchbridge/linalg/_*.py`) hold SciPy's signatures.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use tch::Tensor;

use super::super::container::{compute, import_all, wrap, wrap_tuple as wrap_all, Library};
use super::{import1, import2, min_rcond};
use crate::ops::linalg::{self as ops, CheckFinite, NormOrder, Structure, Trans};

/// Runs `work` (GIL released for large inputs), mapping its errors.
fn run<T: Send>(py: Python<'_>, elements: usize, work: impl FnOnce() -> crate::Result<T> + Send) -> PyResult<T> {
    Ok(compute(py, elements, work)?)
}

fn tuple(py: Python<'_>, items: Vec<Py<PyAny>>) -> PyResult<Py<PyAny>> {
    Ok(PyTuple::new(py, items)?.into_any().unbind())
}

// ---------------------------------------------------------------------------
// Solvers
// ---------------------------------------------------------------------------

/// `solve`: returns `(x, min rcond)`.
#[pyfunction]
fn solve(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    lower: bool,
    assume_a: Option<String>,
    transposed: bool,
    check_finite: bool,
) -> PyResult<(Py<PyAny>, f64)> {
    let structure = Structure::from_scipy(assume_a.as_deref()).map_err(PyErr::from)?;
    let (a, b, library) = import2(a, b)?;
    let n = a.numel() + b.numel();
    let (x, rcond) = run(py, n, move || {
        let solved = ops::solve(
            &a,
            &b,
            &ops::SolveOptions {
                lower,
                assume_a: structure,
                transposed,
                check_finite: CheckFinite::from_flag(check_finite),
            },
        )?;
        let rcond = min_rcond(&solved.rcond)?;
        Ok((solved.x, rcond))
    })?;
    Ok((wrap(py, &library, x, false)?, rcond))
}

/// `inv`: returns `(inverse, min rcond)`.
#[pyfunction]
fn inv(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    assume_a: Option<String>,
    lower: bool,
    check_finite: bool,
) -> PyResult<(Py<PyAny>, f64)> {
    let structure = Structure::from_scipy(assume_a.as_deref()).map_err(PyErr::from)?;
    let (a, library) = import1(a)?;
    let (x, rcond) = run(py, a.numel(), move || {
        let solved = ops::inv(
            &a,
            &ops::InvOptions { assume_a: structure, lower, check_finite: CheckFinite::from_flag(check_finite) },
        )?;
        let rcond = min_rcond(&solved.rcond)?;
        Ok((solved.x, rcond))
    })?;
    Ok((wrap(py, &library, x, false)?, rcond))
}

#[pyfunction]
fn solve_triangular(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    trans: i64,
    lower: bool,
    unit_diagonal: bool,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (a, b, library) = import2(a, b)?;
    let options = ops::SolveTriangularOptions {
        trans: Trans::from_code(trans)?,
        lower,
        unit_diagonal,
        check_finite: CheckFinite::from_flag(check_finite),
    };
    let x = run(py, a.numel() + b.numel(), move || ops::solve_triangular(&a, &b, &options))?;
    wrap(py, &library, x, false)
}

#[pyfunction]
fn det(py: Python<'_>, a: &Bound<'_, PyAny>, check_finite: bool) -> PyResult<Py<PyAny>> {
    let (a, library) = import1(a)?;
    let d = run(py, a.numel(), move || ops::det(&a, CheckFinite::from_flag(check_finite)))?;
    wrap(py, &library, d, true)
}

// ---------------------------------------------------------------------------
// Eigenvalue problems and SVD
// ---------------------------------------------------------------------------

/// `pinv`: returns `(B, rank)` (rank a 0-d numpy scalar for one matrix).
#[pyfunction]
fn pinv(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    atol: Option<f64>,
    rtol: Option<f64>,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (a, library) = import1(a)?;
    let ops::Pinv { b, rank } = run(py, a.numel(), move || {
        ops::pinv(&a, &ops::PinvOptions { atol, rtol, check_finite: CheckFinite::from_flag(check_finite) })
    })?;
    tuple(py, vec![wrap(py, &library, b, false)?, wrap(py, &library, rank, true)?])
}

#[pyfunction]
fn pinvh(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    atol: Option<f64>,
    rtol: Option<f64>,
    lower: bool,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (a, library) = import1(a)?;
    let ops::Pinv { b, rank } = run(py, a.numel(), move || {
        ops::pinvh(&a, &ops::PinvhOptions { atol, rtol, lower, check_finite: CheckFinite::from_flag(check_finite) })
    })?;
    tuple(py, vec![wrap(py, &library, b, false)?, wrap(py, &library, rank, true)?])
}

// ---------------------------------------------------------------------------
// Factorizations
// ---------------------------------------------------------------------------

/// `lstsq`: `(x, residues, rank array, s or None)`.
#[pyfunction]
fn lstsq(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    cond: Option<f64>,
    driver: String,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (a, b, library) = import2(a, b)?;
    let result = run(py, a.numel() + b.numel(), move || {
        ops::lstsq(
            &a,
            &b,
            &ops::LstsqOptions {
                cond,
                lapack_driver: driver.parse()?,
                check_finite: CheckFinite::from_flag(check_finite),
            },
        )
    })?;
    let s = match result.s {
        Some(s) => wrap(py, &library, s, false)?,
        None => py.None(),
    };
    tuple(
        py,
        vec![
            wrap(py, &library, result.x, false)?,
            wrap(py, &library, result.residues, true)?,
            wrap(py, &library, result.rank, false)?,
            s,
        ],
    )
}

// ---------------------------------------------------------------------------
// Norms and matrix functions
// ---------------------------------------------------------------------------

/// `norm`: `ord_kind` is `"default"`, `"fro"`, `"nuc"` or `"p"` (with `p`).
#[pyfunction]
fn norm(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    ord_kind: &str,
    p: f64,
    axis: Option<Vec<i64>>,
    keepdims: bool,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let ord = match ord_kind {
        "default" => NormOrder::Default,
        "fro" => NormOrder::Fro,
        "nuc" => NormOrder::Nuc,
        _ => NormOrder::P(p),
    };
    let (a, library) = import1(a)?;
    let r = run(py, a.numel(), move || {
        ops::norm(&a, &ops::NormOptions { ord, axis, keepdims, check_finite: CheckFinite::from_flag(check_finite) })
    })?;
    wrap(py, &library, r, true)
}

// ---------------------------------------------------------------------------
// More special matrices, structure tests, banded and structured solvers
// ---------------------------------------------------------------------------

#[pyfunction]
fn solve_banded(
    py: Python<'_>,
    l: i64,
    u: i64,
    ab: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (ab, b, library) = import2(ab, b)?;
    let x = run(py, ab.numel() + b.numel(), move || {
        ops::solve_banded((l, u), &ab, &b, CheckFinite::from_flag(check_finite))
    })?;
    wrap(py, &library, x, false)
}

#[pyfunction]
fn solveh_banded(
    py: Python<'_>,
    ab: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    lower: bool,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (ab, b, library) = import2(ab, b)?;
    let x = run(py, ab.numel() + b.numel(), move || {
        ops::solveh_banded(
            &ab,
            &b,
            &ops::SolvehBandedOptions { lower, check_finite: CheckFinite::from_flag(check_finite) },
        )
    })?;
    wrap(py, &library, x, false)
}

/// Imports `(c, r or None, b)`; `r` defaults to `conj(c)` (SciPy's default).
fn import_toeplitz(
    c: &Bound<'_, PyAny>,
    r: Option<&Bound<'_, PyAny>>,
    b: &Bound<'_, PyAny>,
) -> PyResult<(Tensor, Tensor, Tensor, Library)> {
    match r.filter(|r| !r.is_none()) {
        Some(r) => {
            let (mut t, library) = import_all(&[c, r, b])?;
            let (b, r, c) = (t.remove(2), t.remove(1), t.remove(0));
            Ok((c, r, b, library))
        }
        None => {
            let (c, b, library) = import2(c, b)?;
            let r = c.f_conj().and_then(|r| r.f_resolve_conj()).map_err(|e| PyErr::from(crate::Error::from(e)))?;
            Ok((c, r, b, library))
        }
    }
}

#[pyfunction]
fn solve_toeplitz(
    py: Python<'_>,
    c: &Bound<'_, PyAny>,
    r: Option<&Bound<'_, PyAny>>,
    b: &Bound<'_, PyAny>,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (c, r, b, library) = import_toeplitz(c, r, b)?;
    let x = run(py, c.numel() * r.numel() + b.numel(), move || {
        ops::solve_toeplitz(&c, &r, &b, CheckFinite::from_flag(check_finite))
    })?;
    wrap(py, &library, x, false)
}

#[pyfunction]
fn matmul_toeplitz(
    py: Python<'_>,
    c: &Bound<'_, PyAny>,
    r: Option<&Bound<'_, PyAny>>,
    x: &Bound<'_, PyAny>,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (c, r, x, library) = import_toeplitz(c, r, x)?;
    let y = run(py, c.numel() + r.numel() + x.numel(), move || {
        ops::matmul_toeplitz(&c, &r, &x, CheckFinite::from_flag(check_finite))
    })?;
    wrap(py, &library, y, false)
}

#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn solve_circulant(
    py: Python<'_>,
    c: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    least_squares: bool,
    tol: Option<f64>,
    caxis: i64,
    baxis: i64,
    outaxis: i64,
) -> PyResult<Py<PyAny>> {
    let (c, b, library) = import2(c, b)?;
    let x = run(py, c.numel() + b.numel(), move || {
        ops::solve_circulant(
            &c,
            &b,
            &ops::SolveCirculantOptions {
                singular: if least_squares { ops::Singular::Lstsq } else { ops::Singular::Raise },
                tol,
                caxis,
                baxis,
                outaxis,
            },
        )
    })?;
    wrap(py, &library, x, false)
}

/// `matrix_balance`: `(B, T, scaling, perm)`.
#[pyfunction]
fn matrix_balance(py: Python<'_>, a: &Bound<'_, PyAny>, permute: bool, scale: bool) -> PyResult<Py<PyAny>> {
    let (a, library) = import1(a)?;
    let r = run(py, a.numel(), move || ops::matrix_balance(&a, &ops::BalanceOptions { permute, scale }))?;
    wrap_all(py, &library, vec![r.b, r.t, r.scaling, r.perm])
}

/// Adds these helpers to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(inv, module)?)?;
    module.add_function(wrap_pyfunction!(solve_triangular, module)?)?;
    module.add_function(wrap_pyfunction!(det, module)?)?;
    module.add_function(wrap_pyfunction!(pinv, module)?)?;
    module.add_function(wrap_pyfunction!(pinvh, module)?)?;
    module.add_function(wrap_pyfunction!(lstsq, module)?)?;
    module.add_function(wrap_pyfunction!(norm, module)?)?;
    module.add_function(wrap_pyfunction!(solve_banded, module)?)?;
    module.add_function(wrap_pyfunction!(solveh_banded, module)?)?;
    module.add_function(wrap_pyfunction!(solve_toeplitz, module)?)?;
    module.add_function(wrap_pyfunction!(matmul_toeplitz, module)?)?;
    module.add_function(wrap_pyfunction!(solve_circulant, module)?)?;
    module.add_function(wrap_pyfunction!(matrix_balance, module)?)?;
    Ok(())
}
