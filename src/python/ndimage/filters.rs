//! The filters of `scipy.ndimage._filters` (see `crate::ops::ndimage::filters`).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use tch::{Kind, Tensor};

use super::super::container::{import_all, wrap, Library};
use super::super::placement::on_device;
use super::super::signal::{map, Device};
use crate::ops::ndimage::filters::{self as ops, Footprint, Gaussian, Mode, PerAxis, Rank};
use crate::{dlpack, DType, Error};

/// `mode`: one name, or a sequence of names (one per axis).
pub(super) struct Modes(pub(super) PerAxis<Mode>);

impl<'a, 'py> FromPyObject<'a, 'py> for Modes {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Modes> {
        if let Ok(name) = obj.extract::<String>() {
            return Ok(Modes(PerAxis::Same(Mode::from_name(&name)?)));
        }
        let mut modes = Vec::new();
        for item in obj.try_iter()? {
            modes.push(Mode::from_name(&item?.extract::<String>()?)?);
        }
        Ok(Modes(PerAxis::Each(modes)))
    }
}

/// An integer, or a sequence of integers (sizes, origins, orders).
pub(super) struct Ints(pub(super) PerAxis<i64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Ints {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Ints> {
        if let Ok(k) = obj.extract::<i64>() {
            return Ok(Ints(PerAxis::Same(k)));
        }
        let mut values = Vec::new();
        for item in obj.try_iter()? {
            values.push(item?.extract::<i64>()?);
        }
        Ok(Ints(PerAxis::Each(values)))
    }
}

/// A number, or a sequence of numbers (sigmas).
pub(super) struct Floats(pub(super) PerAxis<f64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Floats {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Floats> {
        if let Ok(v) = obj.extract::<f64>() {
            return Ok(Floats(PerAxis::Same(v)));
        }
        let mut values = Vec::new();
        for item in obj.try_iter()? {
            values.push(item?.extract::<f64>()?);
        }
        Ok(Floats(PerAxis::Each(values)))
    }
}

/// `radius`: `None`, an integer, or a sequence of them.
fn radius_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<PerAxis<Option<i64>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(PerAxis::Same(None)) };
    let one = |o: &Bound<'_, PyAny>| -> PyResult<Option<i64>> {
        if o.is_none() {
            return Ok(None);
        }
        if o.is_instance_of::<pyo3::types::PyFloat>() {
            return Err(Error::InvalidArgument("Radius must be a nonnegative integer.".into()).into());
        }
        Ok(Some(o.extract::<i64>()?))
    };
    if obj.extract::<i64>().is_ok() || obj.is_instance_of::<pyo3::types::PyFloat>() {
        return Ok(PerAxis::Same(one(obj)?));
    }
    let mut values = Vec::new();
    for item in obj.try_iter()? {
        values.push(one(&item?)?);
    }
    Ok(PerAxis::Each(values))
}

