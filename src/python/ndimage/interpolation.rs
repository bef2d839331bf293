//! The interpolation of `scipy.ndimage._interpolation` (see
//! `crate::ops::ndimage::interpolation`).

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyString};

use super::super::signal::{map, Device};
use super::filters::output_arg;
use crate::ops::ndimage::filters::PerAxis;
use crate::ops::ndimage::interpolation::{self as ops, Mode};
use crate::{DType, Error};

/// What the interpolation docstrings end with: how torchbridge differs from SciPy.
macro_rules! interpolation_note {
    () => {
        concat!(
            "torchbridge: composites of libtorch ops on the input's device, the result in\n\
             the caller's array type. The prefilter's recursions run as matrix products\n\
             over blocks of every line at once; every point's ``(order + 1) ** ndim``\n\
             neighbours are gathered at once through SciPy's boundary index maps and\n\
             contracted with SciPy's B-spline weights. Values agree with SciPy to a few\n\
             ulps (float64); integer outputs are rounded and clipped as SciPy's. ``output``\n\
             may be ``None`` or a dtype; an array to write into raises\n\
             ``UnsupportedParameterError`` (a ``NotImplementedError``). Complex input is\n\
             interpolated by real and imaginary parts with a real ``cval`` (a real output\n\
             dtype is promoted to complex without SciPy's warning). SciPy's\n\
             ``RuntimeError`` for a bad order, mode, shape or matrix is a ``ValueError``\n\
             (``InvalidArgumentError``) here.\n\n",
            device_note!()
        )
    };
}

/// `mode`: one of SciPy's names.
struct ModeArg(Mode);

impl<'a, 'py> FromPyObject<'a, 'py> for ModeArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<ModeArg> {
        let name: String = obj.extract().map_err(|_| {
            PyErr::from(Error::InvalidArgument("boundary mode not supported: mode must be a string".into()))
        })?;
        Ok(ModeArg(Mode::from_name(&name)?))
    }
}

/// `order`: an integer (SciPy compares it with 0 and 5).
fn order_arg(order: &Bound<'_, PyAny>) -> PyResult<i64> {
    if order.is_instance_of::<PyFloat>() {
        let v: f64 = order.extract()?;
        if v.fract() == 0.0 && (0.0..=5.0).contains(&v) {
            return Ok(v as i64);
        }
    }
    order.extract::<i64>()
}

/// A number, or a sequence of numbers (shift, zoom, offset), from Python
/// values or a small array of any library.
fn floats_arg(obj: &Bound<'_, PyAny>) -> PyResult<PerAxis<f64>> {
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() {
        return Ok(PerAxis::Same(obj.extract::<f64>()?));
    }
    if obj.is_instance_of::<PyString>() {
        return Err(Error::InvalidArgument("expected a number or a sequence of numbers".into()).into());
    }
    if let Ok(v) = obj.extract::<f64>() {
        if obj.getattr("ndim").and_then(|n| n.extract::<i64>()).unwrap_or(0) == 0 {
            return Ok(PerAxis::Same(v));
        }
    }
    let (values, shape) = host_values(obj)?;
    if shape.is_empty() {
        return Ok(PerAxis::Same(values[0]));
    }
    Ok(PerAxis::Each(values))
}

/// A small array (matrix, offsets) as float64 host values in C order and its shape.
fn host_values(obj: &Bound<'_, PyAny>) -> PyResult<(Vec<f64>, Vec<i64>)> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let array = if obj.hasattr("__dlpack__")? && !obj.hasattr("__array__")? {
        np.getattr("from_dlpack")?.call1((obj,))?
    } else {
        obj.clone()
    };
    let array = np.getattr("asarray")?.call1((array,))?;
    if array.getattr("dtype")?.getattr("kind")?.extract::<String>()? == "c" {
        return Err(Error::InvalidArgument("complex matrix or offset not supported".into()).into());
    }
    let array = np.getattr("ascontiguousarray")?.call1((array, np.getattr("float64")?))?;
    let shape: Vec<i64> = array.getattr("shape")?.extract()?;
    let values: Vec<f64> = array.call_method1("reshape", (-1,))?.call_method0("tolist")?.extract()?;
    Ok((values, shape))
}

/// `output_shape`: `None` or a sequence of integers.
fn shape_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<i64>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(None) };
    let mut shape = Vec::new();
    for item in obj.try_iter()? {
        shape.push(item?.extract::<i64>()?);
    }
    Ok(Some(shape))
}

/// The spline filters' `output`: float64 when not passed, the input's dtype for `None`.
struct SplineOutput(Option<DType>);

impl<'a, 'py> FromPyObject<'a, 'py> for SplineOutput {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<SplineOutput> {
        Ok(SplineOutput(output_arg(obj.py(), Some(&obj.to_owned()))?))
    }
}

