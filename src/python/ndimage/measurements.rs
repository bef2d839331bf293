//! The measurements of `scipy.ndimage._measurements` (see
//! `crate::ops::ndimage::measurements`): `label`, `find_objects`, and the
//! statistics of labeled regions (`sum_labels`, `mean`, `minimum`, ...,
//! `histogram`).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use tch::Tensor;

use super::super::container::{compute, import_all, is_scalar, wrap, Library};
use super::super::placement::on_device;
use super::super::signal::{map, Device};
use super::filters::output_arg;
use crate::ops::ndimage::measurements::{self as ops, Extreme, Groups, Index, Matching};
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

/// What a labeled statistic's call computed: its results (on the host
/// side of the call), the broadcast shape positions refer to, and whether
/// the index was an array (the result one per entry) or not (one value).
struct Measured {
    results: Vec<Tensor>,
    shape: Vec<i64>,
    per_entry: bool,
    library: Library,
}

/// Groups `input` by `labels` and `index` (SciPy's rules, see [`Groups`])
/// and computes `op` on the groups where the arrays live.
fn measure(
    py: Python<'_>,
    device: Device<'_, '_>,
    input: &Bound<'_, PyAny>,
    labels: Option<&Bound<'_, PyAny>>,
    index: Option<&Bound<'_, PyAny>>,
    matching: Matching,
    op: impl FnOnce(&Groups) -> crate::Result<Vec<Tensor>> + Send,
) -> PyResult<Measured> {
    let labels = labels.filter(|l| !l.is_none());
    let index = index.filter(|i| !i.is_none());
    let scalar_index = index.map(is_scalar).transpose()?.unwrap_or(false);
    let per_entry = labels.is_some() && index.is_some() && !scalar_index;
    let mut arrays = vec![input];
    arrays.extend(labels);
    arrays.extend(index.filter(|_| labels.is_some()));
    on_device(device, || {
        let (tensors, library) = import_all(&arrays)?;
        let elements = tensors.iter().map(Tensor::numel).sum();
        let (results, shape) = compute(py, elements, move || {
            let which = match tensors.get(2) {
                None => Index::Positive,
                Some(i) if scalar_index => Index::Scalar(i),
                Some(i) => Index::Array(i),
            };
            let groups = Groups::new(&tensors[0], tensors.get(1), which, matching)?;
            let results = op(&groups)?;
            Ok((results, groups.shape().to_vec()))
        })?;
        Ok(Measured { results, shape, per_entry, library })
    })
}

/// One result per group, in the caller's container: an array with an index
/// array, else a scalar (a NumPy scalar for NumPy callers, as SciPy's).
fn measured_values(py: Python<'_>, measured: Measured) -> PyResult<Py<PyAny>> {
    let Measured { mut results, library, .. } = measured;
    wrap(py, &library, results.swap_remove(0), true)
}

/// Flat positions as SciPy's coordinate tuples: one tuple of Python ints
/// for a single group (or a 0-d index array), a list of them (flat over the
/// index) for an index array.
fn coordinates(py: Python<'_>, positions: &Tensor, shape: &[i64], per_entry: bool) -> PyResult<Py<PyAny>> {
    let flat = Vec::<i64>::try_from(
        &positions.f_to_device(tch::Device::Cpu).map_err(Error::from)?.f_reshape([-1]).map_err(Error::from)?,
    )
    .map_err(Error::from)?;
    let unravel = |mut p: i64| {
        let mut c = vec![0i64; shape.len()];
        for (slot, &len) in c.iter_mut().zip(shape).rev() {
            *slot = if len > 0 { p % len } else { 0 };
            p = if len > 0 { p / len } else { 0 };
        }
        PyTuple::new(py, c)
    };
    // A 0-d index array gives one position too (SciPy's `np.isscalar` of the result).
    if !per_entry || positions.dim() == 0 {
        return Ok(unravel(flat.first().copied().unwrap_or(0))?.into_any().unbind());
    }
    let list = PyList::empty(py);
    for p in flat {
        list.append(unravel(p)?)?;
    }
    Ok(list.into_any().unbind())
}

