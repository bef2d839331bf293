//! The linear filters of `scipy.signal._signaltools`: `lfilter`,
//! `lfilter_zi`, `lfiltic`, `sosfilt`, `sosfilt_zi`, `filtfilt`,
//! `sosfiltfilt` (see `crate::ops::signal::signaltools::lfilter`).
// SciPy's signatures have up to nine parameters, `device` included.
#![allow(clippy::too_many_arguments)]

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::{map, map_tuple, Device};
use crate::ops::signal::signaltools::lfilter::{self as ops, PadType};
use crate::Error;

/// How the IIR filters compute, for their docstrings.
macro_rules! iir_note {
    () => {
        concat!(
            "torchbridge: on the CPU, SciPy's own loop (direct form II transposed; the\n\
             biquad cascade for ``sos``) as a kernel on the tensors, in SciPy's order of\n\
             operations: float32 and float64 ``lfilter`` and ``sosfilt`` results equal\n\
             SciPy's bit for bit (``len(a) == 1``, which SciPy convolves, and complex\n\
             data: to rounding; the zero-phase filters: to rounding, their steady states\n\
             being solved in double-double where SciPy solves in float64); the rows\n\
             (every other axis) run on ``torch.get_num_threads()`` threads, eight rows\n\
             interleaved per thread. On CUDA, and for a torch input that requires grad\n\
             (from Rust: the Python routines return detached results), a blocked\n\
             linear-recurrence scan on libtorch ops on the arrays' device: blocks of 32\n\
             samples solved from zero state by one GEMM, the block states propagated by\n\
             a second level of blocking, then corrected by one more GEMM, the small\n\
             matrices built on the host in double-double precision; it agrees with\n\
             SciPy to about 1e-13 of max |y| in float64 on well-conditioned filters.\n\n",
            signal_note!()
        )
    };
}

/// `padtype`: `"odd"`, `"even"`, `"constant"` or `None` (SciPy's message otherwise).
pub(super) struct Pad(Option<PadType>);

impl<'a, 'py> FromPyObject<'a, 'py> for Pad {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Pad> {
        if obj.is_none() {
            return Ok(Pad(None));
        }
        if let Ok(name) = obj.cast::<PyString>() {
            return Ok(Pad(Some(name.to_cow()?.parse()?)));
        }
        Err(Error::InvalidArgument(format!(
            "Unknown value '{}' given to padtype. padtype must be 'even', 'odd', 'constant', or None.",
            obj.str()?.to_cow()?
        ))
        .into())
    }
}

/// Filter data along one-dimension with an IIR or FIR filter.
///
/// Filters `x` along `axis` with the rational transfer function `b(z) / a(z)`
/// (direct form II transposed; ``a[0] != 1`` normalises both). Returns ``y``,
/// or ``(y, zf)`` when the initial state ``zi`` is given (``x``'s shape with
/// ``axis`` of length ``max(len(a), len(b)) - 1``; singleton dimensions
/// broadcast). The result dtype is NumPy's result type of ``b``, ``a``, ``x``
/// and ``zi``; integer-only and float16 results raise ``NotImplementedError``
/// as in SciPy.
#[doc = ""]
#[doc = iir_note!()]
#[pyfunction]
#[pyo3(signature = (b, a, x, axis = -1, zi = None, *, device = None), text_signature = "(b, a, x, axis=-1, zi=None, *, device=None)")]
pub(super) fn lfilter(
    py: Python<'_>,
    b: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    axis: i64,
    zi: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    match zi {
        None => map(py, device, &[b, a, x], move |t| Ok(ops::lfilter(&t[0], &t[1], &t[2], axis, None)?.0)),
        Some(zi) => map_tuple(py, device, &[b, a, x, zi], move |t| {
            let (y, zf) = ops::lfilter(&t[0], &t[1], &t[2], axis, Some(&t[3]))?;
            Ok(vec![y, zf.ok_or_else(|| Error::Torch("lfilter returned no final state".into()))?])
        }),
    }
}

/// Construct initial conditions for lfilter for step response steady-state.
///
/// The state ``zi`` (length ``max(len(a), len(b)) - 1``) for which ``lfilter``
/// starts in the steady state of its step response: ``zi = A zi + B`` solved
/// as in SciPy (leading zeros of ``a`` dropped, ``a[0] != 1`` normalised).
#[doc = ""]
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (b, a, *, device = None), text_signature = "(b, a, *, device=None)")]
pub(super) fn lfilter_zi(
    py: Python<'_>,
    b: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map(py, device, &[b, a], move |t| ops::lfilter_zi(&t[0], &t[1]))
}

/// Construct initial conditions for lfilter given input and output vectors.
///
/// The DF2T state that the past outputs ``y`` and inputs ``x`` (most recent
/// first; missing values are zeros) leave in the filter ``b / a``; bool and
/// integer inputs give float64, as in SciPy.
#[doc = ""]
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (b, a, y, x = None, *, device = None), text_signature = "(b, a, y, x=None, *, device=None)")]
pub(super) fn lfiltic(
    py: Python<'_>,
    b: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    x: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    match x {
        None => map(py, device, &[b, a, y], move |t| ops::lfiltic(&t[0], &t[1], &t[2], None)),
        Some(x) => map(py, device, &[b, a, y, x], move |t| ops::lfiltic(&t[0], &t[1], &t[2], Some(&t[3]))),
    }
}

