//! `torchbridge._core.aten`: ATen operators by name on any array, without
//! the Python torch package (the layer under `torchbridge.ops`).
//!
//! Python values become [`aten::Arg`]s without looking at the schema (the
//! shim matches them against it): arrays are imported zero-copy (read-only
//! memory as `ConstTensor`, so operators that write are refused), numbers,
//! strings and None stay what they are, lists become int/float/bool/tensor
//! lists, and dtype objects (numpy, torch, `float`) become `ScalarType`s.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};

use super::container::{self, classify, common_library, compute, import, wrap, Library};
use super::errors::Class;
use crate::aten::{self, Arg, Value};

/// numpy's scalar and dtype types, looked up once.
struct NumPyTypes {
    generic: Py<PyType>,
    integer: Py<PyType>,
    floating: Py<PyType>,
    bool_: Py<PyType>,
    dtype: Py<PyType>,
    dtype_fn: Py<PyAny>,
}

fn numpy_types(py: Python<'_>) -> PyResult<&NumPyTypes> {
    static TYPES: PyOnceLock<NumPyTypes> = PyOnceLock::new();
    TYPES.get_or_try_init(py, || {
        let np = py.import("numpy")?;
        let ty = |name: &str| -> PyResult<Py<PyType>> { Ok(np.getattr(name)?.cast_into::<PyType>()?.unbind()) };
        Ok(NumPyTypes {
            generic: ty("generic")?,
            integer: ty("integer")?,
            floating: ty("floating")?,
            bool_: ty("bool_")?,
            dtype: ty("dtype")?,
            dtype_fn: np.getattr("dtype")?.unbind(),
        })
    })
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().fully_qualified_name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// `torch.<name>` objects (device, dtype, layout, memory_format), recognised
/// by their type so that torch need not be imported.
fn torch_object_kind(obj: &Bound<'_, PyAny>) -> Option<String> {
    let ty = obj.get_type();
    let module = ty.module().ok()?.to_string();
    (module == "torch").then(|| ty.name().map(|n| n.to_string()).unwrap_or_default())
}

fn dtype_arg(name: &str) -> PyResult<Arg> {
    aten::dtype_named(name).map(Arg::Dtype).ok_or_else(|| {
        Class::Dtype.err(format!("dtype {name} has no libtorch ScalarType; accepted: {}", crate::ACCEPTED_DTYPES))
    })
}

/// Converts one call's Python arguments, remembering the arrays' libraries.
struct Converter<'py> {
    py: Python<'py>,
    arrays: Vec<container::Arg<'py>>,
    elements: usize,
}

impl<'py> Converter<'py> {
    /// The dtype named by a dtype-like object, if `obj` is one.
    fn dtype_like(&self, obj: &Bound<'py, PyAny>) -> PyResult<Option<Arg>> {
        let np = numpy_types(self.py)?;
        if obj.is_instance(np.dtype.bind(self.py))? {
            return dtype_arg(&obj.getattr("name")?.extract::<String>()?).map(Some);
        }
        if let Ok(ty) = obj.cast::<PyType>() {
            if ty.is_subclass(np.generic.bind(self.py))? {
                let name = np.dtype_fn.bind(self.py).call1((ty,))?.getattr("name")?.extract::<String>()?;
                return dtype_arg(&name).map(Some);
            }
            let builtin = |t: &Bound<'py, PyType>| ty.is(t);
            let py = self.py;
            if builtin(&py.get_type::<PyBool>()) {
                return Ok(Some(Arg::Dtype(crate::DType::Bool)));
            }
            if builtin(&py.get_type::<PyInt>()) {
                return Ok(Some(Arg::Dtype(crate::DType::Int64)));
            }
            if builtin(&py.get_type::<PyFloat>()) {
                return Ok(Some(Arg::Dtype(crate::DType::Float64)));
            }
            if builtin(&py.get_type::<PyComplex>()) {
                return Ok(Some(Arg::Dtype(crate::DType::Complex128)));
            }
        }
        Ok(None)
    }

