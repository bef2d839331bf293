//! `detrend`, `hilbert` and `hilbert2` of `scipy.signal._signaltools` (see
//! `crate::ops::signal::signaltools::{detrend, hilbert}`).

use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString, PyTuple};

use super::windows::Flag;
use super::{map, Device};
use crate::ops::signal::signaltools::detrend::{self as detrend_ops, Trend};
use crate::ops::signal::signaltools::hilbert as ops;
use crate::Error;

/// Integers from an int, a sequence or an array of ints (`tolist()`).
fn integers(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
    if let Ok(v) = obj.extract::<i64>() {
        return Ok(vec![v]);
    }
    if let Ok(v) = obj.extract::<Vec<i64>>() {
        return Ok(v);
    }
    if let Ok(list) = obj.call_method0("tolist") {
        if let Ok(v) = list.extract::<i64>() {
            return Ok(vec![v]);
        }
        if let Ok(v) = list.extract::<Vec<i64>>() {
            return Ok(v);
        }
    }
    Err(Error::InvalidArgument(format!("{what} must be an integer or a 1-D sequence of integers, got {}", obj.repr()?))
        .into())
}

/// Remove linear or constant trend along axis from data.
///
/// ``type="linear"`` (the default) subtracts the least-squares line, fitted
/// on its own between consecutive break points ``bp`` (indices along
/// ``axis``); ``type="constant"`` subtracts the mean. Float32, float64,
/// complex64 and complex128 keep their dtype, other input gives float64
/// (``"constant"`` keeps float16, as NumPy's mean).
///
/// torchbridge: the fit is closed form (mean and slope against the centred
/// sample index) for all lanes at once, not one ``lstsq`` per piece;
/// ``overwrite_data`` is accepted and ignored: torchbridge never writes into
/// its inputs. The result is in the caller's array type.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (data, axis = -1, r#type = None, bp = None, overwrite_data = Flag(false), *, device = None), text_signature = "(data, axis=-1, type='linear', bp=0, overwrite_data=False, *, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn detrend(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    axis: i64,
    r#type: Option<&Bound<'_, PyAny>>,
    bp: Option<&Bound<'_, PyAny>>,
    overwrite_data: Flag,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_data;
    let trend = match r#type {
        None => Trend::Linear,
        Some(t) if t.is_instance_of::<PyString>() => t.extract::<String>()?.parse::<Trend>()?,
        Some(_) => return Err(Error::InvalidArgument("Trend type must be 'linear' or 'constant'.".into()).into()),
    };
    let bp = match bp {
        None => vec![0],
        Some(b) => integers(b, "bp")?,
    };
    map(py, device, &[data], move |t| detrend_ops::detrend(&t[0], axis, trend, &bp))
}

/// FFT-based computation of the analytic signal.
///
/// ``ifft(fft(x, N) h)`` along ``axis`` with SciPy's ``h``: 1 at 0 (and at
/// ``N/2`` for even ``N``), 2 on the positive frequencies, 0 on the negative
/// ones; the imaginary part is the Hilbert transform of real ``x``. float32
/// gives complex64, other real input complex128; complex input raises
/// ``ValueError``.
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (x, N = None, axis = -1, *, device = None), text_signature = "(x, N=None, axis=-1, *, device=None)")]
#[allow(non_snake_case)] // SciPy's parameter name
pub(super) fn hilbert(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    N: Option<i64>,
    axis: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map(py, device, &[x], move |t| ops::hilbert(&t[0], N, axis))
}

/// Compute the '2-D' analytic signal of `x`.
///
/// The "single-orthant" analytic signal over ``axes``: the 2-D FFT
/// (``N`` points per axis: an int for both, or a pair), doubled on the
/// positive frequencies of each axis and zeroed on the negative ones, then
/// inverted. A 1-D ``x`` is taken as one row (a 2-D result).
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (x, N = None, axes = None, *, device = None), text_signature = "(x, N=None, axes=(-2, -1), *, device=None)")]
#[allow(non_snake_case)] // SciPy's parameter name
pub(super) fn hilbert2(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    N: Option<&Bound<'_, PyAny>>,
    axes: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let axes = match axes {
        None => (-2, -1),
        Some(a) => {
            let v = integers(a, "axes")?;
            if v.len() != 2 {
                return Err(Error::InvalidArgument("axes must be a tuple of length 2".into()).into());
            }
            if v[0] == v[1] {
                return Err(Error::InvalidArgument("axes must contain 2 distinct axes".into()).into());
            }
            (v[0], v[1])
        }
    };
    let n = match N {
        None => None,
        Some(n) if n.is_instance_of::<PyInt>() => {
            let n: i64 = n.extract()?;
            if n <= 0 {
                return Err(Error::InvalidArgument("N must be positive.".into()).into());
            }
            Some((n, n))
        }
        Some(n) => {
            let message = "When given as a tuple, N must hold exactly two positive integers";
            let v = if n.is_instance_of::<PyTuple>() || n.hasattr("__len__")? {
                integers(n, "N").map_err(|_| Error::InvalidArgument(message.into()))?
            } else {
                return Err(Error::InvalidArgument(message.into()).into());
            };
            if v.len() != 2 || v.iter().any(|&k| k <= 0) {
                return Err(Error::InvalidArgument(message.into()).into());
            }
            Some((v[0], v[1]))
        }
    };
    map(py, device, &[x], move |t| ops::hilbert2(&t[0], n, axes))
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(detrend, module)?)?;
    module.add_function(wrap_pyfunction!(hilbert, module)?)?;
    module.add_function(wrap_pyfunction!(hilbert2, module)?)?;
    Ok(())
}