/// Calculate a 1-D spline filter along the given axis.
///
/// The B-spline coefficients of order ``order`` (0 and 1: a copy) along
/// ``axis``, the line's ends initialised as ``mode`` extends the input, as
/// SciPy's ``_ni_splines.c``; computed in float64, returned as ``output``.
///
#[doc = interpolation_note!()]
#[pyfunction]
#[pyo3(signature = (input, order = None, axis = -1, output = SplineOutput(Some(DType::Float64)), mode = None, *, device = None), text_signature = "(input, order=3, axis=-1, output=..., mode='mirror', *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn spline_filter1d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    order: Option<&Bound<'_, PyAny>>,
    axis: i64,
    output: SplineOutput,
    mode: Option<ModeArg>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let order = order.map(order_arg).transpose()?.unwrap_or(3);
    let output = output.0;
    let mode = mode.map_or(Mode::Mirror, |m| m.0);
    map(py, device, &[input], move |t| ops::spline_filter1d(&t[0], order, axis, output, mode))
}

/// Multidimensional spline filter.
///
/// :func:`spline_filter1d` along every axis in turn (orders 2 to 5), each
/// pass written to ``output``'s dtype as SciPy writes it.
///
#[doc = interpolation_note!()]
#[pyfunction]
#[pyo3(signature = (input, order = None, output = SplineOutput(Some(DType::Float64)), mode = None, *, device = None), text_signature = "(input, order=3, output=..., mode='mirror', *, device=None)")]
fn spline_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    order: Option<&Bound<'_, PyAny>>,
    output: SplineOutput,
    mode: Option<ModeArg>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let order = order.map(order_arg).transpose()?.unwrap_or(3);
    let output = output.0;
    let mode = mode.map_or(Mode::Mirror, |m| m.0);
    map(py, device, &[input], move |t| ops::spline_filter(&t[0], order, output, mode))
}

/// Map the input array to new coordinates by interpolation.
///
/// ``input`` at the points ``coordinates`` (shape ``(input.ndim, ...)``), by
/// B-splines of order ``order`` (prefiltered when ``prefilter`` and
/// ``order > 1``), the input extended by ``mode`` (``cval`` for the constant
/// modes).
///
#[doc = interpolation_note!()]
#[pyfunction]
#[pyo3(signature = (input, coordinates, output = None, order = None, mode = None, cval = 0.0, prefilter = true, *, device = None), text_signature = "(input, coordinates, output=None, order=3, mode='constant', cval=0.0, prefilter=True, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn map_coordinates(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    coordinates: &Bound<'_, PyAny>,
    output: Option<&Bound<'_, PyAny>>,
    order: Option<&Bound<'_, PyAny>>,
    mode: Option<ModeArg>,
    cval: f64,
    prefilter: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let order = order.map(order_arg).transpose()?.unwrap_or(3);
    let output = output_arg(py, output)?;
    let mode = mode.map_or(Mode::Constant, |m| m.0);
    map(py, device, &[input, coordinates], move |t| {
        ops::map_coordinates(&t[0], &t[1], output, order, mode, cval, prefilter)
    })
}

/// Apply an affine transformation.
///
/// The output point ``o`` takes the input's value at ``matrix @ o + offset``:
/// ``matrix`` of shape ``(ndim,)`` (a zoom per axis), ``(ndim, ndim)``,
/// ``(ndim, ndim + 1)`` (the last column is the offset) or
/// ``(ndim + 1, ndim + 1)`` (homogeneous coordinates); interpolated as
/// :func:`map_coordinates` does.
///
#[doc = interpolation_note!()]
#[pyfunction]
#[pyo3(signature = (input, matrix, offset = None, output_shape = None, output = None, order = None, mode = None, cval = 0.0, prefilter = true, *, device = None), text_signature = "(input, matrix, offset=0.0, output_shape=None, output=None, order=3, mode='constant', cval=0.0, prefilter=True, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn affine_transform(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    matrix: &Bound<'_, PyAny>,
    offset: Option<&Bound<'_, PyAny>>,
    output_shape: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    order: Option<&Bound<'_, PyAny>>,
    mode: Option<ModeArg>,
    cval: f64,
    prefilter: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let order = order.map(order_arg).transpose()?.unwrap_or(3);
    let output = output_arg(py, output)?;
    let mode = mode.map_or(Mode::Constant, |m| m.0);
    let (m, mshape) = host_values(matrix)?;
    let offset = match offset {
        Some(o) => floats_arg(o)?,
        None => PerAxis::Same(0.0),
    };
    let output_shape = shape_arg(output_shape)?;
    map(py, device, &[input], move |t| {
        ops::affine_transform(
            &t[0],
            &m,
            &mshape,
            &offset,
            output_shape.as_deref(),
            output,
            order,
            mode,
            cval,
            prefilter,
        )
    })
}

