//! `scipy.linalg._decomp_cholesky`: `cholesky`, `cho_factor`, `cho_solve`,
//! `cholesky_banded`.

use pyo3::prelude::*;

use super::super::container::{compute, import_all, wrap};
use super::super::placement::on_device;
use super::{batched, import1, map1, rhs_core, sequence, unpack2, Device};
use crate::ops::linalg::{self as ops, CheckFinite, ChoFactor, CholeskyOptions};
use crate::Error;

/// Compute the Cholesky decomposition of a matrix.
///
/// Cholesky factor of a Hermitian positive definite matrix
/// (``scipy.linalg.cholesky``); only the ``lower`` (or upper) triangle of
/// ``a`` is read.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, lower = false, overwrite_a = false, check_finite = true, *, device = None))]
fn cholesky(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    lower: bool,
    overwrite_a: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    let options = CholeskyOptions { lower, check_finite: CheckFinite::from_flag(check_finite) };
    map1(py, device, a, Some(("cholesky", 2)), move |a| ops::cholesky(a, &options))
}

/// Compute the Cholesky decomposition of a matrix, to use in cho_solve
///
/// Cholesky factorization for :func:`cho_solve` (``scipy.linalg.cho_factor``).
///
/// Returns ``(c, lower)``. The triangle of ``c`` that is not the factor
/// holds ``a``'s own entries (cast to the result dtype), as LAPACK's
/// ``?potrf`` leaves them in SciPy's result.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, lower = false, overwrite_a = false, check_finite = true, *, device = None))]
fn cho_factor(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    lower: bool,
    overwrite_a: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("cho_factor", &[(Some(&a), 2)])?;
        let batch: Vec<i64> = a.size()[..a.dim().saturating_sub(2)].to_vec();
        let options = CholeskyOptions { lower, check_finite: CheckFinite::from_flag(check_finite) };
        let ChoFactor { c, .. } = compute(py, a.numel(), move || ops::cho_factor(&a, &options))?;
        let c = wrap(py, &library, c, false)?;
        if list {
            // SciPy's batched result: one `lower` flag per matrix.
            let flags = py.import("numpy")?.call_method1("full", (batch, lower))?.unbind();
            return sequence(py, vec![c, flags], true);
        }
        sequence(py, vec![c, pyo3::types::PyBool::new(py, lower).to_owned().into_any().unbind()], false)
    })
}

/// Solve the linear equations A x = b, given the Cholesky factorization of A.
///
/// Solve ``A x = b`` from :func:`cho_factor`'s ``(c, lower)`` (``scipy.linalg.cho_solve``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (c_and_lower, b, overwrite_b = false, check_finite = true, *, device = None))]
fn cho_solve(
    py: Python<'_>,
    c_and_lower: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    overwrite_b: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_b; // a performance hint
    let (c, lower) = factor_and_lower(py, "cho_solve", c_and_lower)?;
    on_device(device, || {
        let (mut tensors, library) = import_all(&[&c, b])?;
        let b = tensors.remove(1);
        let c = tensors.remove(0);
        batched("cho_solve", &[(Some(&c), 2), (Some(&b), rhs_core(&b))])?;
        let check = CheckFinite::from_flag(check_finite);
        let x = compute(py, c.numel() + b.numel(), move || ops::cho_solve(&ChoFactor { c, lower }, &b, check))?;
        wrap(py, &library, x, false)
    })
}

/// A `(factor, lower)` pair as SciPy unpacks it; a batch's per-matrix
/// `lower` flags must agree (SciPy's batched `cho_factor` returns an array of them).
fn factor_and_lower<'py>(py: Python<'py>, name: &str, pair: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyAny>, bool)> {
    let [c, lower] = unpack2(pair)?;
    let numpy = py.import("numpy")?;
    let lower = if numpy.call_method1("ndim", (&lower,))?.extract::<usize>()? > 0 {
        let values = numpy.call_method1("unique", (numpy.call_method1("asarray", (&lower,))?,))?;
        if values.getattr("size")?.extract::<usize>()? != 1 {
            return Err(Error::NotImplemented(format!(
                "linalg.{name}: lower='<mixed per-matrix flags>' is not supported"
            ))
            .into());
        }
        values.get_item(0)?.is_truthy()?
    } else {
        lower.is_truthy()?
    };
    Ok((c, lower))
}

/// Solve the linear equations ``A x = b``, given the Cholesky factorization of the banded Hermitian ``A``.
///
/// Solve ``A x = b`` from :func:`cholesky_banded`'s factor ``cb`` and its
/// ``lower`` flag (``scipy.linalg.cho_solve_banded``), through the dense
/// triangular factor (the triangular solves of LAPACK's ``?pbtrs``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (cb_and_lower, b, overwrite_b = false, check_finite = true, *, device = None))]
fn cho_solve_banded(
    py: Python<'_>,
    cb_and_lower: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    overwrite_b: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_b; // a performance hint
    let (cb, lower) = factor_and_lower(py, "cho_solve_banded", cb_and_lower)?;
    on_device(device, || {
        let (mut tensors, library) = import_all(&[&cb, b])?;
        let b = tensors.remove(1);
        let cb = tensors.remove(0);
        batched("cho_solve_banded", &[(Some(&cb), 2), (Some(&b), rhs_core(&b))])?;
        let check = CheckFinite::from_flag(check_finite);
        let x = compute(py, cb.numel() + b.numel(), move || ops::cho_solve_banded(&cb, lower, &b, check))?;
        wrap(py, &library, x, false)
    })
}

/// Cholesky decompose a banded Hermitian positive-definite matrix
///
/// Cholesky factor of a banded Hermitian positive definite matrix, in band
/// storage (``scipy.linalg.cholesky_banded``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (ab, overwrite_ab = false, lower = false, check_finite = true, *, device = None))]
fn cholesky_banded(
    py: Python<'_>,
    ab: &Bound<'_, PyAny>,
    overwrite_ab: bool,
    lower: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_ab; // a performance hint
    let options = CholeskyOptions { lower, check_finite: CheckFinite::from_flag(check_finite) };
    map1(py, device, ab, Some(("cholesky_banded", 2)), move |ab| ops::cholesky_banded(ab, &options))
}

/// Adds the Cholesky routines to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(cholesky, module)?)?;
    module.add_function(wrap_pyfunction!(cho_factor, module)?)?;
    module.add_function(wrap_pyfunction!(cho_solve, module)?)?;
    module.add_function(wrap_pyfunction!(cho_solve_banded, module)?)?;
    module.add_function(wrap_pyfunction!(cholesky_banded, module)?)?;
    Ok(())
}