/// `axes`: `None`, an integer, or a sequence of integers.
pub(super) struct Axes(pub(super) Vec<i64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Axes {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Axes> {
        if let Ok(a) = obj.extract::<i64>() {
            return Ok(Axes(vec![a]));
        }
        if obj.is_instance_of::<PyString>() {
            return Err(Error::InvalidArgument("axes must be an integer, iterable of integers, or None".into()).into());
        }
        let mut axes = Vec::new();
        for item in obj.try_iter()? {
            axes.push(item?.extract::<i64>()?);
        }
        Ok(Axes(axes))
    }
}

pub(super) fn axes_ref(axes: &Option<Axes>) -> Option<&[i64]> {
    axes.as_ref().map(|a| a.0.as_slice())
}

/// `output`: `None` or a dtype (anything `numpy.dtype` takes); an array to
/// write into is not implemented.
pub(super) fn output_arg(py: Python<'_>, output: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DType>> {
    let Some(output) = output.filter(|o| !o.is_none()) else { return Ok(None) };
    let is_array =
        ["__dlpack__", "__array__", "__array_interface__"].iter().any(|attr| output.hasattr(*attr).unwrap_or(false))
            && !output.is_instance_of::<pyo3::types::PyType>();
    if is_array || output.is_instance_of::<pyo3::types::PyList>() {
        return Err(Error::NotImplemented(
            "output= as an array (filled in place) is not implemented; pass None or a dtype and use the result".into(),
        )
        .into());
    }
    let name: String = py.import("numpy")?.getattr("dtype")?.call1((output,))?.getattr("name")?.extract()?;
    DType::ALL.iter().copied().find(|d| d.name() == name).map(Some).ok_or_else(|| {
        Error::NotImplemented(format!(
            "output dtype {name} is not implemented (accepted: bool, integer, float32, float64)"
        ))
        .into()
    })
}

/// An array argument (weights, footprint) as a host float64 tensor, whatever its library.
pub(super) fn host_array(obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let (mut tensors, library) = import_all(&[obj])?;
    library.refuse_grad("read on the host (as SciPy reads weights and footprints)")?;
    let t = tensors.remove(0);
    let dtype = dlpack::dtype_of(&t)?;
    if dtype.is_complex() {
        return Err(Error::NotImplemented(format!(
            "complex weights ({}) are not implemented; filter with the real and imaginary parts",
            dtype.name()
        ))
        .into());
    }
    let t = t.f_to_device(tch::Device::Cpu).map_err(Error::from)?;
    Ok(t.f_to_kind(Kind::Double).map_err(Error::from)?.f_contiguous().map_err(Error::from)?)
}

/// The weights (values in C order) and their shape.
pub(super) fn weights_arg(obj: &Bound<'_, PyAny>) -> PyResult<(Vec<f64>, Vec<i64>)> {
    let t = host_array(obj)?;
    let shape = t.size();
    let flat = t.f_view(-1).map_err(Error::from)?;
    Ok((Vec::<f64>::try_from(&flat).map_err(Error::from)?, shape))
}

/// A footprint array (nonzero: in the footprint).
pub(super) fn footprint_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Footprint>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(None) };
    let (values, shape) = weights_arg(obj)?;
    Ok(Some(Footprint { shape, mask: values.iter().map(|&v| v != 0.0).collect() }))
}

/// SciPy warns when both `size` and `footprint` are given.
pub(super) fn warn_size_ignored(py: Python<'_>, size: &Option<Ints>, footprint: &Option<Footprint>) -> PyResult<()> {
    if size.is_some() && footprint.is_some() {
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        PyErr::warn(py, &category, c"ignoring size because footprint is set", 1)?;
    }
    Ok(())
}

/// Calculate a 1-D correlation along the given axis.
///
/// The lines of ``input`` along ``axis`` correlated with ``weights`` (float64
/// arithmetic, SciPy's symmetric/antisymmetric shortcuts), the input extended
/// by ``mode`` (``cval`` for ``"constant"``) and the filter shifted by ``origin``.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, weights, axis = -1, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = 0, *, device = None), text_signature = "(input, weights, axis=-1, output=None, mode='reflect', cval=0.0, origin=0, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn correlate1d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    one_d(py, input, weights, axis, output, mode, cval, origin, device, false)
}

/// Calculate a 1-D convolution along the given axis.
///
/// :func:`correlate1d` with the weights reversed and the origin mirrored, as SciPy.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, weights, axis = -1, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = 0, *, device = None), text_signature = "(input, weights, axis=-1, output=None, mode='reflect', cval=0.0, origin=0, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn convolve1d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    one_d(py, input, weights, axis, output, mode, cval, origin, device, true)
}

