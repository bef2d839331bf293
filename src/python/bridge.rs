//! The conversions `torchbridge.apply` is built on: caller arrays to torch
//! views, torch results back to the caller's library.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

use super::container::{classify, common_library, import, is_exact_ndarray, torch_tensor, wrap, Library};
use super::placement;
use crate::dlpack::numpy_array;
use crate::ffi::tensor_impl;
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
        let detached = import(&arg)?.tensor.f_detach().map_err(crate::Error::from)?;
        let mut tensor = tensor_impl::resolve_lazy(detached)?;
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

// The per-call fast path for the commonest caller, one exact writable numpy array (`apply` and the
// `torchbridge.torch` proxies): the view is the container's zero-copy import of the array, wrapped by
// torch (what `torch.from_numpy` gives, at a third of its cost; its own where that would copy), and a `torch.Tensor`
// result becomes an ndarray over its memory (zero-copy both ways, no container object, no Python
// frame between the caller and the function). Whatever this declines (subclasses, read-only,
// unaligned, complex or byte-swapped arrays, what `from_numpy` refuses such as negative strides)
// takes the general route, which copies, resolves or explains as documented; results that require
// grad, carry a conjugate or negative bit, or live on a GPU are converted as the container converts.

/// torch's pieces for the numpy fast path, looked up once. Its callers hand torch tensors to the
/// caller's function, so torch is theirs to import (the rest of `_core` never imports it).
struct TorchPieces {
    from_numpy: Py<PyAny>,
    tensor: Py<PyType>,
}

fn torch_pieces(py: Python<'_>) -> PyResult<&TorchPieces> {
    static TORCH: PyOnceLock<TorchPieces> = PyOnceLock::new();
    TORCH.get_or_try_init(py, || {
        let torch = py.import("torch")?;
        Ok(TorchPieces {
            from_numpy: torch.getattr("from_numpy")?.unbind(),
            tensor: torch.getattr("Tensor")?.cast_into::<PyType>()?.unbind(),
        })
    })
}

/// The errors with which torch declines a conversion (`from_numpy`, `Tensor.numpy`).
fn torch_declined(py: Python<'_>, err: &PyErr) -> bool {
    err.is_instance_of::<PyTypeError>(py)
        || err.is_instance_of::<PyValueError>(py)
        || err.is_instance_of::<PyRuntimeError>(py)
}

/// `function(torch.from_numpy(array), **kwargs)` with its result for the numpy caller, or `None`
/// where the fast path does not apply (`function` is not called then). A `torch.Tensor` result
/// becomes an ndarray ([`numpy_result`]); with `own`, the view itself comes back as `array`, the
/// caller's own object. Any other result goes to `convert(result, view, array)`.
fn numpy_fast(
    py: Python<'_>,
    function: &Bound<'_, PyAny>,
    array: &Bound<'_, PyAny>,
    kwargs: Option<&Bound<'_, PyDict>>,
    own: bool,
    convert: &Bound<'_, PyAny>,
) -> PyResult<Option<Py<PyAny>>> {
    if !is_exact_ndarray(array)? || !numpy_array::plain_writable(array) {
        return Ok(None);
    }
    let torch = torch_pieces(py)?;
    // The view as the container's import makes it (the array's own memory,
    // the array as the owner, one shim call) and torch's wrap of it: a third
    // of `torch.from_numpy`'s Python call. Where that import would copy
    // (empty arrays, negative strides), torch's own view or refusal.
    let view = match numpy_array::import_ndarray(array)? {
        Some(imported) if imported.copied.is_none() && !imported.read_only => {
            torch_tensor(py, &imported.tensor)?.into_bound(py)
        }
        _ => match torch.from_numpy.bind(py).call1((array,)) {
            Ok(view) => view,
            Err(err) if torch_declined(py, &err) => return Ok(None),
            Err(err) => return Err(err),
        },
    };
    let result = function.call((&view,), kwargs)?;
    if !result.get_type().is(torch.tensor.bind(py)) {
        return Ok(Some(convert.call1((result, view, array))?.unbind()));
    }
    if own && result.is(&view) {
        return Ok(Some(array.clone().unbind()));
    }
    numpy_result(py, &result).map(Some)
}

