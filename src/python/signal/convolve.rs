//! The convolution and correlation routines of `scipy.signal._signaltools`.

use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use tch::Tensor;

use super::super::container::{import_all, wrap, Library};
use super::super::fft::Axes;
use super::super::placement::on_device;
use super::{map, Device};
use crate::ops::signal::signaltools::convolve::{self as ops, Boundary, Method, Mode};
use crate::Error;

/// SciPy's string options (`mode`, `method`, `boundary`): anything but one
/// of the accepted strings is its ValueError.
fn option<T: std::str::FromStr<Err = Error>>(obj: Borrowed<'_, '_, PyAny>, invalid: &str) -> PyResult<T> {
    match obj.cast::<PyString>() {
        Ok(name) => Ok(name.to_cow()?.parse()?),
        Err(_) => Err(Error::InvalidArgument(invalid.into()).into()),
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Mode {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Mode> {
        option(obj, "Acceptable mode flags are 'valid', 'same', or 'full'.")
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Method {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Method> {
        option(obj, "Acceptable method flags are 'auto', 'direct', or 'fft'.")
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Boundary {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Boundary> {
        option(obj, "Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' (or 'symm').")
    }
}

/// `fillvalue`: a number or an array of one element, taken as a complex
/// number first, as SciPy's `_convolve2d` does.
pub(crate) struct FillValue(f64, f64);

impl<'a, 'py> FromPyObject<'a, 'py> for FillValue {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<FillValue> {
        let py = obj.py();
        let single = match obj.getattr_opt("size")? {
            Some(size) if size.extract::<i64>().is_ok_and(|n| n != 1) => {
                return Err(
                    Error::InvalidArgument("`fillvalue` must be scalar or an array with one element.".into()).into()
                );
            }
            Some(_) => obj.call_method1("reshape", (-1,))?.get_item(0)?,
            None => obj.to_owned(),
        };
        let value = py.import("builtins")?.getattr("complex")?.call1((single,))?;
        Ok(FillValue(value.getattr("real")?.extract()?, value.getattr("imag")?.extract()?))
    }
}

/// `convolve` or `correlate` (`correlation`): the method resolved first, so
/// that the FFT method's warning can be given.
fn convolve_or_correlate(
    py: Python<'_>,
    (in1, in2): (&Bound<'_, PyAny>, &Bound<'_, PyAny>),
    mode: Mode,
    method: Method,
    correlation: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let mut nonfinite = false;
    let result = map(py, device, &[in1, in2], |t| {
        let (a, b) = (&t[0], &t[1]);
        let out = if correlation { ops::correlate(a, b, mode, method)? } else { ops::convolve(a, b, mode, method)? };
        // SciPy warns when its FFT method's first output is not finite
        let used = if correlation {
            ops::resolve_method(a, &t[1], mode, method)?
        } else {
            ops::resolve_method(a, b, mode, method)?
        };
        nonfinite = used == Method::Fft && ops::first_nonfinite(&out)?;
        Ok(out)
    })?;
    if nonfinite {
        let category = py.get_type::<PyRuntimeWarning>();
        PyErr::warn(
            py,
            &category,
            c"Use of fft convolution on input with NAN or inf results in NAN or inf output. Consider using method='direct' instead.",
            1,
        )?;
    }
    Ok(result)
}

/// Convolve two N-dimensional arrays.
///
/// ``in1`` convolved with ``in2`` (`scipy.signal.convolve`), the output's size
/// set by ``mode`` (``"full"``, ``"same"``: the size of ``in1``, ``"valid"``),
/// by ``method``: ``"direct"`` (the sum of products, exact for integers),
/// ``"fft"`` (:func:`fftconvolve`, integer results rounded) or ``"auto"``
/// (SciPy's own choice, :func:`choose_conv_method`). The result has NumPy's
/// result dtype of the inputs.
///
/// torchbridge: libtorch computes the direct method as one fused
/// multiply-add of a shifted copy of the larger input per element of the
/// smaller, the FFT method with libtorch's FFT, on the arrays' device; bool
/// and float16 inputs, which SciPy's n-D direct path refuses, are computed as
/// integers and float32; the FFT method rounds bool results as it rounds
/// integers (SciPy casts the unrounded sums, so that round-off reads True).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (in1, in2, mode = Mode::Full, method = Method::Auto, *, device = None), text_signature = "(in1, in2, mode='full', method='auto', *, device=None)")]
pub(super) fn convolve(
    py: Python<'_>,
    in1: &Bound<'_, PyAny>,
    in2: &Bound<'_, PyAny>,
    mode: Mode,
    method: Method,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    convolve_or_correlate(py, (in1, in2), mode, method, false, device)
}

/// Cross-correlate two N-dimensional arrays.
///
/// The cross-correlation of ``in1`` and ``in2`` (`scipy.signal.correlate`):
/// the convolution of ``in1`` with ``in2`` reversed and conjugated, ``mode`` and
/// ``method`` as in :func:`convolve`.
///
/// torchbridge: computed as :func:`convolve` computes, on the arrays' device.
/// For complex input in ``"valid"`` mode with the larger array second, SciPy's
/// n-D direct path returns the conjugate of the correlation (its 1-D and FFT
/// paths do not); torchbridge returns the correlation on every path.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (in1, in2, mode = Mode::Full, method = Method::Auto, *, device = None), text_signature = "(in1, in2, mode='full', method='auto', *, device=None)")]
pub(super) fn correlate(
    py: Python<'_>,
    in1: &Bound<'_, PyAny>,
    in2: &Bound<'_, PyAny>,
    mode: Mode,
    method: Method,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    convolve_or_correlate(py, (in1, in2), mode, method, true, device)
}

/// Convolve two N-dimensional arrays using FFT.
///
/// The convolution of ``in1`` and ``in2`` through the FFT
/// (`scipy.signal.fftconvolve`) along ``axes`` (default: all), broadcasting
/// along the others; the transforms are padded to SciPy's fast lengths.
/// Integer and bool input computes in float64, float16 in float32, as SciPy.
///
/// torchbridge: libtorch's real (or complex) n-D FFT on the arrays' device.
/// On the CPU, where one input is 8 times longer than the other along an
/// axis, the FFTs are taken block-wise (overlap-add, as :func:`oaconvolve`):
/// the same sums to rounding, about 3x faster at (1e6, 1e4) samples.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (in1, in2, mode = Mode::Full, axes = None, *, device = None), text_signature = "(in1, in2, mode='full', axes=None, *, device=None)")]
pub(super) fn fftconvolve(
    py: Python<'_>,
    in1: &Bound<'_, PyAny>,
    in2: &Bound<'_, PyAny>,
    mode: Mode,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map(py, device, &[in1, in2], |t| ops::fftconvolve(&t[0], &t[1], mode, axes.as_ref().map(|a| a.0.as_slice())))
}

/// Convolve two N-dimensional arrays using the overlap-add method.
///
/// The convolution of ``in1`` and ``in2`` by overlap-add
/// (`scipy.signal.oaconvolve`) along ``axes``: the longer input is cut into
/// blocks of SciPy's optimal length, every block is transformed in one batched
/// FFT and the overlapping tails are added; where SciPy falls back to
/// :func:`fftconvolve`, so does torchbridge.
///
/// torchbridge: libtorch's FFT on the arrays' device, all blocks in one call.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (in1, in2, mode = Mode::Full, axes = None, *, device = None), text_signature = "(in1, in2, mode='full', axes=None, *, device=None)")]
pub(super) fn oaconvolve(
    py: Python<'_>,
    in1: &Bound<'_, PyAny>,
    in2: &Bound<'_, PyAny>,
    mode: Mode,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map(py, device, &[in1, in2], |t| ops::oaconvolve(&t[0], &t[1], mode, axes.as_ref().map(|a| a.0.as_slice())))
}

/// Convolve two 2-dimensional arrays.
///
/// The 2-D direct convolution of ``in1`` and ``in2`` (`scipy.signal.convolve2d`),
/// ``in1`` extended beyond its edges by ``boundary``: ``"fill"`` (with
/// ``fillvalue``), ``"wrap"`` (periodic) or ``"symm"`` (mirrored, the edge
/// repeated), any distance.
///
/// torchbridge: one fused multiply-add of a shifted window per kernel element
/// on the arrays' device (exact for integers); bool and float16 input raise
/// ValueError, as in SciPy.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (in1, in2, mode = Mode::Full, boundary = Boundary::Fill, fillvalue = FillValue(0.0, 0.0), *, device = None), text_signature = "(in1, in2, mode='full', boundary='fill', fillvalue=0, *, device=None)")]
pub(super) fn convolve2d(
    py: Python<'_>,
    in1: &Bound<'_, PyAny>,
    in2: &Bound<'_, PyAny>,
    mode: Mode,
    boundary: Boundary,
    fillvalue: FillValue,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let fill = (fillvalue.0, fillvalue.1);
    map(py, device, &[in1, in2], |t| ops::convolve2d(&t[0], &t[1], mode, boundary, fill))
}

/// Cross-correlate two 2-dimensional arrays.
///
/// The 2-D cross-correlation of ``in1`` and ``in2`` (`scipy.signal.correlate2d`),
/// ``boundary`` and ``fillvalue`` as in :func:`convolve2d`; ``"same"`` mode is
/// centred as SciPy centres it (outputs from ``in2.shape // 2``).
///
/// torchbridge: computed as :func:`convolve2d` computes, on the arrays' device.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (in1, in2, mode = Mode::Full, boundary = Boundary::Fill, fillvalue = FillValue(0.0, 0.0), *, device = None), text_signature = "(in1, in2, mode='full', boundary='fill', fillvalue=0, *, device=None)")]
pub(super) fn correlate2d(
    py: Python<'_>,
    in1: &Bound<'_, PyAny>,
    in2: &Bound<'_, PyAny>,
    mode: Mode,
    boundary: Boundary,
    fillvalue: FillValue,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let fill = (fillvalue.0, fillvalue.1);
    map(py, device, &[in1, in2], |t| ops::correlate2d(&t[0], &t[1], mode, boundary, fill))
}

/// Find the fastest convolution/correlation method.
///
/// SciPy's choice for :func:`convolve` and :func:`correlate`
/// (`scipy.signal.choose_conv_method`): ``"direct"`` for bool input and for
/// integers whose exact result could exceed float64's mantissa, else SciPy's
/// cost model; with ``measure=True``, the faster of the two as timed here,
/// and the times: ``(method, {"fft": seconds, "direct": seconds})``.
///
/// torchbridge: the cost model is SciPy's, tuned for SciPy's kernels, so that
/// ``method="auto"`` picks what SciPy picks; ``measure=True`` times
/// torchbridge's own two methods.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (in1, in2, mode = Mode::Full, measure = false, *, device = None), text_signature = "(in1, in2, mode='full', measure=False, *, device=None)")]
pub(super) fn choose_conv_method(
    py: Python<'_>,
    in1: &Bound<'_, PyAny>,
    in2: &Bound<'_, PyAny>,
    mode: Mode,
    measure: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (tensors, _) = import_all(&[in1, in2])?;
        let (a, b) = (&tensors[0], &tensors[1]);
        if !measure {
            let method = ops::choose_conv_method(a, b, mode)?;
            return Ok(PyString::new(py, method.name()).into_any().unbind());
        }
        let (method, fft, direct) = ops::measure_conv_methods(a, b, mode)?;
        let times = PyDict::new(py);
        times.set_item("fft", fft)?;
        times.set_item("direct", direct)?;
        Ok(PyTuple::new(py, [PyString::new(py, method.name()).into_any(), times.into_any()])?.into_any().unbind())
    })
}

/// Calculates the lag / displacement indices array for 1D cross-correlation.
///
/// The lags of the outputs of a 1-D :func:`correlate` of inputs of lengths
/// ``in1_len`` and ``in2_len`` in ``mode`` (`scipy.signal.correlation_lags`),
/// as a numpy int64 array.
///
/// torchbridge: integer arithmetic, SciPy's result exactly. It takes no
/// arrays, hence no ``device`` keyword.
#[pyfunction]
#[pyo3(signature = (in1_len, in2_len, mode = None), text_signature = "(in1_len, in2_len, mode='full')")]
pub(super) fn correlation_lags(
    py: Python<'_>,
    in1_len: i64,
    in2_len: i64,
    mode: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let mode = match mode {
        Some(mode) => mode.str()?.to_cow()?.into_owned(),
        None => "full".to_string(),
    };
    let lags = ops::correlation_lags(in1_len, in2_len, &mode)?;
    wrap(py, &Library::NumPy, Tensor::f_from_slice(&lags).map_err(Error::from)?, false)
}

/// Adds the convolution routines to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(convolve, module)?)?;
    module.add_function(wrap_pyfunction!(correlate, module)?)?;
    module.add_function(wrap_pyfunction!(fftconvolve, module)?)?;
    module.add_function(wrap_pyfunction!(oaconvolve, module)?)?;
    module.add_function(wrap_pyfunction!(convolve2d, module)?)?;
    module.add_function(wrap_pyfunction!(correlate2d, module)?)?;
    module.add_function(wrap_pyfunction!(choose_conv_method, module)?)?;
    module.add_function(wrap_pyfunction!(correlation_lags, module)?)
}