fn single(mode: Modes) -> PyResult<Mode> {
    match mode.0 {
        PerAxis::Same(m) => Ok(m),
        PerAxis::Each(_) => {
            Err(Error::InvalidArgument("boundary mode not supported: a sequence of modes".into()).into())
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn one_d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: i64,
    device: Device<'_, '_>,
    convolution: bool,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let (w, shape) = weights_arg(weights)?;
    if shape.len() != 1 || w.is_empty() {
        return Err(Error::InvalidArgument("no filter weights given".into()).into());
    }
    let mode = single(mode)?;
    map(py, device, &[input], move |t| {
        if convolution {
            ops::convolve1d(&t[0], &w, axis, output, mode, cval, origin)
        } else {
            ops::correlate1d(&t[0], &w, axis, output, mode, cval, origin)
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn nd(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
    convolution: bool,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let (w, shape) = weights_arg(weights)?;
    let mode = match mode.0 {
        PerAxis::Same(m) => m,
        PerAxis::Each(_) => return Err(Error::InvalidArgument("A sequence of modes is not supported".into()).into()),
    };
    map(py, device, &[input], move |t| {
        ops::correlate_nd(&t[0], &w, &shape, output, mode, cval, &origin.0, axes_ref(&axes), convolution)
    })
}

/// Multidimensional correlation.
///
/// Each output is the sum of the products of ``weights`` with the input
/// under it (weights of magnitude at most ``DBL_EPSILON`` skipped, as SciPy),
/// the input extended by ``mode``; ``axes`` restricts the filter to those axes.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, weights, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, weights, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn correlate(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    nd(py, input, weights, output, mode, cval, origin, axes, device, false)
}

/// Multidimensional convolution.
///
/// :func:`correlate` with the weights reversed along every axis and the
/// origins mirrored, as SciPy.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, weights, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, weights, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn convolve(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    nd(py, input, weights, output, mode, cval, origin, axes, device, true)
}

/// Calculate a 1-D uniform filter along the given axis.
///
/// The mean of every ``size`` window, SciPy's running sum (one sequential
/// float64 ``cumsum``, so the values are SciPy's bit for bit).
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, size, axis = -1, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = 0, *, device = None), text_signature = "(input, size, axis=-1, output=None, mode='reflect', cval=0.0, origin=0, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn uniform_filter1d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: i64,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let mode = single(mode)?;
    map(py, device, &[input], move |t| ops::uniform_filter1d(&t[0], size, axis, output, mode, cval, origin))
}

/// Multidimensional uniform filter.
///
/// :func:`uniform_filter1d` along each axis (of ``axes``) whose size exceeds
/// 1, each pass written in the output dtype as SciPy writes it.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, size = Ints(PerAxis::Same(3)), output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, size=3, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn uniform_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: Ints,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    map(py, device, &[input], move |t| {
        ops::uniform_filter(&t[0], &size.0, output, &mode.0, cval, &origin.0, axes_ref(&axes))
    })
}

/// 1-D Gaussian filter.
///
/// Correlation with SciPy's sampled Gaussian kernel (or its ``order``-th
/// derivative) of radius ``radius``, default ``int(truncate * sigma + 0.5)``.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, sigma, axis = -1, order = 0, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, truncate = 4.0, *, radius = None, device = None), text_signature = "(input, sigma, axis=-1, order=0, output=None, mode='reflect', cval=0.0, truncate=4.0, *, radius=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn gaussian_filter1d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    sigma: f64,
    axis: i64,
    order: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    truncate: f64,
    radius: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let mode = single(mode)?;
    let radius = match radius_arg(radius)? {
        PerAxis::Same(r) => r,
        PerAxis::Each(_) => return Err(Error::InvalidArgument("Radius must be a nonnegative integer.".into()).into()),
    };
    map(py, device, &[input], move |t| {
        ops::gaussian_filter1d(&t[0], sigma, axis, order, output, mode, cval, truncate, radius)
    })
}

