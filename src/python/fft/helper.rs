//! The `scipy.fft._helper` functions: sample frequencies, shifts, fast lengths.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyFloat, PyInt, PyType};
use tch::{Device, Kind};

use super::super::container::{wrap, Library};
use super::{push, run, Truthy};
use crate::ops::fft::{self as ops, LengthFor};
use crate::Error;

/// `d`, the sample spacing: any object (SciPy's default is `1.0`), combined
/// with `n` by Python's own arithmetic, as NumPy does.
pub(crate) struct Spacing<'py>(Option<Bound<'py, PyAny>>);

impl<'a, 'py> FromPyObject<'a, 'py> for Spacing<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Spacing<'py>> {
        Ok(Spacing(Some(obj.to_owned())))
    }
}

fn numbers_type<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyType>>,
    name: &str,
) -> PyResult<&'py Bound<'py, PyType>> {
    cell.import(py, "numbers", name)
}

/// NumPy's `fftfreq`/`rfftfreq` checks of `n` (`numbers.Integral`; a bool
/// only for `rfftfreq`), then `n` as an integer and the frequency step
/// `1.0 / (n * d)` computed by Python's arithmetic (so a float32 `d` rounds
/// as in NumPy). Only real scalar steps are supported.
fn step(py: Python<'_>, n: &Bound<'_, PyAny>, d: &Spacing<'_>, real: bool) -> PyResult<(i64, f64)> {
    static INTEGRAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    static REAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let is_bool = n.is_instance_of::<PyBool>();
    if !real && is_bool {
        return Err(PyTypeError::new_err(format!("expected a sequence of integers or a single integer, got '{n}'")));
    }
    if !(n.is_instance_of::<PyInt>() || n.is_instance(numbers_type(py, &INTEGRAL, "Integral")?)?) {
        return Err(Error::InvalidArgument("n should be an integer".into()).into());
    }
    let count: i64 = n.extract()?;
    let d = match &d.0 {
        Some(d) => d.clone(),
        None => PyFloat::new(py, 1.0).into_any(),
    };
    let value = PyFloat::new(py, 1.0).div(n.mul(&d)?)?;
    let scalar = value.is_instance_of::<PyFloat>()
        || value.is_instance(numbers_type(py, &REAL, "Real")?)?
        || (value.getattr_opt("shape")?.is_some_and(|s| s.eq(()).unwrap_or(false))
            && value
                .getattr_opt("dtype")?
                .and_then(|dtype| dtype.getattr("kind").ok())
                .and_then(|kind| kind.extract::<String>().ok())
                .is_some_and(|kind| "biuf".contains(kind.as_str()) && kind.len() == 1));
    if !scalar {
        return Err(Error::NotImplemented(format!(
            "d={}: only a real scalar sample spacing is supported",
            d.repr()?.to_cow()?
        ))
        .into());
    }
    Ok((count, value.extract::<f64>()?))
}

/// The namespace `xp` asks results in: `None` for numpy output (no `xp`,
/// numpy itself, or a namespace without `fft`).
fn namespace<'a, 'py>(xp: Option<&'a Bound<'py, PyAny>>) -> PyResult<Option<&'a Bound<'py, PyAny>>> {
    let Some(xp) = xp.filter(|xp| !xp.is_none()) else {
        return Ok(None);
    };
    let numpy = xp.getattr_opt("__name__")?.is_some_and(|name| name.eq("numpy").unwrap_or(false));
    Ok(if numpy || !xp.hasattr("fft")? { None } else { Some(xp) })
}

/// The default real floating dtype of namespace `xp` (on `device`), as libtorch's kind.
fn default_float(xp: &Bound<'_, PyAny>, device: Option<&Bound<'_, PyAny>>) -> PyResult<Kind> {
    let name = if xp.getattr_opt("__name__")?.is_some_and(|name| name.eq("torch").unwrap_or(false)) {
        let dtype = xp.call_method0("get_default_dtype")?.str()?.to_cow()?.into_owned();
        dtype.trim_start_matches("torch.").to_string()
    } else if let Some(info) = xp.getattr_opt("__array_namespace_info__")? {
        let kwargs = pyo3::types::PyDict::new(xp.py());
        kwargs.set_item("device", device)?;
        let default = info.call0()?.call_method("default_dtypes", (), Some(&kwargs))?.get_item("real floating")?;
        let mut found = "float64".to_string();
        for name in ["float32", "float64"] {
            if let Some(dtype) = xp.getattr_opt(name)? {
                if default.eq(dtype)? {
                    found = name.to_string();
                    break;
                }
            }
        }
        found
    } else {
        "float64".to_string()
    };
    match name.as_str() {
        "float32" => Ok(Kind::Float),
        "float64" => Ok(Kind::Double),
        other => Err(Error::InvalidArgument(format!("frequencies in {other} are not supported")).into()),
    }
}

/// `fftfreq`/`rfftfreq`: computed by libtorch on the CPU, returned as numpy
/// float64, or (namespace `xp`) through `xp.from_dlpack` in its default float
/// dtype, moved to `device` (SciPy's own `device`: the output's).
fn frequencies(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    d: Spacing<'_>,
    xp: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
    real: bool,
) -> PyResult<Py<PyAny>> {
    let (n, scale) = step(py, n, &d, real)?;
    let device = device.filter(|d| !d.is_none());
    let compute = |kind: Kind| {
        if real {
            ops::rfftfreq_scaled(n, scale, (kind, Device::Cpu))
        } else {
            ops::fftfreq_scaled(n, scale, (kind, Device::Cpu))
        }
    };
    let Some(xp) = namespace(xp)? else {
        if device.is_some() {
            return Err(Error::InvalidArgument("device parameter is not supported for input array type".into()).into());
        }
        return wrap(py, &Library::NumPy, compute(Kind::Double)?, false);
    };
    let kind = default_float(xp, device)?;
    let name = xp.getattr_opt("__name__")?.map(|n| n.to_string()).unwrap_or_else(|| "namespace".into());
    let torch = name == "torch";
    let library = Library::Namespace { name, namespace: Arc::new(xp.clone().unbind()) };
    let result = wrap(py, &library, compute(kind)?, false)?;
    match device {
        None => Ok(result),
        Some(device) => {
            let method = if torch { "to" } else { "to_device" };
            Ok(result.bind(py).call_method1(method, (device,))?.unbind())
        }
    }
}

