//! The conversions `torchbridge.apply` is built on: caller arrays to torch
//! views, torch results back to the caller's library.

use pyo3::prelude::*;

use super::container::{classify, common_library, import, wrap, Library};
use super::exported::DlpackTensor;
use crate::ops;

/// The caller's array library, as `apply` carries it from inputs to results.
#[pyclass(frozen, module = "torchbridge._core", name = "Container")]
pub struct Container {
    library: Library,
}

#[pymethods]
impl Container {
    /// The library's name: "numpy", "torch", "jax" or the namespace's module name.
    #[getter]
    fn name(&self) -> &str {
        self.library.name()
    }

    /// Whether results are already torch tensors (no conversion needed).
    #[getter]
    fn is_torch(&self) -> bool {
        matches!(self.library, Library::Torch)
    }

    /// Converts a torch tensor (or any DLPack producer) into this library's array type.
    fn wrap(&self, py: Python<'_>, tensor: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let arg = classify(tensor)?;
        let imported = import(&arg)?;
        wrap(py, &self.library, imported.tensor, false)
    }

    fn __repr__(&self) -> String {
        format!("Container({:?})", self.library.name())
    }
}

/// Classifies `arrays` (all from one library) and returns, for each, an object
/// `torch.from_dlpack` views zero-copy, plus the library to return results in.
///
/// Torch tensors are returned as they are. Read-only memory (numpy arrays with
/// `writeable=False`, JAX arrays) is copied first: the function `apply` runs is
/// arbitrary code, and libtorch ignores DLPack's read-only flag.
#[pyfunction]
pub(crate) fn torch_views(py: Python<'_>, arrays: Vec<Bound<'_, PyAny>>) -> PyResult<(Vec<Py<PyAny>>, Container)> {
    let args = arrays.iter().map(classify).collect::<PyResult<Vec<_>>>()?;
    let library = common_library(&args)?;
    let mut views = Vec::with_capacity(args.len());
    for arg in &args {
        if matches!(arg.library, Library::Torch) {
            views.push(arg.array.clone().unbind());
            continue;
        }
        let imported = import(arg)?;
        let tensor = if imported.read_only { ops::deep_copy(&imported.tensor)? } else { imported.tensor };
        views.push(Py::new(py, DlpackTensor::new(tensor)?)?.into_any());
    }
    Ok((views, Container { library }))
}