/// Multidimensional Gaussian filter.
///
/// :func:`gaussian_filter1d` along each axis (of ``axes``) whose sigma
/// exceeds 1e-15, each pass written in the output dtype as SciPy writes it.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, sigma, order = Ints(PerAxis::Same(0)), output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, truncate = 4.0, *, radius = None, axes = None, device = None), text_signature = "(input, sigma, order=0, output=None, mode='reflect', cval=0.0, truncate=4.0, *, radius=None, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn gaussian_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    sigma: Floats,
    order: Ints,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    truncate: f64,
    radius: Option<&Bound<'_, PyAny>>,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let g = Gaussian { sigma: sigma.0, order: order.0, truncate, radius: radius_arg(radius)? };
    map(py, device, &[input], move |t| ops::gaussian_filter(&t[0], &g, output, &mode.0, cval, axes_ref(&axes)))
}

/// `gaussian_filter`'s `truncate` and `radius` from `**kwargs` (anything else is refused as Python refuses it).
fn gaussian_kwargs(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<(f64, PerAxis<Option<i64>>)> {
    let (mut truncate, mut radius) = (4.0, PerAxis::Same(None));
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            match key.extract::<String>()?.as_str() {
                "truncate" => truncate = value.extract()?,
                "radius" => radius = radius_arg(Some(&value))?,
                other => {
                    return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                        "gaussian_filter() got an unexpected keyword argument '{other}'"
                    )))
                }
            }
        }
    }
    Ok((truncate, radius))
}

/// Multidimensional Laplace filter using Gaussian second derivatives.
///
/// The sum over ``axes`` of :func:`gaussian_filter` with the second
/// derivative along that axis; ``**kwargs`` (``truncate``, ``radius``) go to
/// :func:`gaussian_filter`.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, sigma, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, *, axes = None, device = None, **kwargs), text_signature = "(input, sigma, output=None, mode='reflect', cval=0.0, *, axes=None, device=None, **kwargs)")]
#[allow(clippy::too_many_arguments)]
fn gaussian_laplace(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    sigma: Floats,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    axes: Option<Axes>,
    device: Device<'_, '_>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let (truncate, radius) = gaussian_kwargs(kwargs)?;
    map(py, device, &[input], move |t| {
        ops::gaussian_laplace(&t[0], &sigma.0, output, &mode.0, cval, axes_ref(&axes), truncate, &radius)
    })
}

/// Multidimensional gradient magnitude using Gaussian derivatives.
///
/// The root of the sum over ``axes`` of the squared :func:`gaussian_filter`
/// first derivatives; ``**kwargs`` (``truncate``, ``radius``) go to
/// :func:`gaussian_filter`.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, sigma, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, *, axes = None, device = None, **kwargs), text_signature = "(input, sigma, output=None, mode='reflect', cval=0.0, *, axes=None, device=None, **kwargs)")]
#[allow(clippy::too_many_arguments)]
fn gaussian_gradient_magnitude(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    sigma: Floats,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    axes: Option<Axes>,
    device: Device<'_, '_>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let (truncate, radius) = gaussian_kwargs(kwargs)?;
    map(py, device, &[input], move |t| {
        ops::gaussian_gradient_magnitude(&t[0], &sigma.0, output, &mode.0, cval, axes_ref(&axes), truncate, &radius)
    })
}

/// Calculate a 1-D minimum filter along the given axis.
///
/// The smallest sample of every ``size`` window along ``axis``.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, size, axis = -1, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = 0, *, device = None), text_signature = "(input, size, axis=-1, output=None, mode='reflect', cval=0.0, origin=0, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn minimum_filter1d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: i64,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let mode = single(mode)?;
    map(py, device, &[input], move |t| ops::minmax_filter1d(&t[0], size, axis, output, mode, cval, origin, true))
}

/// Calculate a 1-D maximum filter along the given axis.
///
/// The largest sample of every ``size`` window along ``axis``.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, size, axis = -1, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = 0, *, device = None), text_signature = "(input, size, axis=-1, output=None, mode='reflect', cval=0.0, origin=0, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn maximum_filter1d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: i64,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    let mode = single(mode)?;
    map(py, device, &[input], move |t| ops::minmax_filter1d(&t[0], size, axis, output, mode, cval, origin, false))
}

