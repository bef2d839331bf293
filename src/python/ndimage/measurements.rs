//! The measurements of `scipy.ndimage._measurements` (see
//! `crate::ops::ndimage::measurements`): `label`, `find_objects`.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::super::container::{compute, import_all};
use super::super::placement::on_device;
use super::super::signal::{map, Device};
use super::filters::output_arg;
use crate::ops::ndimage::measurements as ops;
use crate::{DType, Error};

/// The largest label `dtype` holds, for SciPy's "insufficient bit-depth" check (None: any).
fn largest_label(dtype: DType) -> Option<i64> {
    match dtype {
        DType::Bool => Some(1),
        DType::Int8 => Some(i8::MAX.into()),
        DType::UInt8 => Some(u8::MAX.into()),
        DType::Int16 => Some(i16::MAX.into()),
        DType::UInt16 => Some(u16::MAX.into()),
        DType::Int32 => Some(i32::MAX.into()),
        DType::UInt32 => Some(u32::MAX.into()),
        _ => None,
    }
}

/// Label features in an array.
///
/// The connected components of ``input``'s nonzero elements (NaN counts as
/// nonzero), connected as ``structure`` says (a symmetric boolean array of
/// shape ``(3,) * input.ndim``; by default the axis neighbours,
/// ``generate_binary_structure(input.ndim, 1)``), numbered ``1, 2, ...`` in
/// the raster order of their first elements, as SciPy numbers them.
/// Returns ``(labeled_array, num_features)``: the labels as int32 (int64 for
/// ``2**31 - 2`` elements or more), or as the dtype ``output`` names.
///
/// torchbridge: composites of libtorch ops on the input's device: each
/// round takes the smallest index over the structure's neighbours, then
/// jumps pointers until they settle (a few rounds even for long, winding
/// components). ``output`` as an array to fill raises
/// ``UnsupportedParameterError`` (a ``NotImplementedError``); SciPy's
/// ``AssertionError`` for an asymmetric structure and ``RuntimeError`` for
/// unequal ranks or too narrow an ``output`` dtype are ``ValueError``s
/// (``InvalidArgumentError``) here.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, structure = None, output = None, *, device = None), text_signature = "(input, structure=None, output=None, *, device=None)")]
pub(super) fn label(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    structure: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let structure = structure.filter(|s| !s.is_none());
    let mut arrays = vec![input];
    arrays.extend(structure);
    let count = Arc::new(AtomicI64::new(0));
    let found = Arc::clone(&count);
    let labels = map(py, device, &arrays, move |t| {
        let (labels, n) = ops::label(&t[0], t.get(1))?;
        found.store(n, Ordering::Relaxed);
        let dtype = match output {
            Some(d) => d,
            None if labels.numel() >= (1 << 31) - 2 => DType::Int64,
            None => DType::Int32,
        };
        if largest_label(dtype).is_some_and(|max| n > max) {
            return Err(Error::InvalidArgument("insufficient bit-depth in requested output type".into()));
        }
        let kind = dtype.kind().ok_or_else(|| Error::NotImplemented(format!("output dtype {}", dtype.name())))?;
        Ok(labels.f_to_kind(kind)?)
    })?;
    Ok(PyTuple::new(py, [labels, count.load(Ordering::Relaxed).into_pyobject(py)?.into_any().unbind()])?
        .into_any()
        .unbind())
}

/// Find objects in a labeled array.
///
/// For each label ``1 .. max_label`` (by default the largest label in
/// ``input``, an integer array), the tuple of slices (one per axis) of the
/// smallest box holding it, or ``None`` where the label does not occur;
/// labels below 1 are ignored.
///
/// torchbridge: the boxes are scatter reductions (``amin``/``amax`` of each
/// axis's index, per label) on the input's device; the result is a Python
/// list, as SciPy's. Non-integer input raises ``DtypeError`` (a
/// ``TypeError``, as SciPy raises).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, max_label = 0, *, device = None), text_signature = "(input, max_label=0, *, device=None)")]
pub(super) fn find_objects(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    max_label: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let (present, starts, stops) = on_device(device, || {
        let (tensors, _library) = import_all(&[input])?;
        let elements = tensors[0].numel();
        Ok(compute(py, elements, move || ops::find_objects(&tensors[0], max_label))?)
    })?;
    // SciPy's slices have no step: slice(start, stop), whose step is None.
    let slice = py.import("builtins")?.getattr("slice")?;
    let boxes = PyList::empty(py);
    for ((here, lo), hi) in present.iter().zip(&starts).zip(&stops) {
        if *here {
            let slices = lo.iter().zip(hi).map(|(&a, &b)| slice.call1((a, b))).collect::<PyResult<Vec<_>>>()?;
            boxes.append(PyTuple::new(py, slices)?)?;
        } else {
            boxes.append(py.None())?;
        }
    }
    Ok(boxes.into_any().unbind())
}

/// Adds `label` and `find_objects` to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(label, module)?)?;
    module.add_function(wrap_pyfunction!(find_objects, module)?)
}
