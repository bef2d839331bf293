//! Which array library the caller used, taking its arrays in through DLPack
//! and handing results back in the same library's type, on the same device.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyInt, PyList, PyTuple, PyType};
use std::sync::Arc;

use dlpark::ffi::DLDevice;
use dlpark::python::{DlpackStream, ImportRequest};

use super::array_api_strict;
use super::errors::Class;
use super::exported::{legacy_capsule, DlpackTensor};
use super::placement;
use crate::dlpack::stream::ConsumerStream;
use crate::dlpack::{self, CudaStream, Imported, ManagedDlpack};
use crate::ffi::tensor_impl;
use crate::{Device, ACCEPTED_DTYPES};
use tch::Tensor;

/// The array library a result goes back to.
#[derive(Clone)]
pub(crate) enum Library {
    NumPy,
    /// torch tensors. `grad`: the inputs that require grad while autograd
    /// records, which the results must reach through their graph ([`wrap_torch`]).
    Torch {
        grad: Option<Arc<[Py<PyAny>]>>,
    },
    Jax,
    CuPy,
    /// Any other array-API library: its namespace (from `__array_namespace__`).
    Namespace {
        name: String,
        namespace: Arc<Py<PyAny>>,
    },
}

impl Library {
    fn same_as(&self, other: &Library) -> bool {
        match (self, other) {
            (Library::NumPy, Library::NumPy)
            | (Library::Torch { .. }, Library::Torch { .. })
            | (Library::Jax, Library::Jax)
            | (Library::CuPy, Library::CuPy) => true,
            (Library::Namespace { namespace: a, .. }, Library::Namespace { namespace: b, .. }) => {
                a.as_ptr() == b.as_ptr()
            }
            _ => false,
        }
    }

    pub(crate) fn name(&self) -> &str {
        match self {
            Library::NumPy => "numpy",
            Library::Torch { .. } => "torch",
            Library::Jax => "jax",
            Library::CuPy => "cupy",
            Library::Namespace { name, .. } => name,
        }
    }

    /// This library without the gradient check of [`wrap_torch`]: for the
    /// callers that run the user's own choice of torch ops (`tb.ops`,
    /// `tb.apply`), whose results follow autograd's rules as they are.
    pub(crate) fn unchecked(self) -> Library {
        match self {
            Library::Torch { .. } => Library::Torch { grad: None },
            library => library,
        }
    }

    /// Refuses ([`Class::NotDifferentiable`]) an argument that requires grad
    /// where the routine takes its values out of autograd's reach (`how`).
    pub(crate) fn refuse_grad(&self, how: &str) -> PyResult<()> {
        match self {
            Library::Torch { grad: Some(_) } => Err(Class::NotDifferentiable.err(format!(
                "an argument requires grad, but torchbridge does not differentiate in it: it is {how}; \
                 pass `x.detach()`, or call under `torch.no_grad()`"
            ))),
            _ => Ok(()),
        }
    }

    /// The memory of this library's arrays must never be written (JAX arrays
    /// are immutable even when their DLPack export does not say so).
    fn immutable(&self) -> bool {
        matches!(self, Library::Jax)
    }
}

/// numpy's pieces, looked up once (numpy is a hard dependency).
struct NumPy {
    ndarray: Py<PyType>,
    /// `numpy.ma.MaskedArray`.
    masked_array: Py<PyType>,
    generic: Py<PyType>,
    asarray: Py<PyAny>,
    from_dlpack: Py<PyAny>,
    /// `{"max_version": (1, 3)}`, for `ndarray.__dlpack__` (never mutated).
    dlpack_kwargs: Py<PyDict>,
}

fn numpy(py: Python<'_>) -> PyResult<&NumPy> {
    static NUMPY: PyOnceLock<NumPy> = PyOnceLock::new();
    NUMPY.get_or_try_init(py, || {
        let np = py.import("numpy")?;
        Ok(NumPy {
            ndarray: np.getattr("ndarray")?.cast_into::<PyType>()?.unbind(),
            masked_array: py.import("numpy.ma")?.getattr("MaskedArray")?.cast_into::<PyType>()?.unbind(),
            generic: np.getattr("generic")?.cast_into::<PyType>()?.unbind(),
            asarray: np.getattr("asarray")?.unbind(),
            from_dlpack: np.getattr("from_dlpack")?.unbind(),
            dlpack_kwargs: {
                let kwargs = PyDict::new(py);
                kwargs.set_item("max_version", (1u32, 3u32))?;
                kwargs.unbind()
            },
        })
    })
}

/// Whether `obj` is exactly a `numpy.ndarray` (no subclass).
pub(crate) fn is_exact_ndarray(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(obj.get_type().is(numpy(obj.py())?.ndarray.bind(obj.py())))
}