#[allow(clippy::too_many_arguments)]
fn minmax(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
    minimum: bool,
) -> PyResult<Py<PyAny>> {
    let footprint = footprint_arg(footprint)?;
    warn_size_ignored(py, &size, &footprint)?;
    let output = output_arg(py, output)?;
    map(py, device, &[input], move |t| {
        let size = size.map(|s| s.0);
        ops::minmax_filter(
            &t[0],
            size.as_ref(),
            footprint.as_ref(),
            output,
            &mode.0,
            cval,
            &origin.0,
            axes_ref(&axes),
            minimum,
        )
    })
}

/// Calculate a multidimensional minimum filter.
///
/// The smallest sample under ``size`` (a box, separable) or ``footprint``.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, size = None, footprint = None, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn minimum_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    minmax(py, input, size, footprint, output, mode, cval, origin, axes, device, true)
}

/// Calculate a multidimensional maximum filter.
///
/// The largest sample under ``size`` (a box, separable) or ``footprint``.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, size = None, footprint = None, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn maximum_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    minmax(py, input, size, footprint, output, mode, cval, origin, axes, device, false)
}

#[allow(clippy::too_many_arguments)]
fn ranked(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    rank: Rank,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let footprint = footprint_arg(footprint)?;
    warn_size_ignored(py, &size, &footprint)?;
    let output = output_arg(py, output)?;
    map(py, device, &[input], move |t| {
        let size = size.map(|s| s.0);
        ops::rank_filter(
            &t[0],
            rank,
            size.as_ref(),
            footprint.as_ref(),
            output,
            &mode.0,
            cval,
            &origin.0,
            axes_ref(&axes),
        )
    })
}

/// Calculate a multidimensional rank filter.
///
/// The ``rank``-th smallest sample (negative: from the largest) under
/// ``size`` or ``footprint``: a pruned sorting network of elementwise
/// ``minimum``/``maximum`` over the footprint's views (a sort of the stacked
/// views past about 120 positions). Values are SciPy's for finite input; a
/// NaN under the footprint gives NaN (SciPy's result then depends on its
/// selection order).
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, rank, size = None, footprint = None, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, rank, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn rank_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    rank: &Bound<'_, PyAny>,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    // operator.index(rank)
    let rank: i64 = rank.call_method0("__index__")?.extract()?;
    ranked(py, input, Rank::Rank(rank), size, footprint, output, mode, cval, origin, axes, device)
}

/// Calculate a multidimensional median filter.
///
/// :func:`rank_filter` with rank ``count // 2`` (the upper middle of an even
/// footprint, as SciPy).
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, size = None, footprint = None, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn median_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    ranked(py, input, Rank::Median, size, footprint, output, mode, cval, origin, axes, device)
}

/// Calculate a multidimensional percentile filter.
///
/// :func:`rank_filter` with rank ``int(count * percentile / 100)``
/// (``count - 1`` at 100; a negative percentile counts from 100).
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, percentile, size = None, footprint = None, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, percentile, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn percentile_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    percentile: f64,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    ranked(py, input, Rank::Percentile(percentile), size, footprint, output, mode, cval, origin, axes, device)
}

/// Calculate a Sobel filter.
///
/// The central difference ``[-1, 0, 1]`` along ``axis``, then ``[1, 2, 1]``
/// along every other axis, each pass written in the output dtype.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, axis = -1, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, *, device = None), text_signature = "(input, axis=-1, output=None, mode='reflect', cval=0.0, *, device=None)")]
fn sobel(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    map(py, device, &[input], move |t| ops::edge_filter(&t[0], axis, output, &mode.0, cval, &[1.0, 2.0, 1.0]))
}

