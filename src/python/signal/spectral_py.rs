//! `scipy.signal._spectral_py`: `periodogram`, `welch`, `csd`, `coherence`,
//! `spectrogram`, `stft`, `istft`, `lombscargle` (see `crate::ops::signal::spectral_py`).
//!
//! The bindings resolve SciPy's defaults and checks (which need the input's
//! length: read from its `shape` before it is imported), build a named window
//! with `get_window` (imported with the arrays, on their device) and emit
//! SciPy's warnings; the ops compute.
// SciPy's signatures have up to thirteen parameters, `device` included.
#![allow(clippy::too_many_arguments)]

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::{PyDeprecationWarning, PyNotImplementedError, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyList, PyString, PyTuple};

use super::super::container::classify;
use super::windows::{window_list, Flag, Given};
use super::{map, map_tuple, Device};
use crate::ops::signal::signaltools::detrend::Trend;
use crate::ops::signal::spectral_py::{self as ops, Boundary, Inverse, Lomb, LombNormalize, Mode, Scaling, Segments};
use crate::Error;

/// How the spectral routines compute, for their docstrings.
macro_rules! spectral_note {
    () => {
        concat!(
            "torchbridge: the segments are one strided view of the input, detrended and\n\
             windowed in one batched pass each and transformed by ONE batched FFT\n\
             (SciPy loops over segments in Python); results agree with SciPy to\n\
             rounding (about 1e-13 of the largest output in float64); float32 input\n\
             computes in float32. A callable ``detrend`` raises\n\
             ``UnsupportedParameterError``.\n\n",
            device_note!()
        )
    };
}

/// SciPy's `detrend` argument: a trend name, `False`/`None` (none), or a callable (refused).
#[derive(Clone, Copy)]
pub(super) struct DetrendArg(Option<Trend>);

impl<'a, 'py> FromPyObject<'a, 'py> for DetrendArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<DetrendArg> {
        if let Ok(name) = obj.cast::<PyString>() {
            let name = name.to_cow()?;
            if name.is_empty() {
                return Ok(DetrendArg(None));
            }
            return Ok(DetrendArg(Some(name.parse::<Trend>()?)));
        }
        if obj.is_callable() {
            return Err(PyNotImplementedError::new_err(
                "detrend as a callable is not supported by torchbridge; accepted: 'constant', 'linear', False or None",
            ));
        }
        if !obj.is_truthy()? {
            return Ok(DetrendArg(None));
        }
        Err(Error::InvalidArgument(format!(
            "detrend must be 'constant', 'linear', False, None or a callable, got {}",
            obj.repr()?
        ))
        .into())
    }
}

/// The `shape` of an array argument (lists and scalars through numpy).
fn shape_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let arg = classify(obj)?;
    arg.array.getattr("shape")?.extract::<Vec<i64>>()
}

fn axis_len(shape: &[i64], axis: i64, what: &str) -> PyResult<i64> {
    let nd = shape.len() as i64;
    let a = if axis < 0 { axis + nd } else { axis };
    if nd == 0 {
        return Err(Error::InvalidArgument(format!("{what} must be at least 1-D, got a 0-d array")).into());
    }
    if !(0..nd).contains(&a) {
        return Err(Error::AxisOutOfBounds { axis, ndim: nd as usize }.into());
    }
    Ok(shape[a as usize])
}

fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let category = py.get_type::<PyUserWarning>();
    let message = std::ffi::CString::new(message).map_err(|e| Error::InvalidArgument(e.to_string()))?;
    PyErr::warn(py, &category, &message, 2)
}

fn is_named(window: &Bound<'_, PyAny>) -> bool {
    window.is_instance_of::<PyString>() || window.is_instance_of::<PyTuple>()
}

/// A placeholder window for the calls that return before using one (empty input).
fn placeholder(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    Ok(PyList::new(py, [1.0f64])?.into_any())
}

fn scaling_csd(scaling: &str) -> PyResult<Scaling> {
    match scaling {
        "density" => Ok(Scaling::Density),
        "spectrum" => Ok(Scaling::Spectrum),
        other => Err(Error::InvalidArgument(format!(
            "Parameter scaling='{other}' not in {{'spectrum': 'magnitude', 'density': 'psd'}}!"
        ))
        .into()),
    }
}