    /// A Python scalar as an Arg, if `obj` is one (numpy scalars included).
    fn scalar(&self, obj: &Bound<'py, PyAny>) -> PyResult<Option<Arg>> {
        if obj.is_none() {
            return Ok(Some(Arg::None));
        }
        let np = numpy_types(self.py)?;
        if obj.is_instance_of::<PyBool>() || obj.is_instance(np.bool_.bind(self.py))? {
            return Ok(Some(Arg::Bool(obj.is_truthy()?)));
        }
        if obj.is_instance_of::<PyInt>() || obj.is_instance(np.integer.bind(self.py))? {
            let value: i64 = obj
                .call_method0("__index__")?
                .extract()
                .map_err(|_| Class::InvalidArgument.err(format!("integer {obj} does not fit in int64 (ATen's int)")))?;
            return Ok(Some(Arg::Int(value)));
        }
        if obj.is_instance_of::<PyFloat>() || obj.is_instance(np.floating.bind(self.py))? {
            return Ok(Some(Arg::Float(obj.call_method0("__float__")?.extract()?)));
        }
        if obj.is_instance_of::<PyComplex>() || (obj.is_instance(np.generic.bind(self.py))? && obj.hasattr("imag")?) {
            let c = obj.call_method0("__complex__")?;
            return Ok(Some(Arg::Complex(c.getattr("real")?.extract()?, c.getattr("imag")?.extract()?)));
        }
        if obj.is_instance_of::<PyString>() {
            return Ok(Some(Arg::Str(obj.extract::<String>()?)));
        }
        Ok(None)
    }

    fn array(&mut self, obj: &Bound<'py, PyAny>) -> PyResult<Arg> {
        let classified = classify(obj)?;
        if classified.weak {
            return Err(Class::InputType.err(format!("expected an array, got {}", type_name(obj))));
        }
        let imported = import(&classified)?;
        self.elements += imported.tensor.numel();
        self.arrays.push(classified);
        Ok(if imported.read_only || imported.copied.is_some() {
            Arg::ConstTensor(imported.tensor)
        } else {
            Arg::Tensor(imported.tensor)
        })
    }

    fn list(&mut self, items: Vec<Bound<'py, PyAny>>) -> PyResult<Arg> {
        let scalars = items.iter().map(|item| self.scalar(item)).collect::<PyResult<Vec<_>>>()?;
        if scalars.iter().all(Option::is_some) {
            let scalars: Vec<Arg> = scalars.into_iter().flatten().collect();
            if scalars.iter().all(|a| matches!(a, Arg::Bool(_))) && !scalars.is_empty() {
                return Ok(Arg::BoolList(scalars.iter().map(|a| matches!(a, Arg::Bool(true))).collect()));
            }
            if scalars.iter().all(|a| matches!(a, Arg::Int(_))) {
                return Ok(Arg::IntList(scalars.iter().map(|a| if let Arg::Int(i) = a { *i } else { 0 }).collect()));
            }
            if scalars.iter().all(|a| matches!(a, Arg::Int(_) | Arg::Float(_))) {
                return Ok(Arg::FloatList(
                    scalars
                        .iter()
                        .map(|a| match a {
                            Arg::Int(i) => *i as f64,
                            Arg::Float(f) => *f,
                            _ => 0.0,
                        })
                        .collect(),
                ));
            }
            if scalars.iter().any(|a| !matches!(a, Arg::None)) {
                return Err(Class::InputType
                    .err("a list argument must hold only ints, only numbers, only bools, or only arrays (and None)"));
            }
        }
        let mut tensors = Vec::with_capacity(items.len());
        let mut read_only = false;
        for item in &items {
            if item.is_none() {
                tensors.push(None);
                continue;
            }
            match self.array(item)? {
                Arg::Tensor(t) => tensors.push(Some(t)),
                Arg::ConstTensor(t) => {
                    read_only = true;
                    tensors.push(Some(t));
                }
                _ => unreachable!("Converter::array returns tensors"),
            }
        }
        if tensors.iter().any(Option::is_none) {
            return Ok(Arg::OptionalTensorList(tensors));
        }
        let tensors: Vec<_> = tensors.into_iter().flatten().collect();
        Ok(if read_only { Arg::ConstTensorList(tensors) } else { Arg::TensorList(tensors) })
    }

    fn convert(&mut self, obj: &Bound<'py, PyAny>) -> PyResult<Arg> {
        if let Some(arg) = self.scalar(obj)? {
            return Ok(arg);
        }
        if let Some(arg) = self.dtype_like(obj)? {
            return Ok(arg);
        }
        if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
            let items = obj.try_iter()?.collect::<PyResult<Vec<_>>>()?;
            return self.list(items);
        }
        match torch_object_kind(obj).as_deref() {
            Some("dtype") => {
                let name = obj.str()?.to_string();
                return dtype_arg(name.trim_start_matches("torch."));
            }
            Some("device" | "layout" | "memory_format") => return Ok(Arg::Str(obj.str()?.to_string())),
            _ => {}
        }
        self.array(obj)
    }
}

/// Hands `t` back in `library`'s type (as an array, never a numpy scalar).
fn wrap_tensor(py: Python<'_>, library: &Library, t: tch::Tensor) -> PyResult<Py<PyAny>> {
    wrap(py, library, t, false)
}