/// An optional library's array type and the function that builds its arrays
/// from ours (`from_dlpack`; for torch `_wrap_tensor_impl`, see [`wrap_torch`]),
/// looked up only once the caller has imported that library (torchbridge never
/// imports it).
struct Optional {
    module: &'static str,
    array_type: (&'static str, &'static str),
    constructor: (&'static str, &'static str),
    cell: PyOnceLock<(Py<PyType>, Py<PyAny>)>,
}

static TORCH: Optional = Optional {
    module: "torch",
    array_type: ("torch", "Tensor"),
    constructor: ("torch._C", "_wrap_tensor_impl"),
    cell: PyOnceLock::new(),
};
static CUPY: Optional = Optional {
    module: "cupy",
    array_type: ("cupy", "ndarray"),
    constructor: ("cupy", "from_dlpack"),
    cell: PyOnceLock::new(),
};
static JAX: Optional = Optional {
    module: "jax",
    array_type: ("jax", "Array"),
    constructor: ("jax.numpy", "from_dlpack"),
    cell: PyOnceLock::new(),
};

/// jaxlib's own DLPack exchange, `(export, build)` from
/// `torchbridge._jax.exchange()`: a fraction of the public functions' cost,
/// where it gives what they give (JAX on one CPU device only); None elsewhere.
/// Asked once, when the first JAX array arrives.
fn jax_exchange(py: Python<'_>) -> PyResult<&Option<(Py<PyAny>, Py<PyAny>)>> {
    static EXCHANGE: PyOnceLock<Option<(Py<PyAny>, Py<PyAny>)>> = PyOnceLock::new();
    EXCHANGE.get_or_try_init(py, || py.import("torchbridge._jax")?.call_method0("exchange")?.extract())
}

/// Whether `obj` is exactly a NumPy ndarray or exactly a `torch.Tensor` (no
/// subclass): two pointer comparisons, for the per-call paths that treat
/// the commonest arguments apart.
pub(crate) fn is_exact_array(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    let kind = obj.get_type();
    Ok(kind.is(numpy(py)?.ndarray.bind(py)) || TORCH.cell.get(py).is_some_and(|(tensor, _)| kind.is(tensor.bind(py))))
}

/// Whether the caller has imported `module` (it is in `sys.modules`).
pub(crate) fn imported<'py>(py: Python<'py>, module: impl IntoPyObject<'py>) -> PyResult<bool> {
    static MODULES: PyOnceLock<Py<PyDict>> = PyOnceLock::new();
    let modules = MODULES.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("sys")?.getattr("modules")?.cast_into::<PyDict>()?.unbind())
    })?;
    modules.bind(py).contains(module)
}

impl Optional {
    fn get<'a>(&'a self, py: Python<'_>) -> PyResult<Option<&'a (Py<PyType>, Py<PyAny>)>> {
        if let Some(found) = self.cell.get(py) {
            return Ok(Some(found));
        }
        if !imported(py, self.module)? {
            return Ok(None);
        }
        self.cell
            .get_or_try_init(py, || {
                let array_type = py.import(self.array_type.0)?.getattr(self.array_type.1)?;
                let constructor = py.import(self.constructor.0)?.getattr(self.constructor.1)?;
                Ok((array_type.cast_into::<PyType>()?.unbind(), constructor.unbind()))
            })
            .map(Some)
    }

    fn matches(&self, obj: &Bound<'_, PyAny>) -> PyResult<bool> {
        match self.get(obj.py())? {
            Some((array_type, _)) => obj.is_instance(array_type.bind(obj.py())),
            None => Ok(false),
        }
    }
}