/// `csd`'s resolution of the window and the segment lengths (SciPy 1.17's
/// order of checks and messages), for a signal of length `n`.
fn resolve_csd<'py>(
    py: Python<'py>,
    window: &Bound<'py, PyAny>,
    nperseg: Option<i64>,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    n: i64,
) -> PyResult<(Bound<'py, PyAny>, i64, i64, i64)> {
    let (win, nperseg) = if is_named(window) {
        let mut nperseg = nperseg.unwrap_or(256);
        if nperseg < 1 {
            return Err(
                Error::InvalidArgument(format!("Parameter nperseg={nperseg} is not a positive integer!")).into()
            );
        }
        if n < nperseg {
            warn(
                py,
                &format!(
                    "nperseg={nperseg} is greater than signal length max(len(x), len(y)) = {n}, using nperseg = {n}"
                ),
            )?;
            nperseg = n;
        }
        (window_list(py, window, nperseg)?.into_bound(py), nperseg)
    } else {
        let shape = shape_of(window)?;
        if shape.len() != 1 {
            return Err(Error::InvalidArgument("window must be 1-D".into()).into());
        }
        let nperseg = nperseg.unwrap_or(shape[0]);
        if nperseg != shape[0] {
            return Err(
                Error::InvalidArgument(format!("nperseg={nperseg} does not equal len(win)={}", shape[0])).into()
            );
        }
        (window.clone(), nperseg)
    };
    let nfft = nfft.unwrap_or(nperseg);
    if nfft < nperseg {
        return Err(
            Error::InvalidArgument(format!("nfft={nfft} must be greater than or equal to nperseg={nperseg}!")).into()
        );
    }
    let noverlap = noverlap.unwrap_or(nperseg / 2);
    if noverlap >= nperseg {
        return Err(Error::InvalidArgument(format!("noverlap={noverlap} must be less than nperseg={nperseg}!")).into());
    }
    Ok((win, nperseg, noverlap, nfft))
}

/// The shared body of `welch` (`y = None`) and `csd`.
fn welch_like(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: Option<&Bound<'_, PyAny>>,
    fs: f64,
    window: &Bound<'_, PyAny>,
    nperseg: Option<i64>,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    detrend: DetrendArg,
    return_onesided: bool,
    scaling: &str,
    axis: i64,
    average: String,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let xs = shape_of(x)?;
    let lx = axis_len(&xs, axis, "x")?;
    let (n, empty) = match y {
        None => (lx, xs.contains(&0)),
        Some(y) => {
            let ys = shape_of(y)?;
            let ly = axis_len(&ys, axis, "y")?;
            let outer = |shape: &[i64]| -> Vec<i64> {
                let a = if axis < 0 { axis + shape.len() as i64 } else { axis } as usize;
                shape.iter().enumerate().filter(|(i, _)| *i != a).map(|(_, &d)| d).collect()
            };
            crate::ops::numpy::broadcast_shapes(&[&outer(&xs), &outer(&ys)])
                .map_err(|_| Error::InvalidArgument("x and y cannot be broadcast together.".into()))?;
            (lx.max(ly), xs.contains(&0) || ys.contains(&0))
        }
    };
    let (win, segments) = if empty {
        let s =
            Segments { fs, nperseg: 1, noverlap: 0, nfft: 1, detrend: None, onesided: true, scaling: Scaling::Density };
        (placeholder(py)?, s)
    } else {
        let (win, nperseg, noverlap, nfft) = resolve_csd(py, window, nperseg, noverlap, nfft, n)?;
        let scaling = scaling_csd(scaling)?;
        let s = Segments { fs, nperseg, noverlap, nfft, detrend: detrend.0, onesided: return_onesided, scaling };
        (win, s)
    };
    match y {
        None => map_tuple(py, device, &[x, &win], move |t| {
            let (f, p) = ops::csd(&t[0], None, &t[1], &segments, axis, &average)?;
            Ok(vec![f, p])
        }),
        Some(y) => map_tuple(py, device, &[x, y, &win], move |t| {
            let (f, p) = ops::csd(&t[0], Some(&t[1]), &t[2], &segments, axis, &average)?;
            Ok(vec![f, p])
        }),
    }
}

