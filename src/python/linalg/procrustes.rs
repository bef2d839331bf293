//! `scipy.linalg._procrustes`: `orthogonal_procrustes`.

use pyo3::prelude::*;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import2, sequence};
use crate::ops::linalg::{self as ops, CheckFinite, Procrustes};

/// Compute the matrix solution of the orthogonal (or unitary) Procrustes problem.
///
/// The unitary ``R`` minimizing ``||A @ R - B||_F`` and the sum of the
/// singular values of ``A^H B`` (``scipy.linalg.orthogonal_procrustes``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, B, check_finite = true, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter names
fn orthogonal_procrustes(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    B: &Bound<'_, PyAny>,
    check_finite: bool,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, b, library) = import2(A, B)?;
        let list = batched("orthogonal_procrustes", &[(Some(&a), 2), (Some(&b), 2)])?;
        let check = CheckFinite::from_flag(check_finite);
        let Procrustes { r, scale } =
            compute(py, a.numel() + b.numel(), move || ops::orthogonal_procrustes(&a, &b, check))?;
        sequence(py, vec![wrap(py, &library, r, false)?, wrap(py, &library, scale, true)?], list)
    })
}

/// Adds `orthogonal_procrustes` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(orthogonal_procrustes, module)?)?;
    Ok(())
}