/// Shift an array.
///
/// The output at ``o`` is the input at ``o - shift`` (one value or one per
/// axis), interpolated as :func:`map_coordinates` does.
///
#[doc = interpolation_note!()]
#[pyfunction]
#[pyo3(signature = (input, shift, output = None, order = None, mode = None, cval = 0.0, prefilter = true, *, device = None), text_signature = "(input, shift, output=None, order=3, mode='constant', cval=0.0, prefilter=True, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn shift(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    shift: &Bound<'_, PyAny>,
    output: Option<&Bound<'_, PyAny>>,
    order: Option<&Bound<'_, PyAny>>,
    mode: Option<ModeArg>,
    cval: f64,
    prefilter: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let order = order.map(order_arg).transpose()?.unwrap_or(3);
    let output = output_arg(py, output)?;
    let mode = mode.map_or(Mode::Constant, |m| m.0);
    let shift = floats_arg(shift)?;
    map(py, device, &[input], move |t| ops::shift(&t[0], &shift, output, order, mode, cval, prefilter))
}

/// Zoom an array.
///
/// The input resampled to ``round(input.shape * zoom)`` (Python's rounding),
/// the corners aligned (``grid_mode=False``) or the pixel edges
/// (``grid_mode=True``, with SciPy's warning for ``constant`` and ``wrap``).
///
#[doc = interpolation_note!()]
#[pyfunction]
#[pyo3(signature = (input, zoom, output = None, order = None, mode = None, cval = 0.0, prefilter = true, *, grid_mode = false, device = None), text_signature = "(input, zoom, output=None, order=3, mode='constant', cval=0.0, prefilter=True, *, grid_mode=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn zoom(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    zoom: &Bound<'_, PyAny>,
    output: Option<&Bound<'_, PyAny>>,
    order: Option<&Bound<'_, PyAny>>,
    mode: Option<Bound<'_, PyAny>>,
    cval: f64,
    prefilter: bool,
    grid_mode: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let order = order.map(order_arg).transpose()?.unwrap_or(3);
    let output = output_arg(py, output)?;
    let name: String = match &mode {
        Some(m) => m.extract().map_err(|_| {
            PyErr::from(Error::InvalidArgument("boundary mode not supported: mode must be a string".into()))
        })?,
        None => "constant".into(),
    };
    let mode = Mode::from_name(&name)?;
    if grid_mode && (name == "constant" || name == "wrap") {
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        let message = format!("It is recommended to use mode = grid-{name} instead of {name} when grid_mode is True.");
        PyErr::warn(
            py,
            &category,
            &std::ffi::CString::new(message).map_err(|e| Error::InvalidArgument(e.to_string()))?,
            1,
        )?;
    }
    let zoom = floats_arg(zoom)?;
    map(py, device, &[input], move |t| ops::zoom(&t[0], &zoom, output, order, mode, cval, prefilter, grid_mode))
}

/// Rotate an array.
///
/// The plane of ``axes`` rotated by ``angle`` degrees about its centre;
/// ``reshape=True`` sizes the output to hold the whole rotated input. Other
/// axes are a batch of planes, each rotated as SciPy rotates it.
///
#[doc = interpolation_note!()]
#[pyfunction]
#[pyo3(signature = (input, angle, axes = None, reshape = true, output = None, order = None, mode = None, cval = 0.0, prefilter = true, *, device = None), text_signature = "(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode='constant', cval=0.0, prefilter=True, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn rotate(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    angle: f64,
    axes: Option<&Bound<'_, PyAny>>,
    reshape: bool,
    output: Option<&Bound<'_, PyAny>>,
    order: Option<&Bound<'_, PyAny>>,
    mode: Option<ModeArg>,
    cval: f64,
    prefilter: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let order = order.map(order_arg).transpose()?.unwrap_or(3);
    let output = output_arg(py, output)?;
    let mode = mode.map_or(Mode::Constant, |m| m.0);
    let axes = match axes.filter(|a| !a.is_none()) {
        None => (1, 0),
        Some(a) => {
            let mut values = Vec::new();
            for item in a.try_iter()? {
                let item = item?;
                let v: f64 = item.extract()?;
                if v.fract() != 0.0 {
                    return Err(Error::InvalidArgument("axes should contain only integer values".into()).into());
                }
                values.push(v as i64);
            }
            if values.len() != 2 {
                return Err(Error::InvalidArgument("axes should contain exactly two values".into()).into());
            }
            (values[0], values[1])
        }
    };
    map(py, device, &[input], move |t| ops::rotate(&t[0], angle, axes, reshape, output, order, mode, cval, prefilter))
}

pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(spline_filter1d, module)?)?;
    module.add_function(wrap_pyfunction!(spline_filter, module)?)?;
    module.add_function(wrap_pyfunction!(map_coordinates, module)?)?;
    module.add_function(wrap_pyfunction!(affine_transform, module)?)?;
    module.add_function(wrap_pyfunction!(shift, module)?)?;
    module.add_function(wrap_pyfunction!(zoom, module)?)?;
    module.add_function(wrap_pyfunction!(rotate, module)?)
}