/// Estimate power spectral density using Welch's method.
///
/// Splits ``x`` along ``axis`` into segments of ``nperseg`` samples
/// overlapping by ``noverlap`` (default ``nperseg // 2``), detrends and
/// windows each, and averages their periodograms (``average="mean"`` or
/// ``"median"``, the latter divided by SciPy's bias); returns ``(f, Pxx)``.
/// ``scaling="density"`` gives V**2/Hz, ``"spectrum"`` V**2; complex input
/// gives two-sided spectra. float32 gives float32, other real input float64.
///
#[doc = spectral_note!()]
#[pyfunction]
#[pyo3(signature = (x, fs = 1.0, window = None, nperseg = None, noverlap = None, nfft = None, detrend = DetrendArg(Some(Trend::Constant)), return_onesided = Flag(true), scaling = "density".to_string(), axis = -1, average = "mean".to_string(), *, device = None), text_signature = "(x, fs=1.0, window='hann_periodic', nperseg=None, noverlap=None, nfft=None, detrend='constant', return_onesided=True, scaling='density', axis=-1, average='mean', *, device=None)")]
pub(super) fn welch(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    fs: f64,
    window: Option<&Bound<'_, PyAny>>,
    nperseg: Option<i64>,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    detrend: DetrendArg,
    return_onesided: Flag,
    scaling: String,
    axis: i64,
    average: String,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let default = PyString::new(py, "hann_periodic").into_any();
    let window = window.unwrap_or(&default);
    welch_like(
        py,
        x,
        None,
        fs,
        window,
        nperseg,
        noverlap,
        nfft,
        detrend,
        return_onesided.0,
        &scaling,
        axis,
        average,
        device,
    )
}

/// Estimate the cross power spectral density, Pxy, using Welch's method.
///
/// ``mean(conj(X) Y)`` over the segments' windowed FFTs ``X`` of ``x`` and
/// ``Y`` of ``y`` (the shorter zero-padded to the longer, the other axes
/// broadcast), scaled and averaged as in ``welch``; returns ``(f, Pxy)``,
/// complex (complex64 for float32 input). ``csd(x, x)`` with ``y is x``
/// returns the real ``welch`` result, as SciPy.
///
#[doc = spectral_note!()]
#[pyfunction]
#[pyo3(signature = (x, y, fs = 1.0, window = None, nperseg = None, noverlap = None, nfft = None, detrend = DetrendArg(Some(Trend::Constant)), return_onesided = Flag(true), scaling = "density".to_string(), axis = -1, average = "mean".to_string(), *, device = None), text_signature = "(x, y, fs=1.0, window='hann_periodic', nperseg=None, noverlap=None, nfft=None, detrend='constant', return_onesided=True, scaling='density', axis=-1, average='mean', *, device=None)")]
pub(super) fn csd(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    fs: f64,
    window: Option<&Bound<'_, PyAny>>,
    nperseg: Option<i64>,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    detrend: DetrendArg,
    return_onesided: Flag,
    scaling: String,
    axis: i64,
    average: String,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let default = PyString::new(py, "hann_periodic").into_any();
    let window = window.unwrap_or(&default);
    let y = if y.is(x) { None } else { Some(y) };
    welch_like(
        py,
        x,
        y,
        fs,
        window,
        nperseg,
        noverlap,
        nfft,
        detrend,
        return_onesided.0,
        &scaling,
        axis,
        average,
        device,
    )
}