/// Return the Discrete Fourier Transform sample frequencies.
///
/// Sample frequencies of an ``n``-point FFT (`scipy.fft.fftfreq`):
/// ``[0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d*n)``.
///
/// A numpy float64 array unless namespace ``xp`` is given; then an ``xp``
/// array in that library's default float dtype (as ``xp.fft.fftfreq``),
/// computed by libtorch, exported through ``xp.from_dlpack`` and moved to
/// ``device``. ``d`` must be a real scalar (NumPy also takes complex and
/// array spacings: those raise NotImplementedError here).
///
#[doc = freq_note!()]
#[pyfunction]
#[pyo3(signature = (n, d = Spacing(None), *, xp = None, device = None), text_signature = "(n, d=1.0, *, xp=None, device=None)")]
pub(super) fn fftfreq(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    d: Spacing<'_>,
    xp: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    frequencies(py, n, d, xp, device, false)
}

/// Return the Discrete Fourier Transform sample frequencies (for usage with rfft, irfft).
///
/// Sample frequencies for :func:`rfft` (`scipy.fft.rfftfreq`):
/// ``[0, 1, ..., n//2] / (d*n)``; see :func:`fftfreq`.
///
#[doc = freq_note!()]
#[pyfunction]
#[pyo3(signature = (n, d = Spacing(None), *, xp = None, device = None), text_signature = "(n, d=1.0, *, xp=None, device=None)")]
pub(super) fn rfftfreq(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    d: Spacing<'_>,
    xp: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    frequencies(py, n, d, xp, device, true)
}

/// The `axes` of a shift, as NumPy's `fftshift` takes them: one integer or
/// an iterable of integers (`operator.index` each).
pub(crate) struct ShiftAxes(Vec<i64>);

impl<'a, 'py> FromPyObject<'a, 'py> for ShiftAxes {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<ShiftAxes> {
        let Ok(items) = obj.try_iter() else {
            return Ok(ShiftAxes(vec![obj.extract::<i64>()?]));
        };
        let mut axes = Vec::new();
        for item in items {
            push(&mut axes, item?.extract::<i64>()?, "axes")?;
        }
        Ok(ShiftAxes(axes))
    }
}

/// Shift the zero-frequency component to the center of the spectrum.
///
/// Moves the zero-frequency term to the centre (`scipy.fft.fftshift`):
/// rolls each of `axes` (default all) by half its length. Any dtype.
///
#[doc = shift_note!()]
#[pyfunction]
#[pyo3(signature = (x, axes = None, *, device = None))]
pub(super) fn fftshift(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    axes: Option<ShiftAxes>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let axes = axes.map(|a| a.0);
    run(py, x, device, move |t| ops::fftshift(t, axes.as_deref()))
}

/// The inverse of `fftshift`. Although identical for even-length `x`, the functions differ by one sample for odd-length `x`.
///
/// The inverse of :func:`fftshift` (`scipy.fft.ifftshift`).
///
#[doc = shift_note!()]
#[pyfunction]
#[pyo3(signature = (x, axes = None, *, device = None))]
pub(super) fn ifftshift(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    axes: Option<ShiftAxes>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let axes = axes.map(|a| a.0);
    run(py, x, device, move |t| ops::ifftshift(t, axes.as_deref()))
}

fn length_for(real: Truthy) -> LengthFor {
    if real.0 {
        LengthFor::Real
    } else {
        LengthFor::Complex
    }
}

/// Find the next fast size of input data to ``fft``, for zero-padding, etc.
///
/// The smallest fast FFT length ``>= target`` (`scipy.fft.next_fast_len`):
/// 11-smooth for complex transforms, 5-smooth with ``real=True``, exactly as
/// SciPy's pocketfft (targets up to 12, resp. 6, and 0 come back unchanged).
///
#[doc = fast_len_note!()]
#[pyfunction]
#[pyo3(signature = (target, real = Truthy(false)), text_signature = "(target, real=False)")]
pub(super) fn next_fast_len(target: i64, real: Truthy) -> PyResult<u64> {
    Ok(ops::next_fast_len(target, length_for(real))?)
}

/// Find the previous fast size of input data to ``fft``. Useful for discarding a minimal number of samples before FFT.
///
/// The largest fast FFT length ``<= target`` (`scipy.fft.prev_fast_len`);
/// see :func:`next_fast_len`.
///
#[doc = fast_len_note!()]
#[pyfunction]
#[pyo3(signature = (target, real = Truthy(false)), text_signature = "(target, real=False)")]
pub(super) fn prev_fast_len(target: i64, real: Truthy) -> PyResult<u64> {
    Ok(ops::prev_fast_len(target, length_for(real))?)
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(fftfreq, module)?)?;
    module.add_function(wrap_pyfunction!(rfftfreq, module)?)?;
    module.add_function(wrap_pyfunction!(fftshift, module)?)?;
    module.add_function(wrap_pyfunction!(ifftshift, module)?)?;
    module.add_function(wrap_pyfunction!(next_fast_len, module)?)?;
    module.add_function(wrap_pyfunction!(prev_fast_len, module)?)?;
    Ok(())
}
