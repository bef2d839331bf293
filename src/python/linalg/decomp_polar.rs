//! `scipy.linalg._decomp_polar`: `polar`.

use pyo3::prelude::*;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1, sequence};
use crate::ops::linalg::{self as ops, Polar, Side};

/// Compute the polar decomposition.
///
/// Polar decomposition (``scipy.linalg.polar``), from the SVD.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, side = "right", *, device = None))]
fn polar(py: Python<'_>, a: &Bound<'_, PyAny>, side: &str, device: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let side: Side = side.parse()?;
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("polar", &[(Some(&a), 2)])?;
        let Polar { u, p } = compute(py, a.numel(), move || ops::polar(&a, side))?;
        sequence(py, vec![wrap(py, &library, u, false)?, wrap(py, &library, p, false)?], list)
    })
}

/// Adds `polar` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(polar, module)?)?;
    Ok(())
}