/// Estimate power spectral density using a periodogram.
///
/// The windowed (``window``, default boxcar) periodogram of all of ``x``
/// along ``axis``: ``nfft`` longer than ``x`` zero-pads, shorter truncates
/// ``x``; returns ``(f, Pxx)`` scaled as in ``welch``.
///
#[doc = spectral_note!()]
#[pyfunction]
#[pyo3(signature = (x, fs = 1.0, window = None, nfft = None, detrend = DetrendArg(Some(Trend::Constant)), return_onesided = Flag(true), scaling = "density".to_string(), axis = -1, *, device = None), text_signature = "(x, fs=1.0, window='boxcar', nfft=None, detrend='constant', return_onesided=True, scaling='density', axis=-1, *, device=None)")]
pub(super) fn periodogram(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    fs: f64,
    window: Option<&Bound<'_, PyAny>>,
    nfft: Option<i64>,
    detrend: DetrendArg,
    return_onesided: Flag,
    scaling: String,
    axis: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let xs = shape_of(x)?;
    let default = PyString::new(py, "boxcar").into_any();
    let window = match window {
        Some(w) if !w.is_none() => w,
        _ => &default,
    };
    if xs.contains(&0) {
        return welch_like(
            py,
            x,
            None,
            fs,
            window,
            None,
            Some(0),
            None,
            detrend,
            true,
            &scaling,
            axis,
            "mean".into(),
            device,
        );
    }
    let len = axis_len(&xs, axis, "x")?;
    let (nperseg, nfft, truncate) = match nfft {
        None => (len, None, None),
        Some(n) if n == len => (n, Some(n), None),
        Some(n) if n > len => (len, Some(n), None),
        Some(n) => (n, None, Some(n)),
    };
    if !is_named(window) {
        let size: i64 = shape_of(window)?.iter().product();
        if size != nperseg {
            return Err(Error::InvalidArgument(
                "the size of the window must be the same size of the input on the specified axis".into(),
            )
            .into());
        }
    }
    let (win, nperseg, noverlap, nfft) = resolve_csd(py, window, Some(nperseg), Some(0), nfft, nperseg)?;
    let scaling = scaling_csd(&scaling)?;
    let s = Segments { fs, nperseg, noverlap, nfft, detrend: detrend.0, onesided: return_onesided.0, scaling };
    map_tuple(py, device, &[x, &win], move |t| {
        let x = match truncate {
            Some(n) => {
                let ax = crate::ops::numpy::normalize_axis(axis, t[0].dim())? as i64;
                t[0].f_narrow(ax, 0, n).map_err(Error::from)?
            }
            None => t[0].shallow_clone(),
        };
        let (f, p) = ops::csd(&x, None, &t[1], &s, axis, "mean")?;
        Ok(vec![f, p])
    })
}

/// Estimate the magnitude squared coherence estimate, Cxy, of discrete-time signals X and Y using Welch's method.
///
/// ``Cxy = |Pxy|**2 / (Pxx Pyy)`` from the Welch estimates of ``x``, ``y``
/// and their cross spectral density (mean average); returns ``(f, Cxy)``,
/// real, between 0 and 1.
///
#[doc = spectral_note!()]
#[pyfunction]
#[pyo3(signature = (x, y, fs = 1.0, window = None, nperseg = None, noverlap = None, nfft = None, detrend = DetrendArg(Some(Trend::Constant)), axis = -1, *, device = None), text_signature = "(x, y, fs=1.0, window='hann_periodic', nperseg=None, noverlap=None, nfft=None, detrend='constant', axis=-1, *, device=None)")]
pub(super) fn coherence(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    fs: f64,
    window: Option<&Bound<'_, PyAny>>,
    nperseg: Option<i64>,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    detrend: DetrendArg,
    axis: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let default = PyString::new(py, "hann_periodic").into_any();
    let window = window.unwrap_or(&default);
    let xs = shape_of(x)?;
    let ys = shape_of(y)?;
    let n = axis_len(&xs, axis, "x")?.max(axis_len(&ys, axis, "y")?);
    if xs.contains(&0) || ys.contains(&0) {
        return Err(Error::InvalidArgument("coherence of empty input: x and y must be non-empty".into()).into());
    }
    let (win, nperseg, noverlap, nfft) = resolve_csd(py, window, nperseg, noverlap, nfft, n)?;
    let s = Segments { fs, nperseg, noverlap, nfft, detrend: detrend.0, onesided: true, scaling: Scaling::Density };
    map_tuple(py, device, &[x, y, &win], move |t| {
        let (f, c) = ops::coherence(&t[0], &t[1], &t[2], &s, axis)?;
        Ok(vec![f, c])
    })
}

/// SciPy's legacy `_triage_segments(window, nperseg, input_length)`.
fn triage<'py>(
    py: Python<'py>,
    window: &Bound<'py, PyAny>,
    nperseg: Option<i64>,
    input_length: i64,
) -> PyResult<(Bound<'py, PyAny>, i64)> {
    if is_named(window) {
        let mut nperseg = nperseg.unwrap_or(256);
        if nperseg > input_length {
            warn(
                py,
                &format!(
                    "nperseg = {nperseg} is greater than input length  = {input_length}, using nperseg = {input_length}"
                ),
            )?;
            nperseg = input_length;
        }
        Ok((window_list(py, window, nperseg)?.into_bound(py), nperseg))
    } else {
        let shape = shape_of(window)?;
        if shape.len() != 1 {
            return Err(Error::InvalidArgument("window must be 1-D".into()).into());
        }
        if input_length < shape[0] {
            return Err(Error::InvalidArgument("window is longer than input signal".into()).into());
        }
        match nperseg {
            Some(n) if n != shape[0] => {
                Err(Error::InvalidArgument("value specified for nperseg is different from length of window".into())
                    .into())
            }
            _ => Ok((window.clone(), shape[0])),
        }
    }
}

