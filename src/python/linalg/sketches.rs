//! `scipy.linalg._sketches`: the compiled half of `clarkson_woodruff_transform`
//! (the random draws are SciPy's, made by `torchbridge.linalg._sketches`
//! with the caller's NumPy generator).

use pyo3::prelude::*;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1, Device};
use crate::ops::linalg as ops;

/// Applies a Clarkson-Woodruff sketch given its draws (the rows and signs
/// of ``S``'s nonzero entries); see ``torchbridge.linalg.clarkson_woodruff_transform``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(name = "_clarkson_woodruff_apply", signature = (input_matrix, sketch_size, rows, signs, *, device = None))]
fn clarkson_woodruff_apply(
    py: Python<'_>,
    input_matrix: &Bound<'_, PyAny>,
    sketch_size: i64,
    rows: Vec<i64>,
    signs: Vec<i64>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, library) = import1(input_matrix)?;
        batched("clarkson_woodruff_transform", &[(Some(&a), 2)])?;
        let sketch = compute(py, a.numel(), move || ops::clarkson_woodruff_transform(&a, sketch_size, &rows, &signs))?;
        wrap(py, &library, sketch, false)
    })
}

/// Adds the sketch to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(clarkson_woodruff_apply, module)?)?;
    Ok(())
}