/// One array argument, classified.
pub(crate) struct Arg<'py> {
    /// The array itself (Python scalars, lists and tuples already as numpy).
    pub array: Bound<'py, PyAny>,
    pub library: Library,
    /// The library was inferred from a Python value (scalar, list, numpy scalar):
    /// it yields to any real array in the same call.
    pub weak: bool,
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().fully_qualified_name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// Classifies `obj` by the library it comes from.
///
/// An ndarray subclass is computed on as its base ndarray (zero-copy), and
/// results come back as plain ndarrays, as SciPy's routines (`np.asarray`)
/// return them; the elementwise routines keep the subclass as NumPy's ufuncs
/// do ([`Subclasses`]). A masked array is refused here: a routine that
/// is not elementwise would compute on the masked values.
/// Anything else `np.asarray` takes (`__array__`, `__array_interface__`,
/// `range`, sequences) is taken as NumPy, as SciPy takes it.
pub(crate) fn classify<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Arg<'py>> {
    let py = obj.py();
    let np = numpy(py)?;
    let strong = |array: Bound<'py, PyAny>, library| Ok(Arg { array, library, weak: false });
    if obj.get_type().is(np.ndarray.bind(py)) {
        return strong(obj.clone(), Library::NumPy);
    }
    if let Some((tensor_type, _)) = TORCH.cell.get(py) {
        if obj.get_type().is(tensor_type.bind(py)) {
            return torch_arg(obj); // an exact torch.Tensor: the second commonest call
        }
    }
    if obj.is_instance(np.ndarray.bind(py))? {
        if obj.is_instance(np.masked_array.bind(py))? {
            return Err(Class::InputType.err(
                "a masked array is accepted by the elementwise routines only (torchbridge.special's \
                 ufuncs, which propagate its mask as NumPy's ufuncs do); elsewhere its masked values \
                 would be computed on: pass `x.filled(value)`, `x.compressed()` or `x.data` explicitly",
            ));
        }
        return strong(obj.clone(), Library::NumPy);
    }
    let python_value = obj.is_instance_of::<PyFloat>()
        || obj.is_instance_of::<PyInt>()
        || obj.is_instance_of::<PyBool>()
        || obj.is_instance_of::<PyComplex>()
        || obj.is_instance_of::<PyList>()
        || obj.is_instance_of::<PyTuple>()
        || obj.is_instance(np.generic.bind(py))?;
    if python_value {
        let array = np.asarray.bind(py).call1((obj,))?;
        return Ok(Arg { array, library: Library::NumPy, weak: true });
    }
    if TORCH.matches(obj)? {
        return torch_arg(obj);
    }
    if JAX.matches(obj)? {
        return strong(obj.clone(), Library::Jax);
    }
    if CUPY.matches(obj)? {
        return strong(obj.clone(), Library::CuPy);
    }
    if let Some(library) = namespace_library(obj)? {
        return strong(obj.clone(), library);
    }
    if obj.hasattr("__dlpack__")? {
        // A bare DLPack producer: results come back as numpy arrays.
        return strong(obj.clone(), Library::NumPy);
    }
    if array_like(obj)? {
        // NumPy's conversion, as SciPy's `np.asarray` (zero-copy where that is);
        // like a list, the array-like follows the call's real arrays.
        let array = np.asarray.bind(py).call1((obj,))?;
        return Ok(Arg { array, library: Library::NumPy, weak: true });
    }
    Err(Class::InputType.err(format!(
        "expected an array (numpy, torch, jax, cupy, any __dlpack__ producer) or a Python \
         scalar, list or tuple; got {}",
        type_name(obj)
    )))
}

/// The torch tensor `obj` as an argument, with itself as the input whose
/// gradient the result must carry where it requires grad and autograd records.
fn torch_arg<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Arg<'py>> {
    let grad = tensor_impl::requires_grad(obj)? && crate::ffi::autograd::grad_mode_enabled(); // (the rarer answer first)
    let grad = grad.then(|| Arc::from([obj.clone().unbind()]));
    Ok(Arg { array: obj.clone(), library: Library::Torch { grad }, weak: false })
}

/// The [`Library::Namespace`] of an array-API array (`__array_namespace__()`),
/// looked up once per type: the namespace is its library's, and asking costs
/// some libraries tens of microseconds a call (array-api-strict checks its
/// flags and parses NumPy's version on every call).
fn namespace_library(obj: &Bound<'_, PyAny>) -> PyResult<Option<Library>> {
    type Namespaces = std::sync::Mutex<Vec<(Py<PyType>, String, Arc<Py<PyAny>>)>>;
    static BY_TYPE: PyOnceLock<Namespaces> = PyOnceLock::new();
    let py = obj.py();
    let by_type = BY_TYPE.get_or_init(py, Default::default);
    let kind = obj.get_type();
    let known = |found: &Namespaces| {
        let found = found.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        found
            .iter()
            .find(|(t, ..)| t.bind(py).is(&kind))
            .map(|(_, name, namespace)| Library::Namespace { name: name.clone(), namespace: namespace.clone() })
    };
    if let Some(library) = known(by_type) {
        return Ok(Some(library));
    }
    let Ok(namespace_fn) = obj.getattr(intern!(py, "__array_namespace__")) else {
        return Ok(None);
    };
    let namespace = namespace_fn.call0()?;
    let name = namespace.getattr("__name__").map(|n| n.to_string()).unwrap_or_else(|_| type_name(obj));
    let namespace = Arc::new(namespace.unbind());
    let mut found = by_type.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    found.push((kind.unbind(), name.clone(), namespace.clone()));
    Ok(Some(Library::Namespace { name, namespace }))
}