/// The legacy `_spectral_helper(x, x, ...)` of `spectrogram` and `stft`.
fn legacy(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    fs: f64,
    window: &Bound<'_, PyAny>,
    nperseg: Option<i64>,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    detrend: DetrendArg,
    return_onesided: bool,
    scaling: Scaling,
    axis: i64,
    mode: Mode,
    boundary: Option<Boundary>,
    padded: bool,
    default_overlap: fn(i64) -> i64,
    triage_first: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let xs = shape_of(x)?;
    if xs.contains(&0) {
        // spectrogram triages its window before the empty check (SciPy warns there)
        if triage_first && is_named(window) {
            let len = axis_len(&xs, axis, "x")?;
            let n = nperseg.unwrap_or(256);
            if n > len {
                warn(py, &format!("nperseg = {n} is greater than input length  = {len}, using nperseg = {len}"))?;
            }
        }
        let s = Segments { fs, nperseg: 1, noverlap: 0, nfft: 1, detrend: None, onesided: true, scaling };
        let win = placeholder(py)?;
        return map_tuple(py, device, &[x, &win], move |t| {
            let r = ops::spectral_helper(&t[0], &t[1], &s, axis, mode, None, false)?;
            Ok(vec![r.freqs, r.time, r.result])
        });
    }
    let len = axis_len(&xs, axis, "x")?;
    if let Some(n) = nperseg {
        if n < 1 {
            return Err(Error::InvalidArgument("nperseg must be a positive integer".into()).into());
        }
    }
    let (win, nperseg) = triage(py, window, nperseg, len)?;
    let nfft = match nfft {
        None => nperseg,
        Some(n) if n < nperseg => {
            return Err(Error::InvalidArgument("nfft must be greater than or equal to nperseg.".into()).into())
        }
        Some(n) => n,
    };
    let noverlap = noverlap.unwrap_or_else(|| default_overlap(nperseg));
    if noverlap >= nperseg {
        return Err(Error::InvalidArgument("noverlap must be less than nperseg.".into()).into());
    }
    let s = Segments { fs, nperseg, noverlap, nfft, detrend: detrend.0, onesided: return_onesided, scaling };
    let switched = AtomicBool::new(false);
    let flag = &switched;
    let out = map_tuple(py, device, &[x, &win], move |t| {
        let r = ops::spectral_helper(&t[0], &t[1], &s, axis, mode, boundary, padded)?;
        flag.store(r.switched, Ordering::Relaxed);
        Ok(vec![r.freqs, r.time, r.result])
    })?;
    if switched.load(Ordering::Relaxed) {
        warn(py, "Input data is complex, switching to return_onesided=False")?;
    }
    Ok(out)
}