/// A `torch.Tensor` result for a numpy caller: an ndarray over its memory (zero-copy; detached
/// and with a lazy conjugate or negation applied first where it has one), or the numpy
/// container's conversion where that declines (a GPU, a dtype numpy lacks) or `.numpy()` where
/// the tensor is not a plain one (then the container's conversion where torch declines).
fn numpy_result(py: Python<'_>, result: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if let Some(tensor) = tensor_impl::tensor_of(result)? {
        return match numpy_array::to_numpy(py, tensor, false)? {
            Ok(array) => Ok(array.unbind()),
            Err(declined) => wrap(py, &Library::NumPy, declined, false),
        };
    }
    match result.call_method0(intern!(py, "numpy")) {
        Ok(array) => Ok(array.unbind()),
        Err(err) if torch_declined(py, &err) => Container { library: Library::NumPy, home: None }.wrap(py, result),
        Err(err) => Err(err),
    }
}

/// `apply`'s numpy fast path: `function(view, **kwargs)` on `torch.from_numpy(array)` for an exact,
/// writable, aligned, real, native-order `numpy.ndarray` that torch can view, a `torch.Tensor`
/// result as an ndarray (zero-copy), any other result through `convert(result, view, array)`;
/// `declined` itself where this path does not apply (`function` is not called then). torch is
/// imported on first use.
#[pyfunction]
#[pyo3(signature = (function, array, kwargs, convert, declined))]
pub(crate) fn numpy_call(
    py: Python<'_>,
    function: &Bound<'_, PyAny>,
    array: &Bound<'_, PyAny>,
    kwargs: Option<&Bound<'_, PyDict>>,
    convert: &Bound<'_, PyAny>,
    declined: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let kwargs = kwargs.filter(|k| !k.is_empty());
    Ok(numpy_fast(py, function, array, kwargs, false, convert)?.unwrap_or_else(|| declined.clone().unbind()))
}

/// The call of a `torchbridge.torch` function proxy (its Python class subclasses this one): a
/// call with one exact numpy array, no keywords, of a function that does not write into its
/// argument (`pure`) takes the numpy fast path here, a result that is the view itself coming back
/// as the caller's array and other non-tensor results through `convert(result, view, array)`;
/// every other call goes to `general(proxy, args, kwargs)` (`kwargs` a dict of its own).
#[pyclass(subclass, frozen, module = "torchbridge._core", name = "ProxyCall")]
pub struct ProxyCall {
    target: Py<PyAny>,
    pure: bool,
    general: Py<PyAny>,
    convert: Py<PyAny>,
}

#[pymethods]
impl ProxyCall {
    #[new]
    fn new(target: Py<PyAny>, pure: bool, general: Py<PyAny>, convert: Py<PyAny>) -> Self {
        ProxyCall { target, pure, general, convert }
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let this = slf.get();
        if this.pure && args.len() == 1 && kwargs.is_none_or(|k| k.is_empty()) {
            let array = args.get_item(0)?;
            if let Some(result) = numpy_fast(py, this.target.bind(py), &array, None, true, this.convert.bind(py))? {
                return Ok(result);
            }
        }
        // the general route may rewrite its keywords (a numpy `dtype=`): never the caller's dict
        let kwargs = match kwargs {
            Some(kwargs) => kwargs.copy()?,
            None => PyDict::new(py),
        };
        Ok(this.general.bind(py).call1((slf, args, kwargs))?.unbind())
    }

    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        visit.call(&self.target)?;
        visit.call(&self.general)?;
        visit.call(&self.convert)
    }
}