/// Calculate a Prewitt filter.
///
/// The central difference ``[-1, 0, 1]`` along ``axis``, then ``[1, 1, 1]``
/// along every other axis, each pass written in the output dtype.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, axis = -1, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, *, device = None), text_signature = "(input, axis=-1, output=None, mode='reflect', cval=0.0, *, device=None)")]
fn prewitt(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    map(py, device, &[input], move |t| ops::edge_filter(&t[0], axis, output, &mode.0, cval, &[1.0, 1.0, 1.0]))
}

/// N-D Laplace filter based on approximate second derivatives.
///
/// The sum over ``axes`` of the second differences ``[1, -2, 1]``, each in
/// the output dtype.
///
#[doc = ndimage_note!()]
#[pyfunction]
#[pyo3(signature = (input, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, *, axes = None, device = None), text_signature = "(input, output=None, mode='reflect', cval=0.0, *, axes=None, device=None)")]
fn laplace(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let output = output_arg(py, output)?;
    map(py, device, &[input], move |t| ops::laplace(&t[0], output, &mode.0, cval, axes_ref(&axes)))
}

/// Adds the filters to `module`.
/// The callable of the generic filters: a Python callable; SciPy's low-level
/// callbacks (`scipy.LowLevelCallable`, a bare `PyCapsule`) are refused.
fn python_function(function: &Bound<'_, PyAny>) -> PyResult<()> {
    let kind = function.get_type().name()?.to_string();
    if kind == "LowLevelCallable" || kind == "PyCapsule" {
        return Err(Error::NotImplemented(format!(
            "scipy.LowLevelCallable ({kind}) is not implemented: torchbridge calls Python callables only; \
             pass a Python function of NumPy float64 arrays"
        ))
        .into());
    }
    if !function.is_callable() {
        return Err(Error::InvalidArgument("invalid callable given".into()).into());
    }
    Ok(())
}

/// `extra_arguments` (a tuple, as SciPy requires) and `extra_keywords` (`None` or a dict).
fn extras<'py>(
    extra_arguments: &Bound<'py, PyAny>,
    extra_keywords: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyTuple>, Option<Bound<'py, PyDict>>)> {
    let args = extra_arguments
        .cast::<PyTuple>()
        .map_err(|_| Error::InvalidArgument("extra_arguments must be a tuple".into()))?
        .clone();
    let kwargs = match extra_keywords.filter(|k| !k.is_none()) {
        None => None,
        Some(k) => Some(
            k.cast::<PyDict>()
                .map_err(|_| Error::InvalidArgument("extra_keywords must be a dictionary".into()))?
                .clone(),
        ),
    };
    Ok((args, kwargs))
}

/// `row` followed by `extra` as one argument tuple.
fn call_args<'py>(
    py: Python<'py>,
    rows: impl IntoIterator<Item = Bound<'py, PyAny>>,
    extra: &Bound<'py, PyTuple>,
) -> PyResult<Bound<'py, PyTuple>> {
    let items: Vec<Bound<'py, PyAny>> = rows.into_iter().chain(extra.iter()).collect();
    PyTuple::new(py, items)
}

/// A host float64 tensor as a NumPy array over its memory.
fn host_numpy<'py>(py: Python<'py>, t: &Tensor) -> PyResult<Bound<'py, PyAny>> {
    Ok(wrap(py, &Library::NumPy, t.shallow_clone(), false)?.into_bound(py))
}