/// The docstring paragraph the labeled statistics share.
macro_rules! labeled_note {
    () => {
        "``labels`` (broadcast against ``input``) and ``index`` choose the\n\
         elements as SciPy's do: without ``labels``, all of ``input``; with\n\
         ``index=None``, those whose label is positive; a scalar ``index``, those\n\
         whose label equals it (one value, a NumPy scalar for NumPy input); an\n\
         array ``index``, one result per entry, in its shape. With labels of an\n\
         integer dtype in ``0 .. labels.size``, an array index is truncated to\n\
         integers, as SciPy's ``bincount`` path truncates it.\n\n\
         torchbridge: scatter reductions over the groups (one binary search per\n\
         label into the sorted index), on the arrays' device.\n\n"
    };
}

macro_rules! labeled_statistic {
    ($(#[$doc:meta])* $name:ident => $op:expr) => {
        $(#[$doc])*
        #[doc = labeled_note!()]
        #[doc = device_note!()]
        #[pyfunction]
        #[pyo3(signature = (input, labels = None, index = None, *, device = None), text_signature = "(input, labels=None, index=None, *, device=None)")]
        pub(super) fn $name(
            py: Python<'_>,
            input: &Bound<'_, PyAny>,
            labels: Option<&Bound<'_, PyAny>>,
            index: Option<&Bound<'_, PyAny>>,
            device: Device<'_, '_>,
        ) -> PyResult<Py<PyAny>> {
            let measured = measure(py, device, input, labels, index, Matching::Statistics, |g| Ok(vec![$op(g)?]))?;
            measured_values(py, measured)
        }
    };
}

labeled_statistic!(
    /// Calculate the sum of the values of the array.
    ///
    /// The sum of each group: float64 with an index array (SciPy's
    /// ``bincount``), else NumPy's ``sum`` dtype (integers and bools in int64:
    /// unsigned integers too, where NumPy gives uint64).
    ///
    sum_labels => ops::sum_labels
);
labeled_statistic!(
    /// Calculate the sum of the values of the array.
    ///
    /// SciPy's older name for ``sum_labels``, the same function.
    ///
    sum => ops::sum_labels
);
labeled_statistic!(
    /// Calculate the mean of the values of an array at labels.
    ///
    /// Sum over count in float64 (complex128 for complex input without an
    /// index array); a group with no elements gives NaN.
    ///
    mean => ops::mean
);
labeled_statistic!(
    /// Calculate the variance of the values of an N-D image array, optionally at specified sub-regions.
    ///
    /// The mean squared deviation from the group's mean, in two passes as
    /// SciPy's; float64; NaN for a group with no elements.
    ///
    variance => ops::variance
);
labeled_statistic!(
    /// Calculate the standard deviation of the values of an N-D image array, optionally at specified sub-regions.
    ///
    /// The square root of ``variance``.
    ///
    standard_deviation => |g| ops::variance(g).and_then(|v| Ok(v.f_sqrt()?))
);
labeled_statistic!(
    /// Calculate the minimum of the values of an array over labeled regions.
    ///
    /// In the input's dtype. A single group's minimum is NaN if any value is
    /// (NumPy's ``min``), and an empty group raises ``ValueError``; with an
    /// index array values rank as NumPy's ``argsort`` ranks them, NaN last (a
    /// group's minimum is NaN only if all its values are), and an entry with
    /// no elements gives 0, as SciPy's.
    ///
    minimum => |g| ops::extreme(g, Extreme::Minimum)
);
labeled_statistic!(
    /// Calculate the maximum of the values of an array over labeled regions.
    ///
    /// In the input's dtype; NaN if any of the group's values is; an empty
    /// single group raises ``ValueError``, an index entry with no elements
    /// gives 0, as SciPy's.
    ///
    maximum => |g| ops::extreme(g, Extreme::Maximum)
);
labeled_statistic!(
    /// Calculate the median of the values of an array over labeled regions.
    ///
    /// The mean of the middle two values (float64 for integer and bool input).
    /// A single group's is NaN if any value is, or if it is empty; with an
    /// index array values rank NaN last, and an entry with no elements gets
    /// SciPy's value for it: the smallest value of the smallest label.
    ///
    median => ops::median
);

/// The position of an extreme as a coordinate tuple (or a list of them).
fn position(
    py: Python<'_>,
    device: Device<'_, '_>,
    input: &Bound<'_, PyAny>,
    labels: Option<&Bound<'_, PyAny>>,
    index: Option<&Bound<'_, PyAny>>,
    which: Extreme,
) -> PyResult<Py<PyAny>> {
    let measured = measure(py, device, input, labels, index, Matching::Statistics, move |g| {
        Ok(vec![ops::extreme_position(g, which)?])
    })?;
    coordinates(py, &measured.results[0], &measured.shape, measured.per_entry)
}

/// Find the positions of the minimums of the values of an array at labels.
///
/// The coordinates (a tuple of ints) of the first element, in raster order,
/// holding the group's ``minimum``; a list of such tuples for an index array
/// (``(0, ..., 0)`` for an entry with no elements). SciPy's index-array path
/// picks among tied minima by an unstable sort; this picks the first in
/// raster order, as SciPy's single-group path does.
///
#[doc = labeled_note!()]
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, labels = None, index = None, *, device = None), text_signature = "(input, labels=None, index=None, *, device=None)")]
pub(super) fn minimum_position(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    labels: Option<&Bound<'_, PyAny>>,
    index: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    position(py, device, input, labels, index, Extreme::Minimum)
}

