//! `scipy.linalg._decomp_update`: `qr_update`, `qr_insert`, `qr_delete`.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::super::container::{compute, import_all, wrap};
use super::super::placement::on_device;
use super::Device;
use crate::ops::linalg::{self as ops, CheckFinite, Which};

fn pair(
    py: Python<'_>,
    library: &super::super::container::Library,
    (q, r): (tch::Tensor, tch::Tensor),
) -> PyResult<Py<PyAny>> {
    let items = [wrap(py, library, q, false)?, wrap(py, library, r, false)?];
    Ok(PyTuple::new(py, items)?.into_any().unbind())
}

/// Rank-k QR update
///
/// The QR decomposition of ``A + u v^H`` from that of ``A``
/// (``scipy.linalg.qr_update``; full ``(M, M) (M, N)`` or economic ``(M, N)
/// (N, N)`` factors). SciPy's Givens-rotation loops, ported and run on the
/// host (an explicit copy for CUDA input), so ``Q1`` and ``R1`` are SciPy's
/// to rounding, signs included. Rank-k updates of a full decomposition
/// (SciPy's Householder path) raise ``UnsupportedParameterError``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (Q, R, u, v, overwrite_qruv = false, check_finite = true, *, device = None))]
#[allow(non_snake_case, clippy::too_many_arguments)]
fn qr_update(
    py: Python<'_>,
    Q: &Bound<'_, PyAny>,
    R: &Bound<'_, PyAny>,
    u: &Bound<'_, PyAny>,
    v: &Bound<'_, PyAny>,
    overwrite_qruv: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_qruv; // a performance hint
    on_device(device, || {
        let (mut t, library) = import_all(&[Q, R, u, v])?;
        let (v, u, r, q) = (t.remove(3), t.remove(2), t.remove(1), t.remove(0));
        let check = CheckFinite::from_flag(check_finite);
        let result = compute(py, q.numel() + r.numel(), move || ops::qr_update(&q, &r, &u, &v, check))?;
        pair(py, &library, result)
    })
}

/// QR update on row or column insertions
///
/// The QR decomposition of ``A`` with the rows or columns ``u`` inserted
/// before row or column ``k`` (``scipy.linalg.qr_insert``), by SciPy's
/// Givens-rotation and reflector loops, ported and run on the host (an
/// explicit copy for CUDA input): ``Q1`` and ``R1`` are SciPy's to rounding.
/// Not ported (``UnsupportedParameterError``): several rows into an economic
/// decomposition, columns into an economic one, several columns into a full one.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (Q, R, u, k, which = "row", rcond = None, overwrite_qru = false, check_finite = true, *, device = None))]
#[allow(non_snake_case, clippy::too_many_arguments)]
fn qr_insert(
    py: Python<'_>,
    Q: &Bound<'_, PyAny>,
    R: &Bound<'_, PyAny>,
    u: &Bound<'_, PyAny>,
    k: i64,
    which: &str,
    rcond: Option<f64>,
    overwrite_qru: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_qru; // a performance hint
    let which: Which = which.parse()?;
    on_device(device, || {
        let (mut t, library) = import_all(&[Q, R, u])?;
        let (u, r, q) = (t.remove(2), t.remove(1), t.remove(0));
        let check = CheckFinite::from_flag(check_finite);
        let result = compute(py, q.numel() + r.numel(), move || ops::qr_insert(&q, &r, &u, k, which, rcond, check))?;
        pair(py, &library, result)
    })
}

/// QR downdate on row or column deletions
///
/// The QR decomposition of ``A`` with ``p`` rows or columns removed from
/// ``k`` on (``scipy.linalg.qr_delete``), by SciPy's Givens-rotation and
/// reflector loops, ported and run on the host (an explicit copy for CUDA
/// input): ``Q1`` and ``R1`` are SciPy's to rounding. Deleting rows from an
/// economic decomposition is not ported (``UnsupportedParameterError``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (Q, R, k, p = 1, which = "row", overwrite_qr = false, check_finite = true, *, device = None))]
#[allow(non_snake_case, clippy::too_many_arguments)]
fn qr_delete(
    py: Python<'_>,
    Q: &Bound<'_, PyAny>,
    R: &Bound<'_, PyAny>,
    k: i64,
    p: i64,
    which: &str,
    overwrite_qr: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_qr; // a performance hint
    let which: Which = which.parse()?;
    on_device(device, || {
        let (mut t, library) = import_all(&[Q, R])?;
        let (r, q) = (t.remove(1), t.remove(0));
        let check = CheckFinite::from_flag(check_finite);
        let result = compute(py, q.numel() + r.numel(), move || ops::qr_delete(&q, &r, k, p, which, check))?;
        pair(py, &library, result)
    })
}

/// Adds the QR updates to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(qr_update, module)?)?;
    module.add_function(wrap_pyfunction!(qr_insert, module)?)?;
    module.add_function(wrap_pyfunction!(qr_delete, module)?)?;
    Ok(())
}