/// Compute a spectrogram with consecutive Fourier transforms (legacy function).
///
/// The periodograms of consecutive segments of ``x`` along ``axis``
/// (default window ``("tukey_periodic", 0.25)``, ``noverlap`` default
/// ``nperseg // 8``): returns ``(f, t, Sxx)``, frequencies at ``axis`` and
/// segment times last. ``mode`` ``"psd"`` (scaled as in ``welch``),
/// ``"complex"`` (the scaled STFT), ``"magnitude"``, ``"angle"`` or
/// ``"phase"`` (the angle unwrapped along frequency).
///
#[doc = spectral_note!()]
#[pyfunction]
#[pyo3(signature = (x, fs = 1.0, window = None, nperseg = None, noverlap = None, nfft = None, detrend = DetrendArg(Some(Trend::Constant)), return_onesided = Flag(true), scaling = "density".to_string(), axis = -1, mode = "psd".to_string(), *, device = None), text_signature = "(x, fs=1.0, window=('tukey_periodic', 0.25), nperseg=None, noverlap=None, nfft=None, detrend='constant', return_onesided=True, scaling='density', axis=-1, mode='psd', *, device=None)")]
pub(super) fn spectrogram(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    fs: f64,
    window: Option<&Bound<'_, PyAny>>,
    nperseg: Option<i64>,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    detrend: DetrendArg,
    return_onesided: Flag,
    scaling: String,
    axis: i64,
    mode: String,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let mode: Mode = mode.parse()?;
    let default =
        PyTuple::new(py, [PyString::new(py, "tukey_periodic").into_any(), PyFloat::new(py, 0.25).into_any()])?
            .into_any();
    let window = window.unwrap_or(&default);
    let scaling = match scaling.as_str() {
        "density" => Scaling::Density,
        "spectrum" => Scaling::Spectrum,
        other => return Err(Error::InvalidArgument(format!("Unknown scaling: '{other}'")).into()),
    };
    legacy(
        py,
        x,
        fs,
        window,
        nperseg,
        noverlap,
        nfft,
        detrend,
        return_onesided.0,
        scaling,
        axis,
        mode,
        None,
        false,
        |n| n / 8,
        true,
        device,
    )
}

/// `stft`'s `boundary`: `None` or a name.
fn boundary_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Boundary>> {
    if obj.is_none() {
        return Ok(None);
    }
    if let Ok(name) = obj.cast::<PyString>() {
        return Ok(Some(name.to_cow()?.parse::<Boundary>()?));
    }
    Err(Error::InvalidArgument(format!(
        "Unknown boundary option '{}', must be one of: ['even', 'odd', 'constant', 'zeros', None]",
        obj.str()?
    ))
    .into())
}

/// Compute the Short Time Fourier Transform (legacy function).
///
/// The windowed FFTs of consecutive segments of ``x`` along ``axis``
/// (``nperseg`` 256, ``noverlap`` default ``nperseg // 2``), after extending
/// ``x`` by ``nperseg // 2`` samples at both ends (``boundary``: ``"zeros"``,
/// ``"even"``, ``"odd"``, ``"constant"`` or ``None``) and zero-padding it to
/// whole segments (``padded``); scaled by ``1 / sum(win)`` (``"spectrum"``)
/// or ``1 / sqrt(fs sum(win**2))`` (``"psd"``). Returns ``(f, t, Zxx)``.
///
#[doc = spectral_note!()]
#[pyfunction]
#[pyo3(signature = (x, fs = 1.0, window = None, nperseg = 256, noverlap = None, nfft = None, detrend = DetrendArg(None), return_onesided = Flag(true), boundary = Given(None), padded = Flag(true), axis = -1, scaling = "spectrum".to_string(), *, device = None), text_signature = "(x, fs=1.0, window='hann_periodic', nperseg=256, noverlap=None, nfft=None, detrend=False, return_onesided=True, boundary='zeros', padded=True, axis=-1, scaling='spectrum', *, device=None)")]
pub(super) fn stft(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    fs: f64,
    window: Option<&Bound<'_, PyAny>>,
    nperseg: i64,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    detrend: DetrendArg,
    return_onesided: Flag,
    boundary: Given<'_>,
    padded: Flag,
    axis: i64,
    scaling: String,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let scaling = match scaling.as_str() {
        "psd" => Scaling::Density,
        "spectrum" => Scaling::Spectrum,
        other => {
            return Err(
                Error::InvalidArgument(format!("Parameter scaling='{other}' not in ['spectrum', 'psd']!")).into()
            )
        }
    };
    // `boundary=None` passed explicitly means no extension; not given means "zeros"
    let boundary = match &boundary.0 {
        None => Some(Boundary::Zeros),
        Some(b) => boundary_arg(b)?,
    };
    let default = PyString::new(py, "hann_periodic").into_any();
    let window = window.unwrap_or(&default);
    legacy(
        py,
        x,
        fs,
        window,
        Some(nperseg),
        noverlap,
        nfft,
        detrend,
        return_onesided.0,
        scaling,
        axis,
        Mode::Complex,
        boundary,
        padded.0,
        |n| n / 2,
        false,
        device,
    )
}