/// Find the positions of the maximums of the values of an array at labels.
///
/// As ``minimum_position``, for the group's ``maximum``.
///
#[doc = labeled_note!()]
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, labels = None, index = None, *, device = None), text_signature = "(input, labels=None, index=None, *, device=None)")]
pub(super) fn maximum_position(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    labels: Option<&Bound<'_, PyAny>>,
    index: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    position(py, device, input, labels, index, Extreme::Maximum)
}

/// Calculate the minimums and maximums of the values of an array at labels, along with their positions.
///
/// ``(minimums, maximums, min_positions, max_positions)``: as ``minimum``,
/// ``maximum``, ``minimum_position`` and ``maximum_position`` give them.
///
#[doc = labeled_note!()]
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, labels = None, index = None, *, device = None), text_signature = "(input, labels=None, index=None, *, device=None)")]
pub(super) fn extrema(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    labels: Option<&Bound<'_, PyAny>>,
    index: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let measured = measure(py, device, input, labels, index, Matching::Statistics, |g| {
        Ok(vec![
            ops::extreme(g, Extreme::Minimum)?,
            ops::extreme(g, Extreme::Maximum)?,
            ops::extreme_position(g, Extreme::Minimum)?,
            ops::extreme_position(g, Extreme::Maximum)?,
        ])
    })?;
    let Measured { results, shape, per_entry, library } = measured;
    let mut results = results.into_iter();
    let mut next = || results.next().expect("four results");
    let (low, high, at_low, at_high) = (next(), next(), next(), next());
    let items = [
        wrap(py, &library, low, true)?,
        wrap(py, &library, high, true)?,
        coordinates(py, &at_low, &shape, per_entry)?,
        coordinates(py, &at_high, &shape, per_entry)?,
    ];
    Ok(PyTuple::new(py, items)?.into_any().unbind())
}

/// Calculate the center of mass of the values of an array at labels.
///
/// Each axis's index weighted by the values, over their sum, in float64: a
/// tuple of floats, or a list of them for a 1-D index array (a group
/// summing to 0 gives inf or NaN, as SciPy's). An index array of another
/// rank raises ``UnsupportedParameterError`` (SciPy's result for it is a
/// transposed jumble, or a ``TypeError`` for 0-d).
///
#[doc = labeled_note!()]
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, labels = None, index = None, *, device = None), text_signature = "(input, labels=None, index=None, *, device=None)")]
pub(super) fn center_of_mass(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    labels: Option<&Bound<'_, PyAny>>,
    index: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let measured =
        measure(py, device, input, labels, index, Matching::Statistics, |g| Ok(vec![ops::center_of_mass(g)?]))?;
    let rows = measured.results[0].f_to_device(tch::Device::Cpu).map_err(Error::from)?;
    let tuple_of = |row: &Tensor| -> PyResult<Bound<'_, PyTuple>> {
        PyTuple::new(py, Vec::<f64>::try_from(&row.f_contiguous().map_err(Error::from)?).map_err(Error::from)?)
    };
    if !measured.per_entry {
        return Ok(tuple_of(&rows)?.into_any().unbind());
    }
    if rows.dim() != 2 {
        return Err(Error::NotImplemented("center_of_mass with an index array that is not 1-D".into()).into());
    }
    let list = PyList::empty(py);
    for k in 0..rows.size()[0] {
        list.append(tuple_of(&rows.get(k))?)?;
    }
    Ok(list.into_any().unbind())
}