/// The input of a generic filter on the host (one copy from a CUDA device),
/// its library, and the device its result goes back to. `device=` is
/// checked, and otherwise changes nothing: the function runs on the host.
fn generic_input(input: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<(Tensor, Library, tch::Device)> {
    on_device(device, || Ok(()))?;
    let (mut tensors, library) = import_all(&[input])?;
    let x = tensors.remove(0);
    let home = x.device();
    let host = x.f_to_device(tch::Device::Cpu).map_err(Error::from)?;
    Ok((host, library, home))
}

/// Calculate a 1-D filter along the given axis.
///
/// ``function(input_line, output_line, *extra_arguments, **extra_keywords)``
/// is called once per line of ``input`` along ``axis`` (the other axes in C
/// order, as SciPy iterates): ``input_line`` is the line extended by ``mode``
/// (``filter_size // 2 + origin`` samples before, SciPy's extension for any
/// distance), ``output_line`` a zero line to fill, both float64 NumPy arrays;
/// the filled lines are cast to the output dtype as SciPy's C cast does.
///
/// torchbridge: the extended lines are built by libtorch in one gather with
/// the filters' boundary index map, then ``function`` (host Python by
/// contract) runs on NumPy views of them. Input on a CUDA device is copied
/// to the host once, explicitly, and the result copied back to that device,
/// in the caller's array type. ``device=`` is accepted and checked, and
/// changes nothing: the function always runs on the host.
/// ``scipy.LowLevelCallable`` raises ``UnsupportedParameterError`` (a
/// ``NotImplementedError``); ``output`` may be ``None`` or a dtype (an array
/// to fill raises ``UnsupportedParameterError``); SciPy's ``RuntimeError``
/// for a bad size or mode is a ``ValueError`` (``InvalidArgumentError``).
#[pyfunction]
#[pyo3(signature = (input, function, filter_size, axis = -1, output = None, mode = "reflect".to_string(), cval = 0.0, origin = 0, extra_arguments = None, extra_keywords = None, *, device = None), text_signature = "(input, function, filter_size, axis=-1, output=None, mode='reflect', cval=0.0, origin=0, extra_arguments=(), extra_keywords=None, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn generic_filter1d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    function: &Bound<'_, PyAny>,
    filter_size: i64,
    axis: i64,
    output: Option<&Bound<'_, PyAny>>,
    mode: String,
    cval: f64,
    origin: i64,
    extra_arguments: Option<&Bound<'_, PyAny>>,
    extra_keywords: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    python_function(function)?;
    let empty = PyTuple::empty(py).into_any();
    let (args, kwargs) = extras(extra_arguments.unwrap_or(&empty), extra_keywords)?;
    let output = output_arg(py, output)?;
    let mode = Mode::from_name(&mode)?;
    let (x, library, home) = generic_input(input, device)?;
    let result =
        ops::generic_filter1d(&x, filter_size, axis, output, mode, cval, origin, |lines, out| -> PyResult<()> {
            let (ilines, olines) = (host_numpy(py, lines)?, host_numpy(py, out)?);
            // numpy's own row iterators: the cheapest views, one per call as SciPy makes one
            for (iline, oline) in ilines.try_iter()?.zip(olines.try_iter()?) {
                let (iline, oline) = (iline?, oline?);
                if args.is_empty() && kwargs.is_none() {
                    function.call1((iline, oline))?;
                } else {
                    function.call(call_args(py, [iline, oline], &args)?, kwargs.as_ref())?;
                }
            }
            Ok(())
        })?;
    wrap(py, &library, result.f_to_device(home).map_err(Error::from)?, false)
}