/// What `np.asarray` takes besides arrays and Python values: the array
/// protocols (`__array__`, `__array_interface__`, `__array_struct__`) and
/// sequences (`range`, a `collections.abc.Sequence`), but not `str`/`bytes`,
/// and not a lazy collection (dask's `__dask_graph__`): its `__array__`
/// would compute the whole graph, so it is refused and the public routine
/// takes its dask route (`torchbridge._dispatch`).
fn array_like(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    if obj.hasattr(intern!(py, "__dask_graph__"))? {
        return Ok(false);
    }
    if obj.hasattr(intern!(py, "__array__"))?
        || obj.hasattr(intern!(py, "__array_interface__"))?
        || obj.hasattr(intern!(py, "__array_struct__"))?
        || obj.is_instance_of::<pyo3::types::PyRange>()
    {
        return Ok(true);
    }
    if obj.is_instance_of::<pyo3::types::PyString>() || obj.is_instance_of::<pyo3::types::PyBytes>() {
        return Ok(false);
    }
    Ok(obj.cast::<pyo3::types::PySequence>().is_ok())
}

/// The ndarray subclasses among an elementwise call's inputs, handled as
/// NumPy's ufuncs handle them (SciPy's special functions are ufuncs): the
/// call computes on the plain arrays ([`Subclasses::unwrap`]) and
/// [`Subclasses::rewrap`] gives the result the inputs' kind back: a masked
/// array with the union of the input masks (the values under the mask are
/// whatever the function gives for the masked data, as NumPy's), or the
/// subclass of highest `__array_priority__` through its `__array_wrap__`.
pub(crate) struct Subclasses<'py> {
    masks: Vec<Bound<'py, PyAny>>,
    wrapper: Option<(f64, Bound<'py, PyAny>)>,
}

impl<'py> Subclasses<'py> {
    /// The plain arrays of `objs` (the base ndarray of a subclass, a masked
    /// array's data, zero-copy) and what [`rewrap`](Self::rewrap) needs.
    pub(crate) fn unwrap<const N: usize>(objs: [&Bound<'py, PyAny>; N]) -> PyResult<([Bound<'py, PyAny>; N], Self)> {
        let mut found = Subclasses { masks: Vec::new(), wrapper: None };
        let mut failed = None;
        let plain = objs.map(|obj| {
            found.plain(obj).unwrap_or_else(|err| {
                failed.get_or_insert(err);
                obj.clone()
            })
        });
        match failed {
            Some(err) => Err(err),
            None => Ok((plain, found)),
        }
    }

    /// The plain array of `obj`, noting its mask or subclass.
    fn plain(&mut self, obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = obj.py();
        let np = numpy(py)?;
        // (an exact array first: `isinstance` on a torch tensor asks its `__class__`)
        if is_exact_array(obj)? || !obj.is_instance(np.ndarray.bind(py))? {
            Ok(obj.clone())
        } else if obj.is_instance(np.masked_array.bind(py))? {
            let ma = py.import(intern!(py, "numpy.ma"))?;
            self.masks.push(ma.call_method1(intern!(py, "getmaskarray"), (obj,))?);
            ma.call_method1(intern!(py, "getdata"), (obj,))
        } else {
            let priority: f64 = obj.getattr(intern!(py, "__array_priority__"))?.extract()?;
            if self.wrapper.as_ref().is_none_or(|(best, _)| priority > *best) {
                self.wrapper = Some((priority, obj.clone()));
            }
            np.asarray.bind(py).call1((obj,))
        }
    }

    /// `result` (what the call returned for the plain arrays) as the inputs' kind.
    pub(crate) fn rewrap(&self, py: Python<'py>, result: Py<PyAny>) -> PyResult<Py<PyAny>> {
        if self.masks.is_empty() && self.wrapper.is_none() {
            return Ok(result); // plain inputs, the common call: nothing to look up
        }
        let result = result.into_bound(py);
        let np = numpy(py)?;
        let is_ndarray = result.is_instance(np.ndarray.bind(py))?;
        if !self.masks.is_empty() {
            if !is_ndarray && !result.is_instance(np.generic.bind(py))? {
                return Ok(result.unbind()); // not a NumPy result: no mask to carry
            }
            let numpy_module = py.import(intern!(py, "numpy"))?;
            let mut mask = self.masks[0].clone();
            for other in &self.masks[1..] {
                mask = numpy_module.call_method1(intern!(py, "logical_or"), (&mask, other))?;
            }
            let shape = numpy_module.call_method1(intern!(py, "shape"), (&result,))?;
            let mask = numpy_module.call_method1(intern!(py, "broadcast_to"), (mask, shape))?.call_method0("copy")?;
            let ma = py.import(intern!(py, "numpy.ma"))?;
            if !is_ndarray && mask.is_truthy()? {
                return Ok(ma.getattr(intern!(py, "masked"))?.unbind()); // a masked 0-d result, as NumPy's
            }
            let kwargs = PyDict::new(py);
            kwargs.set_item(intern!(py, "mask"), mask)?;
            return Ok(ma.getattr(intern!(py, "masked_array"))?.call((result,), Some(&kwargs))?.unbind());
        }
        match &self.wrapper {
            Some((_, template)) if is_ndarray => {
                Ok(template.call_method1(intern!(py, "__array_wrap__"), (result, py.None()))?.unbind())
            }
            _ => Ok(result.unbind()),
        }
    }
}

