//! The conversions `torchbridge.apply` is built on: caller arrays to torch
//! views, torch results back to the caller's library.

use pyo3::prelude::*;

use super::container::{classify, common_library, import, torch_tensor, wrap, Library};
use super::placement;
use crate::{ops, Device};

/// The caller's array library, as `apply` carries it from inputs to results.
#[pyclass(frozen, module = "torchbridge._core", name = "Container")]
pub struct Container {
    library: Library,
    /// With `device=`: the device the caller's arrays live on, where results go back.
    home: Option<Device>,
}

#[pymethods]
impl Container {
    /// The library's name: "numpy", "torch", "jax" or the namespace's module name.
    #[getter]
    fn name(&self) -> &str {
        self.library.name()
    }

    /// Whether results are already what the caller gets: torch tensors, with
    /// no device to return to.
    #[getter]
    fn is_torch(&self) -> bool {
        matches!(self.library, Library::Torch { .. }) && self.home.is_none()
    }

    /// Converts a torch tensor (or any DLPack producer) into this library's
    /// array type, on the caller's device: detached from autograd, with a lazy
    /// conjugate or negation applied (the memory the caller gets is plain).
    fn wrap(&self, py: Python<'_>, tensor: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let arg = classify(tensor)?;
        let mut tensor = import(&arg)?.tensor.f_detach().map_err(crate::Error::from)?;
        if tensor.f_is_conj().map_err(crate::Error::from)? {
            tensor = tensor.f_resolve_conj().map_err(crate::Error::from)?;
        }
        if tensor.f_is_neg().map_err(crate::Error::from)? {
            tensor = tensor.f_resolve_neg().map_err(crate::Error::from)?;
        }
        if let Some(home) = self.home {
            tensor = placement::move_to(tensor, home)?;
        }
        wrap(py, &self.library, tensor, false)
    }

    fn __repr__(&self) -> String {
        format!("Container({:?})", self.library.name())
    }
}

/// Classifies `arrays` (all from one library) and returns, for each, a
/// zero-copy `torch.Tensor` view (torch tensors themselves), plus the library
/// to return results in; torch must be imported.
///
/// Torch tensors are returned as they are. Read-only memory (numpy arrays with
/// `writeable=False`, JAX arrays) is copied first: the function `apply` runs is
/// arbitrary code, and libtorch ignores DLPack's read-only flag.
///
/// With `device`, each view is a copy on that device (none when the array is
/// already there) and the container returns results to the caller's device.
#[pyfunction]
#[pyo3(signature = (arrays, device = None))]
pub(crate) fn torch_views(
    py: Python<'_>,
    arrays: Vec<Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<Py<PyAny>>, Container)> {
    placement::on_device(device, || {
        let args = arrays.iter().map(classify).collect::<PyResult<Vec<_>>>()?;
        let library = common_library(&args)?.unchecked();
        let mut views = Vec::with_capacity(args.len());
        for arg in &args {
            if matches!(arg.library, Library::Torch { .. }) && !placement::chosen() {
                views.push(arg.array.clone().unbind());
                continue;
            }
            let imported = import(arg)?;
            let tensor = if imported.read_only { ops::deep_copy(&imported.tensor)? } else { imported.tensor };
            views.push(torch_tensor(py, &tensor)?);
        }
        Ok((views, Container { library, home: placement::home() }))
    })
}
