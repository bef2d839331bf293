//! `scipy.linalg._decomp_svd`: the compiled faces (so far `diagsvd`; `svd`
//! and its composites still go through `legacy`).

use pyo3::prelude::*;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1};
use crate::ops::linalg as ops;

/// The ``(M, N)`` matrix with ``s`` on its diagonal (``scipy.linalg.diagsvd``).
#[pyfunction]
#[pyo3(signature = (s, M, N, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter names
fn diagsvd(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
    M: i64,
    N: i64,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (s, library) = import1(s)?;
        batched("diagsvd", &[(Some(&s), 1)])?;
        let c = compute(py, s.numel(), move || ops::diagsvd(&s, M, N))?;
        wrap(py, &library, c, false)
    })
}

/// Adds the SVD faces to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(diagsvd, module)?)?;
    Ok(())
}