/// Perform the inverse Short Time Fourier transform (legacy function).
///
/// The inverse FFT of each segment of ``Zxx`` (``irfft`` for one-sided
/// input), windowed and overlap-added, divided by the overlap-added squared
/// window where it exceeds 1e-10 (SciPy warns when the NOLA condition fails
/// anywhere), trimmed by ``nperseg // 2`` at both ends with ``boundary``.
/// Returns ``(t, x)``.
///
#[doc = spectral_note!()]
#[pyfunction]
#[pyo3(signature = (Zxx, fs = 1.0, window = None, nperseg = None, noverlap = None, nfft = None, input_onesided = Flag(true), boundary = Flag(true), time_axis = -1, freq_axis = -2, scaling = "spectrum".to_string(), *, device = None), text_signature = "(Zxx, fs=1.0, window='hann_periodic', nperseg=None, noverlap=None, nfft=None, input_onesided=True, boundary=True, time_axis=-1, freq_axis=-2, scaling='spectrum', *, device=None)")]
#[allow(non_snake_case)] // SciPy's parameter name
pub(super) fn istft(
    py: Python<'_>,
    Zxx: &Bound<'_, PyAny>,
    fs: f64,
    window: Option<&Bound<'_, PyAny>>,
    nperseg: Option<i64>,
    noverlap: Option<i64>,
    nfft: Option<i64>,
    input_onesided: Flag,
    boundary: Flag,
    time_axis: i64,
    freq_axis: i64,
    scaling: String,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let shape = shape_of(Zxx)?;
    let nd = shape.len() as i64;
    if nd < 2 {
        return Err(Error::InvalidArgument("Input stft must be at least 2d!".into()).into());
    }
    if freq_axis == time_axis {
        return Err(Error::InvalidArgument("Must specify differing time and frequency axes!".into()).into());
    }
    let fa_len = axis_len(&shape, freq_axis, "Zxx")?;
    axis_len(&shape, time_axis, "Zxx")?;
    let n_default = if input_onesided.0 { 2 * (fa_len - 1) } else { fa_len };
    let nperseg = match nperseg {
        None => n_default,
        Some(n) if n < 1 => return Err(Error::InvalidArgument("nperseg must be a positive integer".into()).into()),
        Some(n) => n,
    };
    let nfft = match nfft {
        None if input_onesided.0 && nperseg == n_default + 1 => nperseg,
        None => n_default,
        Some(n) if n < nperseg => {
            return Err(Error::InvalidArgument("nfft must be greater than or equal to nperseg.".into()).into())
        }
        Some(n) => n,
    };
    let noverlap = noverlap.unwrap_or(nperseg / 2);
    if noverlap >= nperseg {
        return Err(Error::InvalidArgument("noverlap must be less than nperseg.".into()).into());
    }
    let default = PyString::new(py, "hann_periodic").into_any();
    let window = window.unwrap_or(&default);
    let win = if is_named(window) {
        window_list(py, window, nperseg)?.into_bound(py)
    } else {
        let ws = shape_of(window)?;
        if ws.len() != 1 {
            return Err(Error::InvalidArgument("window must be 1-D".into()).into());
        }
        if ws[0] != nperseg {
            return Err(Error::InvalidArgument(format!("window must have length of {nperseg}")).into());
        }
        window.clone()
    };
    let scaling = match scaling.as_str() {
        "psd" => Scaling::Density,
        "spectrum" => Scaling::Spectrum,
        other => {
            return Err(
                Error::InvalidArgument(format!("Parameter scaling='{other}' not in ['spectrum', 'psd']!")).into()
            )
        }
    };
    let p = Inverse {
        fs,
        nperseg,
        noverlap,
        nfft,
        input_onesided: input_onesided.0,
        boundary: boundary.0,
        time_axis,
        freq_axis,
        scaling,
    };
    let failed = AtomicBool::new(false);
    let flag = &failed;
    let out = map_tuple(py, device, &[Zxx, &win], move |t| {
        let (time, x, nola) = ops::istft(&t[0], &t[1], &p)?;
        flag.store(nola, Ordering::Relaxed);
        Ok(vec![time, x])
    })?;
    if failed.load(Ordering::Relaxed) {
        let tail = if boundary.0 { "" } else { " Possibly due to missing boundary" };
        warn(py, &format!("NOLA condition failed, STFT may not be invertible.{tail}"))?;
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// lombscargle
// ---------------------------------------------------------------------------

/// SciPy's `normalize` of `lombscargle`: a bool (`False` "power", `True` "normalize") or a name.
fn lomb_normalize(obj: &Given<'_>) -> PyResult<LombNormalize> {
    let Some(obj) = &obj.0 else { return Ok(LombNormalize::Power) };
    if let Ok(flag) = obj.cast::<PyBool>() {
        return Ok(if flag.is_true() { LombNormalize::Normalize } else { LombNormalize::Power });
    }
    if let Ok(name) = obj.cast::<PyString>() {
        return Ok(name.to_cow()?.parse::<LombNormalize>()?);
    }
    Err(Error::InvalidArgument("Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'.".into())
        .into())
}

/// Compute the generalized Lomb-Scargle periodogram.
///
/// The weighted least-squares fit ``y(w) = a cos(w x) + b sin(w x) (+ c with
/// floating_mean)`` of the samples ``y`` at times ``x`` at each angular
/// frequency of ``freqs`` (Zechmeister and Kurster): ``normalize=False`` /
/// ``"power"`` gives ``(A**2) N/4`` for a harmonic of amplitude ``A``;
/// ``True`` / ``"normalize"`` the power over the residuals around the
/// reference model, in [0, 1]; ``"amplitude"`` the complex amplitude and
/// phase. ``weights`` (non-negative, positive sum) weight the samples;
/// ``precenter`` (deprecated in SciPy 1.17, which warns when it is passed)
/// subtracts ``y.mean()`` first. x, y, freqs, weights must be 1-D (x, y and
/// weights of one non-zero length); results are float64 (complex128 for
/// ``"amplitude"``), 0-d for one frequency.
///
/// torchbridge: the ``(len(x), len(freqs))`` phase matrix is built in chunks of
/// frequencies (at most 2**22 elements each, so memory stays bounded) on the
/// arrays' device, its cos and sin reduced over the samples by matrix-vector
/// products, in float64 whatever the input's precision, as SciPy; results agree
/// with SciPy to rounding (about 1e-12 of the largest output). Complex input
/// raises ``UnsupportedParameterError`` (SciPy drops the imaginary part); the
/// tunable keywords are keyword-only (SciPy 1.17 still takes them positionally,
/// with a DeprecationWarning).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (x, y, freqs, *, precenter = Given(None), normalize = Given(None), weights = None, floating_mean = Flag(false), device = None), text_signature = "(x, y, freqs, *, precenter=None, normalize=False, weights=None, floating_mean=False, device=None)")]
pub(super) fn lombscargle(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    freqs: &Bound<'_, PyAny>,
    precenter: Given<'_>,
    normalize: Given<'_>,
    weights: Option<&Bound<'_, PyAny>>,
    floating_mean: Flag,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let normalize = lomb_normalize(&normalize)?;
    let centre = match &precenter.0 {
        Some(p) => p.is_truthy()?,
        None => false,
    };
    let p = Lomb { precenter: centre, normalize, floating_mean: floating_mean.0 };
    let out = match weights {
        Some(w) => map(py, device, &[x, y, freqs, w], move |t| ops::lombscargle(&t[0], &t[1], &t[2], Some(&t[3]), &p)),
        None => map(py, device, &[x, y, freqs], move |t| ops::lombscargle(&t[0], &t[1], &t[2], None, &p)),
    }?;
    if precenter.0.is_some() {
        let category = py.get_type::<PyDeprecationWarning>();
        PyErr::warn(
            py,
            &category,
            c"Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and will be removed in 1.19.0. Please leave 'precenter' unspecified. Passing True to 'precenter' can be exactly substituted by passing 'y = (y - y.mean())' into the input. Consider setting `floating_mean` to True instead.",
            2,
        )?;
    }
    Ok(out)
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(periodogram, module)?)?;
    module.add_function(wrap_pyfunction!(welch, module)?)?;
    module.add_function(wrap_pyfunction!(csd, module)?)?;
    module.add_function(wrap_pyfunction!(coherence, module)?)?;
    module.add_function(wrap_pyfunction!(spectrogram, module)?)?;
    module.add_function(wrap_pyfunction!(stft, module)?)?;
    module.add_function(wrap_pyfunction!(istft, module)?)?;
    module.add_function(wrap_pyfunction!(lombscargle, module)?)?;
    Ok(())
}