/// Apply a digital filter forward and backward to a signal.
///
/// Zero-phase filtering: ``x`` extended at both ends by ``padlen`` samples
/// (default ``3 * max(len(a), len(b))``) as ``padtype`` says, filtered forward
/// from the step-response steady state ``lfilter_zi(b, a) * x[0]``, then
/// backward likewise, and the extension cut off, as SciPy's ``method="pad"``.
/// ``method="gust"`` (Gustafsson's method) raises ``UnsupportedParameterError``.
#[doc = ""]
#[doc = iir_note!()]
#[pyfunction]
#[pyo3(
    signature = (b, a, x, axis = -1, padtype = Pad(Some(PadType::Odd)), padlen = None, method = None, irlen = None, *, device = None),
    text_signature = "(b, a, x, axis=-1, padtype='odd', padlen=None, method='pad', irlen=None, *, device=None)"
)]
pub(super) fn filtfilt(
    py: Python<'_>,
    b: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    axis: i64,
    padtype: Pad,
    padlen: Option<i64>,
    method: Option<&Bound<'_, PyAny>>,
    irlen: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ignored = irlen; // SciPy reads it for method="gust" only
    if let Some(method) = method {
        let name = method.cast::<PyString>().ok().map(|s| s.to_cow().map(|c| c.into_owned())).transpose()?;
        match name.as_deref() {
            Some("pad") => {}
            Some("gust") => {
                return Err(Error::NotImplemented(
                    "filtfilt(method='gust') (Gustafsson's method) is not implemented; use method='pad'".into(),
                )
                .into())
            }
            _ => return Err(Error::InvalidArgument("method must be 'pad' or 'gust'.".into()).into()),
        }
    }
    let padtype = padtype.0;
    map(py, device, &[b, a, x], move |t| ops::filtfilt(&t[0], &t[1], &t[2], axis, padtype, padlen))
}

/// Filter data along one dimension using cascaded second-order sections.
///
/// Filters ``x`` along ``axis`` through the second-order sections ``sos``
/// (``(n_sections, 6)``, ``sos[:, 3] == 1``) in turn, each in direct form II
/// transposed. Returns ``y``, or ``(y, zf)`` when ``zi`` (shape
/// ``(n_sections, ..., 2, ...)``, ``x``'s shape with ``axis`` of length 2) is
/// given. The cascade is computed as one state-space system whose state is
/// the sections' states, with SciPy's dtype rules.
#[doc = ""]
#[doc = iir_note!()]
#[pyfunction]
#[pyo3(signature = (sos, x, axis = -1, zi = None, *, device = None), text_signature = "(sos, x, axis=-1, zi=None, *, device=None)")]
pub(super) fn sosfilt(
    py: Python<'_>,
    sos: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    axis: i64,
    zi: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    match zi {
        None => map(py, device, &[sos, x], move |t| Ok(ops::sosfilt(&t[0], &t[1], axis, None)?.0)),
        Some(zi) => map_tuple(py, device, &[sos, x, zi], move |t| {
            let (y, zf) = ops::sosfilt(&t[0], &t[1], axis, Some(&t[2]))?;
            Ok(vec![y, zf.ok_or_else(|| Error::Torch("sosfilt returned no final state".into()))?])
        }),
    }
}

/// Construct initial conditions for sosfilt for step response steady-state.
///
/// ``(n_sections, 2)`` states: each section's ``lfilter_zi`` scaled by the DC
/// gain of the sections before it, as in SciPy.
#[doc = ""]
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (sos, *, device = None), text_signature = "(sos, *, device=None)")]
pub(super) fn sosfilt_zi(py: Python<'_>, sos: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map(py, device, &[sos], move |t| ops::sosfilt_zi(&t[0]))
}

/// A forward-backward digital filter using cascaded second-order sections.
///
/// ``filtfilt`` for second-order sections: the padded signal filtered forward
/// from ``sosfilt_zi(sos) * x[0]`` and backward likewise (default ``padlen``
/// ``3 * (2 * n_sections + 1 - min(zeros at the origin))`` as in SciPy).
#[doc = ""]
#[doc = iir_note!()]
#[pyfunction]
#[pyo3(
    signature = (sos, x, axis = -1, padtype = Pad(Some(PadType::Odd)), padlen = None, *, device = None),
    text_signature = "(sos, x, axis=-1, padtype='odd', padlen=None, *, device=None)"
)]
pub(super) fn sosfiltfilt(
    py: Python<'_>,
    sos: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    axis: i64,
    padtype: Pad,
    padlen: Option<i64>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let padtype = padtype.0;
    map(py, device, &[sos, x], move |t| ops::sosfiltfilt(&t[0], &t[1], axis, padtype, padlen))
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(lfilter, module)?)?;
    module.add_function(wrap_pyfunction!(lfilter_zi, module)?)?;
    module.add_function(wrap_pyfunction!(lfiltic, module)?)?;
    module.add_function(wrap_pyfunction!(filtfilt, module)?)?;
    module.add_function(wrap_pyfunction!(sosfilt, module)?)?;
    module.add_function(wrap_pyfunction!(sosfilt_zi, module)?)?;
    module.add_function(wrap_pyfunction!(sosfiltfilt, module)?)?;
    Ok(())
}
