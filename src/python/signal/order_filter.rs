//! The order filters of `scipy.signal._signaltools` (`order_filter`,
//! `medfilt`, `medfilt2d`), the adaptive `wiener` filter and `deconvolve`
//! (see `crate::ops::signal::signaltools::{order_filter, deconvolve}`).

use pyo3::exceptions::PyUserWarning;
use pyo3::prelude::*;

use super::{map, map_tuple, Device};
use crate::ops::signal::signaltools::deconvolve as deconv;
use crate::ops::signal::signaltools::order_filter::{self as ops, KernelSize};

/// How the order filters compute, for their docstrings.
macro_rules! order_note {
    () => {
        concat!(
            "torchbridge: the input zero-padded once, every footprint position a shifted\n\
             view of it; the rank is selected by a pruned sorting network (elementwise\n\
             ``minimum``/``maximum`` over the whole array per comparator), or for large\n\
             footprints (past about 120 positions) by sorting the stacked views.\n\
             Results equal SciPy's exactly for finite input. A NaN under the\n\
             footprint gives NaN (SciPy's result then depends on the comparison\n\
             order of its selection code); SciPy's\n\
             ``RuntimeError`` for a bad ``rank`` or footprint is a ``ValueError`` here.\n\n",
            signal_note!()
        )
    };
}

/// `kernel_size` / `mysize`: an integer (every axis) or a sequence of integers.
impl<'a, 'py> FromPyObject<'a, 'py> for KernelSize {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<KernelSize> {
        if let Ok(k) = obj.extract::<i64>() {
            return Ok(KernelSize::Scalar(k));
        }
        let mut sizes = Vec::new();
        for item in obj.try_iter()? {
            sizes.push(item?.extract::<i64>()?);
        }
        Ok(KernelSize::PerAxis(sizes))
    }
}

fn warn_exceeds(py: Python<'_>, exceeds: bool) -> PyResult<()> {
    if exceeds {
        let category = py.get_type::<PyUserWarning>();
        PyErr::warn(py, &category, c"kernel_size exceeds volume extent: the volume will be zero-padded.", 1)?;
    }
    Ok(())
}

/// Perform an order filter on an N-D array.
///
/// Each output is the ``rank``-th smallest (0: the minimum) of the input's
/// samples under the nonzero elements of ``domain`` (an array of ``a``'s
/// dimensionality, odd along every axis), ``a`` zero-padded at its edges, as
/// ``scipy.signal.order_filter`` (``ndimage.rank_filter(..., mode="constant")``);
/// a negative ``rank`` counts from the largest. Integer, float32 and float64
/// input; the result keeps the dtype.
///
#[doc = order_note!()]
#[pyfunction]
#[pyo3(signature = (a, domain, rank, *, device = None), text_signature = "(a, domain, rank, *, device=None)")]
pub(super) fn order_filter(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    domain: &Bound<'_, PyAny>,
    rank: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map(py, device, &[a, domain], move |t| ops::order_filter(&t[0], &t[1], rank))
}

/// Perform a median filter on an N-dimensional array.
///
/// The median of every ``kernel_size`` window (an odd integer, or one per
/// axis; default 3), the input zero-padded at its edges; a 0-d input is
/// taken as 1-d. Integer, float32 and float64 input; the result keeps the
/// dtype. Warns when the kernel exceeds the input, as SciPy.
///
#[doc = order_note!()]
#[pyfunction]
#[pyo3(signature = (volume, kernel_size = None, *, device = None), text_signature = "(volume, kernel_size=None, *, device=None)")]
pub(super) fn medfilt(
    py: Python<'_>,
    volume: &Bound<'_, PyAny>,
    kernel_size: Option<KernelSize>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let mut exceeds = false;
    let result = map(py, device, &[volume], |t| {
        let (out, wide) = ops::medfilt(&t[0], kernel_size.as_ref())?;
        exceeds = wide;
        Ok(out)
    })?;
    warn_exceeds(py, exceeds)?;
    Ok(result)
}

/// Median filter a 2-dimensional array.
///
/// :func:`medfilt` of a 2-d array with ``kernel_size`` one odd integer or two
/// (default 3): uint8, float32 and float64 input must be 2-d (SciPy's C
/// path); other integer input takes :func:`medfilt`'s path, as in SciPy.
///
#[doc = order_note!()]
#[pyfunction]
#[pyo3(signature = (input, kernel_size = KernelSize::Scalar(3), *, device = None), text_signature = "(input, kernel_size=3, *, device=None)")]
pub(super) fn medfilt2d(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    kernel_size: KernelSize,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let mut exceeds = false;
    let result = map(py, device, &[input], |t| {
        let (out, wide) = ops::medfilt2d(&t[0], &kernel_size)?;
        exceeds = wide;
        Ok(out)
    })?;
    warn_exceeds(py, exceeds)?;
    Ok(result)
}

/// Perform a Wiener filter on an N-dimensional array.
///
/// Wiener's adaptive filter: with the local mean ``m`` and variance ``v`` over
/// ``mysize`` windows (default 3 along every axis; zero-padded, as
/// ``correlate(im, ones(mysize), "same")``) and ``noise`` (default: the mean
/// of ``v``), the output is ``m`` where ``v < noise`` and
/// ``m + (1 - noise / v) (im - m)`` elsewhere. float64 result.
///
/// torchbridge: :func:`correlate` for the local sums, on the arrays' device;
/// complex input (which SciPy compares lexicographically) raises
/// ``UnsupportedParameterError``; SciPy's divide-by-zero ``RuntimeWarning`` is
/// not given (the values, inf and nan included, are the same).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (im, mysize = None, noise = None, *, device = None), text_signature = "(im, mysize=None, noise=None, *, device=None)")]
pub(super) fn wiener(
    py: Python<'_>,
    im: &Bound<'_, PyAny>,
    mysize: Option<KernelSize>,
    noise: Option<f64>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map(py, device, &[im], move |t| ops::wiener(&t[0], mysize.as_ref(), noise))
}

/// Deconvolves ``divisor`` out of ``signal`` using inverse filtering.
///
/// Polynomial division: ``(quotient, remainder)`` with
/// ``signal = convolve(divisor, quotient) + remainder``, the quotient the
/// impulse response of the filter ``signal / divisor`` (:func:`lfilter`), as
/// SciPy computes it; both 1-d, float64 (complex for complex input).
///
/// torchbridge: :func:`lfilter`'s blocked scan and :func:`convolve` on the
/// arrays' device. When ``divisor`` is longer than ``signal`` the quotient is
/// an empty float64 array (SciPy returns an empty list) and the remainder a
/// copy of ``signal`` (SciPy returns ``signal`` itself).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (signal, divisor, *, device = None), text_signature = "(signal, divisor, *, device=None)")]
pub(super) fn deconvolve(
    py: Python<'_>,
    signal: &Bound<'_, PyAny>,
    divisor: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map_tuple(py, device, &[signal, divisor], move |t| {
        let (quot, rem) = deconv::deconvolve(&t[0], &t[1])?;
        Ok(vec![quot, rem])
    })
}

/// Adds the order filters, `wiener` and `deconvolve` to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(order_filter, module)?)?;
    module.add_function(wrap_pyfunction!(medfilt, module)?)?;
    module.add_function(wrap_pyfunction!(medfilt2d, module)?)?;
    module.add_function(wrap_pyfunction!(wiener, module)?)?;
    module.add_function(wrap_pyfunction!(deconvolve, module)?)
}