/// Calculate the histogram of the values of an array, optionally at labels.
///
/// The counts (int64) of values in ``bins`` equal bins from ``min`` to
/// ``max`` (``numpy.linspace(min, max, bins + 1)`` as edges; each bin closed
/// on the left, the last on both sides; NaN and values outside are not
/// counted). Without ``labels``, of all of ``input``; with ``index=None``, of
/// the positively labeled elements; with an ``index``, SciPy's
/// ``labeled_comprehension``: the index must convert to the labels' dtype
/// without loss (``ValueError`` otherwise), an array index gives a NumPy
/// object array of its shape holding each entry's counts in the caller's
/// array type, and an entry (or scalar index) with no elements gives
/// ``None``.
///
/// torchbridge: one ``bincount`` over (group, bin) on the arrays' device.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, min, max, bins, labels = None, index = None, *, device = None), text_signature = "(input, min, max, bins, labels=None, index=None, *, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn histogram(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    min: f64,
    max: f64,
    bins: i64,
    labels: Option<&Bound<'_, PyAny>>,
    index: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let labels = labels.filter(|l| !l.is_none());
    let index = index.filter(|i| !i.is_none());
    if labels.is_none() && index.is_some() {
        return Err(Error::InvalidArgument("index without defined labels".into()).into());
    }
    let scalar_index = index.map(is_scalar).transpose()?.unwrap_or(false);
    // labeled_comprehension treats a scalar index as a one-entry array.
    let entries = match index {
        Some(i) if scalar_index => Some(PyList::new(py, [i])?.into_any()),
        other => other.cloned(),
    };
    let measured = measure(py, device, input, labels, entries.as_ref(), Matching::Comprehension, move |g| {
        let (counts, occupied) = ops::histogram(g, min, max, bins)?;
        Ok(vec![counts, occupied])
    })?;
    let Measured { results, per_entry, library, .. } = measured;
    let mut results = results.into_iter();
    let (counts, occupied) = (results.next().expect("counts"), results.next().expect("occupancy"));
    if !per_entry {
        return wrap(py, &library, counts, false);
    }
    let shape = occupied.size();
    let occupied = Vec::<bool>::try_from(
        &occupied.f_to_device(tch::Device::Cpu).map_err(Error::from)?.f_reshape([-1]).map_err(Error::from)?,
    )
    .map_err(Error::from)?;
    let rows = counts.f_reshape([-1, bins]).map_err(Error::from)?;
    let mut items = Vec::with_capacity(occupied.len());
    for (k, here) in occupied.iter().enumerate() {
        items.push(if *here { wrap(py, &library, rows.get(k as i64), false)? } else { py.None() });
    }
    if scalar_index {
        return Ok(items.swap_remove(0));
    }
    // SciPy's object array of the index's shape, each entry filled in (so
    // NumPy does not try to stack the histograms into a 2-D array).
    let np = py.import("numpy")?;
    let shape: Vec<i64> = shape;
    let out = np.call_method1("empty", (PyTuple::new(py, &shape)?, "O"))?;
    let flat = out.call_method1("reshape", (-1,))?;
    for (k, item) in items.into_iter().enumerate() {
        flat.set_item(k, item)?;
    }
    Ok(out.unbind())
}

/// Adds `label`, `find_objects` and the labeled statistics to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(label, module)?)?;
    module.add_function(wrap_pyfunction!(find_objects, module)?)?;
    for function in [
        wrap_pyfunction!(sum_labels, module)?,
        wrap_pyfunction!(sum, module)?,
        wrap_pyfunction!(mean, module)?,
        wrap_pyfunction!(variance, module)?,
        wrap_pyfunction!(standard_deviation, module)?,
        wrap_pyfunction!(minimum, module)?,
        wrap_pyfunction!(maximum, module)?,
        wrap_pyfunction!(median, module)?,
        wrap_pyfunction!(minimum_position, module)?,
        wrap_pyfunction!(maximum_position, module)?,
        wrap_pyfunction!(extrema, module)?,
        wrap_pyfunction!(center_of_mass, module)?,
        wrap_pyfunction!(histogram, module)?,
    ] {
        module.add_function(function)?;
    }
    Ok(())
}
