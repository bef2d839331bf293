//! The positional helpers behind the seams of `torchbridge.linalg` whose
//! Python functions are not yet compiled ones: they import the arrays, call
//! `ops::linalg`, and return the caller's array type; their Python callers
//! (`python/torchbridge/linalg/_*.py`) hold SciPy's signatures.

use pyo3::prelude::*;

use super::super::container::{compute, wrap, wrap_tuple as wrap_all};
use super::{import1, import2, import_optional};
use crate::ops::linalg::{self as ops, CheckFinite, Subset};

/// Runs `work` (GIL released for large inputs), mapping its errors.
fn run<T: Send>(py: Python<'_>, elements: usize, work: impl FnOnce() -> crate::Result<T> + Send) -> PyResult<T> {
    Ok(compute(py, elements, work)?)
}

// ---------------------------------------------------------------------------
// Eigenvalue problems and SVD
// ---------------------------------------------------------------------------

#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn eigh(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
    lower: bool,
    eigvals_only: bool,
    itype: i64,
    subset_by_index: Option<(i64, i64)>,
    subset_by_value: Option<(f64, f64)>,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let subset = match (subset_by_index, subset_by_value) {
        (Some((lo, hi)), _) => Subset::Index(lo, hi),
        (None, Some((lo, hi))) => Subset::Value(lo, hi),
        _ => Subset::All,
    };
    let (a, b, library) = import_optional(a, b)?;
    let options = ops::EighOptions {
        lower,
        eigvals_only,
        // (SciPy reads `type` only for the generalized problem)
        type_: if b.is_some() { ops::EighType::from_code(itype)? } else { ops::EighType::One },
        subset,
        check_finite: CheckFinite::from_flag(check_finite),
    };
    let ops::Eigh { w, v } = run(py, a.numel(), move || ops::eigh(&a, b.as_ref(), &options))?;
    match v {
        Some(v) => wrap_all(py, &library, vec![w, v]),
        None => wrap(py, &library, w, false),
    }
}

#[pyfunction]
fn eig(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    left: bool,
    right: bool,
    homogeneous_eigvals: bool,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (a, library) = import1(a)?;
    let result = run(py, a.numel(), move || {
        ops::eig(
            &a,
            &ops::EigOptions { left, right, homogeneous_eigvals, check_finite: CheckFinite::from_flag(check_finite) },
        )
    })?;
    let mut out = vec![result.w];
    out.extend(result.vl);
    out.extend(result.vr);
    if out.len() == 1 {
        return wrap(py, &library, out.remove(0), false);
    }
    wrap_all(py, &library, out)
}

#[pyfunction]
fn svd(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    full_matrices: bool,
    compute_uv: bool,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let (a, library) = import1(a)?;
    let options = ops::SvdOptions { full_matrices, compute_uv, check_finite: CheckFinite::from_flag(check_finite) };
    let ops::Svd { u, s, vh } = run(py, a.numel(), move || ops::svd(&a, &options))?;
    match (u, vh) {
        (Some(u), Some(vh)) => wrap_all(py, &library, vec![u, s, vh]),
        _ => wrap(py, &library, s, false),
    }
}

#[pyfunction]
fn null_space(py: Python<'_>, a: &Bound<'_, PyAny>, rcond: Option<f64>, check_finite: bool) -> PyResult<Py<PyAny>> {
    let (a, library) = import1(a)?;
    let q = run(py, a.numel(), move || {
        ops::null_space(&a, &ops::NullSpaceOptions { rcond, check_finite: CheckFinite::from_flag(check_finite) })
    })?;
    wrap(py, &library, q, false)
}

#[pyfunction]
fn orth(py: Python<'_>, a: &Bound<'_, PyAny>, rcond: Option<f64>) -> PyResult<Py<PyAny>> {
    let (a, library) = import1(a)?;
    let q = run(py, a.numel(), move || ops::orth(&a, rcond))?;
    wrap(py, &library, q, false)
}

#[pyfunction]
fn subspace_angles(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let (a, b, library) = import2(a, b)?;
    let theta = run(py, a.numel() + b.numel(), move || ops::subspace_angles(&a, &b))?;
    wrap(py, &library, theta, false)
}

// ---------------------------------------------------------------------------
// More special matrices, structure tests, banded and structured solvers
// ---------------------------------------------------------------------------

#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn eigh_tridiagonal(
    py: Python<'_>,
    d: &Bound<'_, PyAny>,
    e: &Bound<'_, PyAny>,
    eigvals_only: bool,
    subset_by_index: Option<(i64, i64)>,
    subset_by_value: Option<(f64, f64)>,
    check_finite: bool,
) -> PyResult<Py<PyAny>> {
    let subset = match (subset_by_index, subset_by_value) {
        (Some((lo, hi)), _) => Subset::Index(lo, hi),
        (None, Some((lo, hi))) => Subset::Value(lo, hi),
        _ => Subset::All,
    };
    let (d, e, library) = import2(d, e)?;
    let ops::Eigh { w, v } = run(py, d.numel(), move || {
        ops::eigh_tridiagonal(
            &d,
            &e,
            &ops::EighTridiagonalOptions { eigvals_only, subset, check_finite: CheckFinite::from_flag(check_finite) },
        )
    })?;
    match v {
        Some(v) => wrap_all(py, &library, vec![w, v]),
        None => wrap(py, &library, w, false),
    }
}

/// Adds these helpers to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(eigh, module)?)?;
    module.add_function(wrap_pyfunction!(eig, module)?)?;
    module.add_function(wrap_pyfunction!(svd, module)?)?;
    module.add_function(wrap_pyfunction!(null_space, module)?)?;
    module.add_function(wrap_pyfunction!(orth, module)?)?;
    module.add_function(wrap_pyfunction!(subspace_angles, module)?)?;
    module.add_function(wrap_pyfunction!(eigh_tridiagonal, module)?)?;
    Ok(())
}