/// Calculate a multidimensional filter using the given function.
///
/// ``function(values, *extra_arguments, **extra_keywords)`` is called at
/// every point of ``input`` (C order), ``values`` being the input under the
/// footprint (``size``, a box, or ``footprint``; its positions in C order)
/// as a float64 NumPy array, the input extended by ``mode`` as SciPy's
/// filters extend it; its result (a number, converted as SciPy converts it)
/// is cast to the output dtype as SciPy's C cast does.
///
/// torchbridge: the windows are gathered by libtorch with the filters'
/// boundary index map, a chunk of points at a time (about 2^20 values), and
/// ``function`` (host Python by contract) runs on NumPy views of their rows.
/// Input on a CUDA device is copied to the host once, explicitly, and the
/// result copied back to that device, in the caller's array type.
/// ``device=`` is accepted and checked, and changes nothing: the function
/// always runs on the host. ``scipy.LowLevelCallable`` raises
/// ``UnsupportedParameterError`` (a ``NotImplementedError``); ``output`` may
/// be ``None`` or a dtype (an array to fill raises
/// ``UnsupportedParameterError``); SciPy's ``RuntimeError`` for a bad size,
/// mode or footprint is a ``ValueError`` (``InvalidArgumentError``).
#[pyfunction]
#[pyo3(signature = (input, function, size = None, footprint = None, output = None, mode = "reflect".to_string(), cval = 0.0, origin = Ints(PerAxis::Same(0)), extra_arguments = None, extra_keywords = None, *, axes = None, device = None), text_signature = "(input, function, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, extra_arguments=(), extra_keywords=None, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn generic_filter(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    function: &Bound<'_, PyAny>,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: String,
    cval: f64,
    origin: Ints,
    extra_arguments: Option<&Bound<'_, PyAny>>,
    extra_keywords: Option<&Bound<'_, PyAny>>,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    python_function(function)?;
    let footprint = footprint_arg(footprint)?;
    warn_size_ignored(py, &size, &footprint)?;
    let empty = PyTuple::empty(py).into_any();
    let (args, kwargs) = extras(extra_arguments.unwrap_or(&empty), extra_keywords)?;
    let output = output_arg(py, output)?;
    let mode = Mode::from_name(&mode)?;
    let (x, library, home) = generic_input(input, device)?;
    let size = size.map(|s| s.0);
    let result = ops::generic_filter(
        &x,
        size.as_ref(),
        footprint.as_ref(),
        output,
        mode,
        cval,
        &origin.0,
        axes_ref(&axes),
        |rows| -> PyResult<Tensor> {
            let windows = host_numpy(py, rows)?;
            let mut values = Vec::with_capacity(rows.size()[0] as usize);
            // numpy's own row iterator: the cheapest views, one per call as SciPy makes one
            for row in windows.try_iter()? {
                let value = if args.is_empty() && kwargs.is_none() {
                    function.call1((row?,))?
                } else {
                    function.call(call_args(py, [row?], &args)?, kwargs.as_ref())?
                };
                values.push(value.extract::<f64>()?);
            }
            Ok(Tensor::f_from_slice(&values).map_err(Error::from)?)
        },
    )?;
    wrap(py, &library, result.f_to_device(home).map_err(Error::from)?, false)
}

pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(correlate1d, module)?)?;
    module.add_function(wrap_pyfunction!(convolve1d, module)?)?;
    module.add_function(wrap_pyfunction!(correlate, module)?)?;
    module.add_function(wrap_pyfunction!(convolve, module)?)?;
    module.add_function(wrap_pyfunction!(uniform_filter1d, module)?)?;
    module.add_function(wrap_pyfunction!(uniform_filter, module)?)?;
    module.add_function(wrap_pyfunction!(gaussian_filter1d, module)?)?;
    module.add_function(wrap_pyfunction!(gaussian_filter, module)?)?;
    module.add_function(wrap_pyfunction!(gaussian_laplace, module)?)?;
    module.add_function(wrap_pyfunction!(gaussian_gradient_magnitude, module)?)?;
    module.add_function(wrap_pyfunction!(minimum_filter1d, module)?)?;
    module.add_function(wrap_pyfunction!(maximum_filter1d, module)?)?;
    module.add_function(wrap_pyfunction!(minimum_filter, module)?)?;
    module.add_function(wrap_pyfunction!(maximum_filter, module)?)?;
    module.add_function(wrap_pyfunction!(rank_filter, module)?)?;
    module.add_function(wrap_pyfunction!(median_filter, module)?)?;
    module.add_function(wrap_pyfunction!(percentile_filter, module)?)?;
    module.add_function(wrap_pyfunction!(sobel, module)?)?;
    module.add_function(wrap_pyfunction!(prewitt, module)?)?;
    module.add_function(wrap_pyfunction!(laplace, module)?)?;
    module.add_function(wrap_pyfunction!(generic_filter1d, module)?)?;
    module.add_function(wrap_pyfunction!(generic_filter, module)?)
}