/// NumPy's `isscalar` for an argument: a Python number or a NumPy scalar
/// (not a 0-d array), which some SciPy routines treat unlike an array.
pub(crate) fn is_scalar(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    Ok(obj.is_instance_of::<PyFloat>()
        || obj.is_instance_of::<PyInt>()
        || obj.is_instance_of::<PyComplex>()
        || obj.is_instance(numpy(py)?.generic.bind(py))?)
}

/// The library results go back to: the one all real arrays share (for torch,
/// with `grad` set when any input requires grad).
pub(crate) fn common_library(args: &[Arg<'_>]) -> PyResult<Library> {
    let mut chosen: Option<&Arg<'_>> = None;
    for arg in args.iter().filter(|arg| !arg.weak) {
        match chosen {
            None => chosen = Some(arg),
            Some(first) if !first.library.same_as(&arg.library) => {
                return Err(Class::MixedContainers.err(format!(
                    "arrays from two libraries in one call: {} ({}) and {} ({}); \
                     pass arrays of one library",
                    first.library.name(),
                    type_name(&first.array),
                    arg.library.name(),
                    type_name(&arg.array),
                )));
            }
            Some(_) => {}
        }
    }
    Ok(match chosen.map(|arg| &arg.library) {
        None => Library::NumPy,
        Some(Library::Torch { .. }) => {
            let grad: Vec<Py<PyAny>> = args
                .iter()
                .filter_map(|arg| match &arg.library {
                    Library::Torch { grad: Some(inputs) } => Some(inputs.iter().map(|i| i.clone_ref(arg.array.py()))),
                    _ => None,
                })
                .flatten()
                .collect();
            Library::Torch { grad: (!grad.is_empty()).then(|| Arc::from(grad)) }
        }
        Some(library) => library.clone(),
    })
}

/// Imports `arg` zero-copy through DLPack (versioned first, legacy fallback).
pub(crate) fn import(arg: &Arg<'_>) -> PyResult<Imported> {
    let obj = &arg.array;
    let py = obj.py();
    // Fast path: an exact numpy ndarray is read directly (no capsule); what
    // that path declines goes through DLPack, which explains refusals. Asking
    // numpy's `__dlpack__` directly skips the protocol discovery (a failed
    // attribute lookup for the C exchange API costs more than the export).
    let np = numpy(py)?;
    let source = if obj.get_type().is(np.ndarray.bind(py)) {
        if let Some(imported) = dlpack::numpy_array::import_ndarray(obj)? {
            return placed(imported, arg);
        }
        obj.call_method(intern!(py, "__dlpack__"), (), Some(np.dlpack_kwargs.bind(py)))
            .map_err(|err| import_failed(arg, err))?
    } else if matches!(arg.library, Library::Torch { .. }) {
        // Fast path: the caller's `at::Tensor` itself (same libtorch), which
        // keeps its autograd graph; what it declines (tensor subclasses that
        // dispatch to Python, functorch wrappers) goes through DLPack.
        if let Some(tensor) = tensor_impl::tensor_of(obj)? {
            return placed(Imported { tensor, read_only: false, copied: None }, arg);
        }
        // torch's DLPack export (C exchange API and __dlpack__ alike) hands out
        // the memory of a tensor whose negative or conjugate bit is set without
        // applying the bit: `erf(z.conj().imag)` would see the wrong sign.
        // Materialise both first (each returns the tensor itself when unset).
        obj.call_method0(intern!(py, "resolve_conj"))
            .and_then(|t| t.call_method0(intern!(py, "resolve_neg")))
            .map_err(|err| import_failed(arg, err))?
    } else if matches!(arg.library, Library::Jax) && jax_exchange(py)?.is_some() {
        // Fast path: jaxlib's own export of the array's host buffer (see
        // [`jax_exchange`]), without `__dlpack__`'s device and stream discovery.
        let (export, _) = jax_exchange(py)?.as_ref().expect("checked above");
        let capsule = export.bind(py).call1((obj,)).map_err(|err| import_failed(arg, err))?;
        let managed =
            dlpark::python::from_dlpack(capsule.as_borrowed(), None, None).map_err(|e| import_failed(arg, e))?;
        let mut imported = dlpack::import(managed_dlpack(managed))?;
        imported.read_only = true; // JAX arrays are immutable
        return placed(imported, arg);
    } else {
        // Fast path: array-api-strict's Array holds an ndarray; read that one
        // (see [`array_api_strict`]), what it declines goes through DLPack.
        if let Library::Namespace { name, .. } = &arg.library {
            if name == array_api_strict::NAME {
                if let Some(inner) = array_api_strict::inner(obj, np.ndarray.bind(py))? {
                    if let Some(imported) = dlpack::numpy_array::import_ndarray(&inner)? {
                        return placed(imported, arg);
                    }
                }
            }
        }
        obj.clone()
    };
    let is_type_error = |err: &PyErr| err.is_instance_of::<pyo3::exceptions::PyTypeError>(py);
    let negotiated = ImportRequest::new(source.as_borrowed()).and_then(|request| {
        // CUDA memory: hand the producer our current stream, so that it orders
        // its pending writes before the kernels libtorch is about to queue.
        let stream = match request.device() {
            Ok(device) => consumer_stream(arg, device)?,
            Err(_) => None, // a capsule or a legacy producer: no device known before import
        };
        let managed = request.import(stream.as_ref().map(|s| s as &dyn DlpackStream), None)?;
        Ok((managed, stream))
    });
    let (managed, stream) = match negotiated {
        Ok(found) => found,
        Err(err) if is_type_error(&err) && obj.hasattr("__dlpack__")? => {
            // A producer that predates `max_version` (or whose device query
            // is malformed): ask the legacy way, without a stream.
            let capsule = obj.call_method0("__dlpack__").map_err(|legacy| import_failed(arg, legacy))?;
            let managed =
                dlpark::python::from_dlpack(capsule.as_borrowed(), None, None).map_err(|e| import_failed(arg, e))?;
            (managed, None)
        }
        Err(err) if err.is_instance(py, Class::Device.type_object(py)?.as_any()) => return Err(err),
        Err(err) => return Err(import_failed(arg, err)),
    };
    let managed = managed_dlpack(managed);
    let mut imported = match (&stream, &arg.library) {
        // torch's own CUDA memory returns to libtorch's allocator, which orders
        // reuse by stream itself; another library's pool must wait for our work.
        (Some(ConsumerStream(stream)), library) if !matches!(library, Library::Torch { .. }) => {
            dlpack::import_ordered(managed, *stream)?
        }
        _ => dlpack::import(managed)?,
    };
    imported.read_only |= arg.library.immutable();
    placed(imported, arg)
}

/// dlpark's imported tensor as the one `dlpack::import` takes.
fn managed_dlpack(imported: dlpark::python::ImportedDlpack) -> ManagedDlpack {
    match imported {
        dlpark::python::ImportedDlpack::Legacy(m) => ManagedDlpack::Legacy(m),
        dlpark::python::ImportedDlpack::Versioned(m) => ManagedDlpack::Versioned(m),
    }
}

/// `imported`, on the device the caller chose with `device=` (see
/// [`placement::place`]); a copy made by that move is the call's own memory.
fn placed(mut imported: Imported, arg: &Arg<'_>) -> PyResult<Imported> {
    if !placement::chosen() {
        return Ok(imported); // no `device=`: `place` would return the tensor as it is
    }
    let before = imported.tensor.data_ptr();
    imported.tensor = placement::place(imported.tensor, arg.weak)?;
    if imported.tensor.data_ptr() != before {
        imported.read_only = false;
    }
    Ok(imported)
}

/// The stream to pass to a producer whose memory is on `device`: libtorch's
/// current stream of that CUDA device; `None` for host memory.
fn consumer_stream(arg: &Arg<'_>, device: DLDevice) -> PyResult<Option<ConsumerStream>> {
    let device = Device::from_dlpack(device)?;
    match CudaStream::current_for(device) {
        Ok(stream) => Ok(stream.map(ConsumerStream)),
        Err(err) => Err(Class::Device.err(format!("cannot import {} from {device}: {err}", type_name(&arg.array)))),
    }
}

/// Explains a producer's refusal, naming the dtype for numpy's dtype errors.
fn import_failed(arg: &Arg<'_>, cause: PyErr) -> PyErr {
    let py = arg.array.py();
    // KeyboardInterrupt, SystemExit and other BaseExceptions that are not
    // Exceptions are not import failures: they must reach the caller as they are.
    if !cause.is_instance_of::<pyo3::exceptions::PyException>(py) {
        return cause;
    }
    let described = match (&arg.library, arg.array.getattr("dtype")) {
        (Library::NumPy, Ok(dtype)) => {
            // object, str, bytes, void, datetime, timedelta: no numbers at all.
            let kind: String = dtype.getattr("kind").and_then(|k| k.extract()).unwrap_or_default();
            let class = if matches!(kind.as_str(), "O" | "U" | "S" | "V" | "M" | "m") {
                Class::NonNumericDtype
            } else {
                Class::Dtype
            };
            let dtype = dtype.str().map(|s| s.to_string()).unwrap_or_default();
            class.err(format!(
                "cannot import a numpy array of dtype {dtype}: {cause}; accepted: {ACCEPTED_DTYPES} \
                 (native byte order)"
            ))
        }
        _ => Class::DLPack.err(format!("cannot import {} through DLPack: {cause}", type_name(&arg.array))),
    };
    described.set_cause(py, Some(cause));
    described
}

/// Inputs at least this large are computed with the GIL released: below it,
/// releasing and re-taking the GIL costs more than another thread could gain.
pub(crate) const GIL_RELEASE_MIN_ELEMENTS: usize = 8192;

/// Runs `work` (on `elements` input elements), the GIL released when large,
/// a panic inside tch turned into an error ([`crate::error::no_panic`]), with
/// libtorch's team on this thread fitted to the call's size and the
/// machine's load for its duration ([`crate::threads`]: small calls serial,
/// large ones on the cores other work leaves free).
///
/// `work` owns what it computes on (tensors are `Send`); dropping imported
/// tensors inside it is fine: producers' deleters take the GIL themselves.
pub(crate) fn compute<T: Send>(
    py: Python<'_>,
    elements: usize,
    work: impl FnOnce() -> crate::Result<T> + Send,
) -> crate::Result<T> {
    let guarded = move || {
        let _team = crate::threads::fit(elements);
        crate::error::no_panic(work)
    };
    if elements >= GIL_RELEASE_MIN_ELEMENTS {
        py.detach(guarded)
    } else {
        guarded()
    }
}

/// Imports several arguments of one call: all real arrays must come from one
/// library (Python scalars and lists follow it). Returns the tensors, in
/// order, and the library to return results in.
pub(crate) fn import_all(objs: &[&Bound<'_, PyAny>]) -> PyResult<(Vec<Tensor>, Library)> {
    let args = objs.iter().map(|obj| classify(obj)).collect::<PyResult<Vec<_>>>()?;
    let library = common_library(&args)?;
    let mut tensors =
        args.iter().map(|arg| import(arg).map(|imported| imported.tensor)).collect::<PyResult<Vec<_>>>()?;
    if !placement::chosen() {
        same_device(&args, &mut tensors)?;
    }
    Ok((tensors, library))
}

/// Without `device=`, a call computes where its arrays live: they must share
/// one device, and Python scalars and lists (imported to host memory) follow.
fn same_device(args: &[Arg<'_>], tensors: &mut [Tensor]) -> PyResult<()> {
    let mut home: Option<Device> = None;
    for (arg, tensor) in args.iter().zip(tensors.iter()) {
        let here = Device::from_tch(tensor.device())?;
        match home {
            _ if arg.weak => {}
            None => home = Some(here),
            Some(first) if first != here => return Err(placement::mixed_devices(first, here)),
            Some(_) => {}
        }
    }
    if let Some(home) = home {
        for (arg, tensor) in args.iter().zip(tensors.iter_mut()) {
            if arg.weak {
                *tensor = placement::move_to(tensor.shallow_clone(), home)?;
            }
        }
    }
    Ok(())
}

/// Hands several results back as a tuple of `library` arrays (SciPy's tuple
/// returns). For torch, each input that requires grad must be reached by one
/// of the results, not by each ([`wrap_torch`]).
pub(crate) fn wrap_tuple(py: Python<'_>, library: &Library, tensors: Vec<Tensor>) -> PyResult<Py<PyAny>> {
    Ok(PyTuple::new(py, wrap_all(py, library, tensors)?)?.into_any().unbind())
}

/// Hands several results back as `library` arrays, each input that requires
/// grad reached by one of them (see [`wrap_tuple`]).
pub(crate) fn wrap_all(py: Python<'_>, library: &Library, tensors: Vec<Tensor>) -> PyResult<Vec<Py<PyAny>>> {
    let library = match library {
        Library::Torch { grad: Some(inputs) } => {
            let tensors: Vec<&Tensor> = tensors.iter().collect();
            check_gradients(py, &tensors, inputs)?;
            Library::Torch { grad: None }
        }
        library => library.clone(),
    };
    tensors.into_iter().map(|t| wrap(py, &library, t, false)).collect()
}

/// Hands `tensor` back as an array of `library`. With `ufunc_scalar`, a 0-d
/// numpy result becomes a numpy scalar, as NumPy/SciPy ufuncs return.
/// torch results: see [`wrap_torch`].
pub(crate) fn wrap(py: Python<'_>, library: &Library, tensor: Tensor, ufunc_scalar: bool) -> PyResult<Py<PyAny>> {
    let mut tensor = placement::send_home(tensor)?;
    let from_dlpack = match library {
        Library::Torch { grad } => return wrap_torch(py, tensor, grad.as_deref()),
        Library::NumPy => {
            // Fast path: build the ndarray (or the ufunc's scalar) directly
            // over the tensor's memory.
            match dlpack::numpy_array::to_numpy(py, tensor, ufunc_scalar)? {
                Ok(array) => return Ok(array.unbind()),
                Err(declined) => tensor = declined,
            }
            numpy(py)?.from_dlpack.bind(py).clone()
        }
        Library::Jax => {
            // JAX imports only compact strides: overlapping or broadcast views
            // (`unfold`, `expand`) and other strided results are made contiguous for it.
            if !tensor.is_contiguous() {
                tensor = tensor.f_contiguous().map_err(crate::Error::from)?;
            }
            if let Some((_, build)) = jax_exchange(py)? {
                return Ok(build.bind(py).call1((legacy_capsule(py, tensor)?,))?.unbind());
            }
            constructor(py, &JAX)?
        }
        Library::CuPy => constructor(py, &CUPY)?,
        Library::Namespace { name, namespace } => {
            if name == array_api_strict::NAME {
                // Fast path: the ndarray built directly, wrapped as its `from_dlpack` wraps it.
                match dlpack::numpy_array::to_numpy(py, tensor, false)? {
                    Ok(array) => return Ok(array_api_strict::build(array)?.unbind()),
                    Err(declined) => tensor = declined,
                }
            }
            namespace.bind(py).getattr(intern!(py, "from_dlpack"))?
        }
    };
    let zero_dim = tensor.dim() == 0;
    let result = from_dlpack.call1((Bound::new(py, DlpackTensor::new(tensor)?)?,))?;
    if ufunc_scalar && zero_dim && matches!(library, Library::NumPy) {
        return Ok(result.get_item(())?.unbind());
    }
    Ok(result.unbind())
}

/// A torch result, as the `at::Tensor` it is (with its autograd graph), after
/// [`check_gradients`] for the inputs that require grad (`grad`).
fn wrap_torch(py: Python<'_>, tensor: Tensor, grad: Option<&[Py<PyAny>]>) -> PyResult<Py<PyAny>> {
    if let Some(inputs) = grad {
        check_gradients(py, &[&tensor], inputs)?;
    }
    // a lazy conjugate or negation (ihfft's conj view) becomes plain memory,
    // as SciPy's results are (`.numpy()` refuses a conjugate view)
    let tensor = tensor_impl::resolve_lazy(tensor)?;
    Ok(tensor_impl::to_python(py, &constructor(py, &TORCH)?, &tensor)?.unbind())
}

/// Refuses ([`Class::NotDifferentiable`]) results that would come back cut
/// from an input that requires grad: each such input must be reached by the
/// autograd graph of one of the floating `outputs`. Routines whose work leaves
/// libtorch's autograd (CPU kernels, host arithmetic, iterative solvers)
/// detach their inputs or compute without a graph, and land here.
fn check_gradients(py: Python<'_>, outputs: &[&Tensor], inputs: &[Py<PyAny>]) -> PyResult<()> {
    let outputs: Vec<&Tensor> = outputs.iter().copied().filter(|t| t.is_floating_point() || t.is_complex()).collect();
    if outputs.is_empty() {
        return Ok(()); // integer or boolean results: nothing to differentiate
    }
    for input in inputs {
        let input = input.bind(py);
        let mut reached = false;
        for output in &outputs {
            if tensor_impl::graph_reaches(output, input)? {
                reached = true;
                break;
            }
        }
        if !reached {
            let described = format!(
                "{} tensor of shape {}",
                input.getattr(intern!(py, "dtype"))?,
                input.getattr(intern!(py, "shape"))?.call_method0(intern!(py, "__repr__"))?
            );
            return Err(Class::NotDifferentiable.err(format!(
                "an input requires grad (a {described}), but the result does not carry its gradient: \
                 torchbridge does not differentiate this routine in that argument (or with these \
                 parameters); call it on `x.detach()`, or under `torch.no_grad()`, for the value alone"
            )));
        }
    }
    Ok(())
}

/// `tensor` as a Python `torch.Tensor` (the same `at::Tensor`: no copy, no
/// DLPack capsule), for callers that hand torch views to the user's own torch
/// code (`tb.apply`, `tb.torch`); torch must be imported.
pub(crate) fn torch_tensor(py: Python<'_>, tensor: &Tensor) -> PyResult<Py<PyAny>> {
    Ok(tensor_impl::to_python(py, &constructor(py, &TORCH)?, tensor)?.unbind())
}

/// `library`'s constructor (see [`Optional`]).
fn constructor<'py>(py: Python<'py>, library: &Optional) -> PyResult<Bound<'py, PyAny>> {
    match library.get(py)? {
        Some((_, constructor)) => Ok(constructor.bind(py).clone()),
        None => Err(Class::InputType.err(format!("{} is not imported", library.module))),
    }
}
