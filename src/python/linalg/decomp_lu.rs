//! `scipy.linalg._decomp_lu`: `lu`, `lu_factor` (with SciPy's
//! `LinAlgWarning` for an exactly zero pivot) and `lu_solve`.

use pyo3::prelude::*;

use super::super::container::{compute, import_all, wrap, wrap_tuple};
use super::super::placement::on_device;
use super::{batched, import1, linalg_warning, rhs_core, sequence, unpack2, warn, Device};
use crate::ops::linalg::{self as ops, CheckFinite, Lu, LuFactor, LuOptions, LuSolveOptions, Trans};
use crate::Error;

/// Compute LU decomposition of a matrix with partial pivoting.
///
/// LU decomposition with partial pivoting, ``a = P @ L @ U`` (``scipy.linalg.lu``).
///
/// Returns ``(P, L, U)``, ``(p, L, U)`` with ``p_indices`` (``a = L[p] @ U``)
/// or ``(P @ L, U)`` with ``permute_l``; stacks of matrices are accepted.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, permute_l = false, overwrite_a = false, check_finite = true, p_indices = false, *, device = None))]
fn lu(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    permute_l: bool,
    overwrite_a: bool,
    check_finite: bool,
    p_indices: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    on_device(device, || {
        let (a, library) = import1(a)?;
        let options = LuOptions { permute_l, p_indices, check_finite: CheckFinite::from_flag(check_finite) };
        let Lu { p, l, u } = compute(py, a.numel(), move || ops::lu(&a, &options))?;
        wrap_tuple(py, &library, p.into_iter().chain([l, u]).collect())
    })
}

/// Compute pivoted LU decomposition of a matrix.
///
/// Compact LU factorization for :func:`lu_solve` (``scipy.linalg.lu_factor``).
///
/// Returns ``(lu, piv)`` with LAPACK's 0-based pivot indices (int32). An
/// exactly zero pivot warns ``LinAlgWarning`` as SciPy does.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, overwrite_a = false, check_finite = true, *, device = None))]
fn lu_factor(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    overwrite_a: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("lu_factor", &[(Some(&a), 2)])?;
        let check = CheckFinite::from_flag(check_finite);
        let LuFactor { lu, piv, info } = compute(py, a.numel(), move || ops::lu_factor(&a, check))?;
        if info > 0 {
            let message = format!("Diagonal number {info} is exactly zero. Singular matrix.");
            warn(py, &linalg_warning(py)?, &message)?;
        }
        sequence(py, vec![wrap(py, &library, lu, false)?, wrap(py, &library, piv, false)?], list)
    })
}

/// Solve an equation system, a x = b, given the LU factorization of a
///
/// Solve ``A x = b`` (``trans`` 0), ``A^T x = b`` (1) or ``A^H x = b`` (2)
/// from :func:`lu_factor`'s ``(lu, piv)`` (``scipy.linalg.lu_solve``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (lu_and_piv, b, trans = None, overwrite_b = false, check_finite = true, *, device = None),
    text_signature = "(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True, *, device=None)"
)]
fn lu_solve(
    py: Python<'_>,
    lu_and_piv: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    trans: Option<&Bound<'_, PyAny>>,
    overwrite_b: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_b; // a performance hint
    let [lu, piv] = unpack2(lu_and_piv)?;
    let trans = match trans {
        None => Trans::N,
        Some(trans) => match trans.extract::<i64>().ok().filter(|t| (0..=2).contains(t)) {
            Some(code) => Trans::from_code(code)?,
            None => {
                return Err(Error::InvalidArgument(format!("trans must be 0, 1 or 2, got {}", trans.repr()?)).into())
            }
        },
    };
    // pivots given as a list are numpy's integers, not Python floats
    let piv = if piv.hasattr("__dlpack__")? { piv } else { py.import("numpy")?.call_method1("asarray", (piv,))? };
    on_device(device, || {
        let (mut tensors, library) = import_all(&[&lu, &piv, b])?;
        let b = tensors.remove(2);
        let piv = tensors.remove(1);
        let lu = tensors.remove(0);
        batched("lu_solve", &[(Some(&lu), 2), (Some(&piv), 1), (Some(&b), rhs_core(&b))])?;
        let options = LuSolveOptions { trans, check_finite: CheckFinite::from_flag(check_finite) };
        let x = compute(py, lu.numel() + b.numel(), move || ops::lu_solve(&lu, &piv, &b, &options))?;
        wrap(py, &library, x, false)
    })
}

/// Adds the LU routines to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(lu, module)?)?;
    module.add_function(wrap_pyfunction!(lu_factor, module)?)?;
    module.add_function(wrap_pyfunction!(lu_solve, module)?)?;
    Ok(())
}
