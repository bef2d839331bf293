//! `torchbridge.linalg`: `scipy.linalg` counterparts: solvers, decompositions, matrix functions and special matrices.

use pyo3::prelude::*;

/// Adds the `linalg` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = PyModule::new(parent.py(), "linalg")?;
    parent.add_submodule(&module)
}