/// A libtorch output as a Python value, tensors in the caller's library.
fn to_python(py: Python<'_>, library: &Library, value: Value) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Value::None => py.None(),
        Value::Bool(b) => PyBool::new(py, b).to_owned().into_any().unbind(),
        Value::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        Value::Float(f) => f.into_pyobject(py)?.into_any().unbind(),
        Value::Complex(re, im) => PyComplex::from_doubles(py, re, im).into_any().unbind(),
        Value::Str(s) | Value::Device(s) => PyString::new(py, &s).into_any().unbind(),
        Value::Tensor(t) => wrap_tensor(py, library, t)?,
        Value::TensorList(ts) => {
            let items = ts.into_iter().map(|t| wrap_tensor(py, library, t)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::OptionalTensorList(ts) => {
            let items = ts
                .into_iter()
                .map(|t| t.map_or_else(|| Ok(py.None()), |t| wrap_tensor(py, library, t)))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::IntList(v) => PyList::new(py, v)?.into_any().unbind(),
        Value::FloatList(v) => PyList::new(py, v)?.into_any().unbind(),
        Value::BoolList(v) => PyList::new(py, v)?.into_any().unbind(),
        Value::Other(kind) => {
            return Err(Class::UnsupportedParameter
                .err(format!("the operator returned a {kind}, which torchbridge.ops cannot convert")))
        }
    })
}

/// Calls the ATen operator `name` ("aten::add.Tensor", or "aten::add" to pick
/// the overload that accepts the arguments) on any arrays; tensors come back
/// in the caller's array type. One output is returned as is, several as a
/// tuple, none as None.
#[pyfunction]
#[pyo3(signature = (name, /, *args, **kwargs))]
fn call(
    py: Python<'_>,
    name: &str,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let mut converter = Converter { py, arrays: Vec::new(), elements: 0 };
    let positional = args.iter().map(|a| converter.convert(&a)).collect::<PyResult<Vec<_>>>()?;
    let mut keywords = Vec::new();
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            keywords.push((key.extract::<String>()?, converter.convert(&value)?));
        }
    }
    let library = common_library(&converter.arrays)?.unchecked();
    let name = name.to_owned();
    let outputs = compute(py, converter.elements, move || {
        let (names, values): (Vec<String>, Vec<Arg>) = keywords.into_iter().unzip();
        let pairs: Vec<(&str, Arg)> = names.iter().map(String::as_str).zip(values).collect();
        aten::call(&name, &positional, &pairs)
    });
    let outputs = outputs?;
    let mut values = outputs.into_iter().map(|v| to_python(py, &library, v)).collect::<PyResult<Vec<_>>>()?;
    Ok(match values.len() {
        0 => py.None(),
        1 => values.remove(0),
        _ => PyTuple::new(py, values)?.into_any().unbind(),
    })
}

/// The schema string of `name` ("aten::add.Tensor"; without an overload, the default one).
#[pyfunction]
fn schema(name: &str) -> PyResult<String> {
    Ok(aten::schema(name)?)
}

/// The overload names of operator `op` ("aten::add"), in the order a call
/// without an overload tries them ("" is the default overload); None if there
/// is no such operator.
#[pyfunction]
fn overloads(op: &str) -> PyResult<Option<Vec<String>>> {
    Ok(aten::overloads(op)?)
}

/// Every operator in libtorch's dispatcher as "ns::name", optionally of one namespace.
#[pyfunction]
#[pyo3(signature = (namespace = None))]
fn operators(namespace: Option<&str>) -> PyResult<Vec<String>> {
    Ok(aten::operators(namespace)?)
}

/// For each array, why libtorch must not write into it ("read-only", or the
/// reason it would be a copy), or None when writes reach the caller's memory.
/// Torch tensors are always writable.
#[pyfunction]
fn unwritable(arrays: Vec<Bound<'_, PyAny>>) -> PyResult<Vec<Option<String>>> {
    arrays
        .iter()
        .map(|obj| {
            let arg = classify(obj)?;
            if matches!(arg.library, Library::Torch { .. }) {
                return Ok(None);
            }
            let imported = import(&arg)?;
            Ok(if imported.read_only {
                Some(format!("a read-only {} array", arg.library.name()))
            } else {
                imported
                    .copied
                    .map(|reason| format!("a {} array torch can only see as a copy ({reason:?})", arg.library.name()))
            })
        })
        .collect()
}

/// Adds the `aten` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "aten")?;
    module.add_function(wrap_pyfunction!(call, &module)?)?;
    module.add_function(wrap_pyfunction!(schema, &module)?)?;
    module.add_function(wrap_pyfunction!(overloads, &module)?)?;
    module.add_function(wrap_pyfunction!(operators, &module)?)?;
    module.add_function(wrap_pyfunction!(unwritable, &module)?)?;
    super::attach(parent, &module)
}
