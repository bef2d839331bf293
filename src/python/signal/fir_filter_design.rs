//! FIR filter design by the window method (`scipy.signal._fir_filter_design`):
//! `kaiser_beta`, `kaiser_atten`, `kaiserord`, `firwin`, `firwin2` (see
//! `crate::ops::signal::fir_filter_design`).

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};
use tch::{Device, Kind, Tensor};

use super::super::container::{compute, import_all, wrap, Library};
use super::windows::{window_tensor, Given};
use super::Fs;
use crate::ops::signal::fir_filter_design::{self as ops, PassZero};
use crate::ops::signal::windows::kaiser;
use crate::Error;

/// Compute the Kaiser parameter `beta`, given the attenuation `a`.
///
/// ``0.1102 (a - 8.7)`` above 50 dB, ``0.5842 (a - 21)**0.4 + 0.07886 (a - 21)``
/// above 21 dB, else 0 (Oppenheim and Schafer, pp. 475-476).
///
/// torchbridge: plain float arithmetic, as SciPy's; it takes no arrays, hence
/// no ``device``.
#[pyfunction]
#[pyo3(signature = (a), text_signature = "(a)")]
pub(super) fn kaiser_beta(a: f64) -> f64 {
    ops::kaiser_beta(a)
}

/// Compute the attenuation of a Kaiser FIR filter.
///
/// Kaiser's formula ``2.285 (numtaps - 1) pi width + 7.95`` (dB), ``width``
/// a fraction of the Nyquist frequency.
///
/// torchbridge: plain float arithmetic, as SciPy's; it takes no arrays, hence
/// no ``device``.
#[pyfunction]
#[pyo3(signature = (numtaps, width), text_signature = "(numtaps, width)")]
pub(super) fn kaiser_atten(numtaps: f64, width: f64) -> f64 {
    ops::kaiser_atten(numtaps, width)
}

/// Determine the filter window parameters for the Kaiser window method.
///
/// ``(numtaps, beta)`` for a ripple bound of ``ripple`` dB and a transition
/// ``width`` (a fraction of the Nyquist frequency), by Kaiser's empirical
/// formulas; a ripple under 8 dB raises ``ValueError``.
///
/// torchbridge: plain float arithmetic, as SciPy's; it takes no arrays, hence
/// no ``device``.
#[pyfunction]
#[pyo3(signature = (ripple, width), text_signature = "(ripple, width)")]
pub(super) fn kaiserord(ripple: f64, width: f64) -> PyResult<(i64, f64)> {
    Ok(ops::kaiserord(ripple, width)?)
}

/// Where a design result goes: `None` for numpy, else an array library and device.
type Follow = Option<(Library, Device)>;

/// Floats from a number, a sequence or a 1-D array (its library and device
/// when it is an array other than NumPy's, so the result follows it).
fn floats(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(Vec<f64>, Follow)> {
    if let Ok(v) = obj.extract::<f64>() {
        return Ok((vec![v], None));
    }
    if let Ok(v) = obj.extract::<Vec<f64>>() {
        return Ok((v, None));
    }
    if obj.hasattr("__dlpack__")? {
        let (tensors, library) = import_all(&[obj])?;
        let t = &tensors[0];
        if t.dim() > 1 {
            return Err(Error::InvalidArgument(format!("The {what} argument must be at most one-dimensional.")).into());
        }
        let device = t.device();
        let v: Vec<f64> = Vec::try_from(
            t.f_to_kind(Kind::Double)
                .and_then(|t| t.f_to_device(Device::Cpu))
                .map_err(Error::from)?
                .f_reshape([-1])
                .map_err(Error::from)?,
        )
        .map_err(Error::from)?;
        let follow = if matches!(library, Library::NumPy) { None } else { Some((library, device)) };
        return Ok((v, follow));
    }
    if obj.extract::<Vec<Vec<f64>>>().is_ok() {
        return Err(Error::InvalidArgument(format!("The {what} argument must be at most one-dimensional.")).into());
    }
    Err(Error::InvalidArgument(format!("{what} must be a number or a 1-D sequence of numbers, got {}", obj.repr()?))
        .into())
}

/// The design (float64, host) as numpy, or as the given array's library on its device.
fn design_result(py: Python<'_>, h: Tensor, follow: Follow) -> PyResult<Py<PyAny>> {
    match follow {
        None => wrap(py, &Library::NumPy, h, false),
        Some((library, device)) => wrap(py, &library, h.f_to_device(device).map_err(Error::from)?, false),
    }
}

/// FIR filter design using the window method.
///
/// The ``numtaps`` coefficients of a linear-phase filter with band edges
/// ``cutoff`` (in the units of ``fs``, default 2: strictly increasing,
/// between 0 and ``fs/2``): the ideal response's sinc terms times the
/// symmetric ``window`` (any name or tuple :func:`get_window` accepts; with
/// ``width``, the Kaiser window of ``kaiser_beta(kaiser_atten(numtaps,
/// width/nyq))``); ``pass_zero`` (``True``/``False`` or ``"lowpass"``,
/// ``"highpass"``, ``"bandpass"``, ``"bandstop"``) puts DC in a pass or stop
/// band; ``scale`` normalises the response to 1 at the centre of the first
/// passband (DC, or Nyquist for a highpass).
///
/// torchbridge: computed in float64 on the host by libtorch (``sinc``, the
/// window); returns a numpy float64 array, or, when ``cutoff`` is an array of
/// another library, that library's array on its device (SciPy's
/// ``array_namespace(cutoff)``). Agrees with SciPy to about 1e-15.
#[pyfunction]
#[pyo3(signature = (numtaps, cutoff, *, width = None, window = None, pass_zero = None, scale = true, fs = Fs(None)), text_signature = "(numtaps, cutoff, *, width=None, window='hamming', pass_zero=True, scale=True, fs=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn firwin<'py>(
    py: Python<'py>,
    numtaps: i64,
    cutoff: &Bound<'py, PyAny>,
    width: Option<f64>,
    window: Option<&Bound<'py, PyAny>>,
    pass_zero: Option<&Bound<'py, PyAny>>,
    scale: bool,
    fs: Fs,
) -> PyResult<Py<PyAny>> {
    let fs = fs.0.unwrap_or(2.0);
    let (cutoff, follow) = floats(cutoff, "cutoff")?;
    let pass_zero = match pass_zero {
        None => PassZero::Bool(true),
        Some(p) if p.is_instance_of::<PyBool>() => PassZero::Bool(p.is_truthy()?),
        Some(p) if p.is_instance_of::<PyString>() => match p.extract::<String>()?.as_str() {
            "lowpass" => PassZero::Lowpass,
            "highpass" => PassZero::Highpass,
            "bandpass" => PassZero::Bandpass,
            "bandstop" => PassZero::Bandstop,
            other => {
                return Err(Error::InvalidArgument(format!(
                    "Parameter pass_zero='{other}' not in (True, False, 'bandpass', 'lowpass', 'highpass', 'bandstop')"
                ))
                .into())
            }
        },
        Some(p) => {
            return Err(Error::InvalidArgument(format!(
                "Parameter pass_zero={} not in (True, False, 'bandpass', 'lowpass', 'highpass', 'bandstop')",
                p.repr()?
            ))
            .into())
        }
    };
    if numtaps < 1 {
        return Err(Error::InvalidArgument(format!("numtaps must be a positive integer, got {numtaps}")).into());
    }
    let win = match width {
        Some(width) => {
            let beta = ops::firwin_width_beta(numtaps, width, fs);
            kaiser(numtaps, beta, true, Device::Cpu)?
        }
        None => match window {
            Some(w) => window_tensor(py, w, numtaps, false)?,
            None => window_tensor(py, PyString::new(py, "hamming").as_any(), numtaps, false)?,
        },
    };
    let h = compute(py, 0, move || ops::firwin(numtaps, &cutoff, &win, pass_zero, scale, fs))?;
    design_result(py, h, follow)
}

/// FIR filter design using the window method.
///
/// The ``numtaps`` coefficients of a linear-phase filter whose response
/// passes through the gains ``gain`` at the frequencies ``freq`` (from 0 to
/// ``fs/2``, nondecreasing, a value repeated once for a discontinuity):
/// the gains interpolated linearly on ``nfreqs`` points (default one more than
/// the power of 2 at or above ``numtaps``), phase-shifted, one inverse real
/// FFT, the first ``numtaps`` samples times the symmetric ``window`` (or
/// none for ``None``); ``antisymmetric`` gives the type III/IV filters.
///
/// torchbridge: computed in float64 on the host, the inverse FFT libtorch's
/// ``irfft``; returns a numpy float64 array, or, when ``freq`` is an array of
/// another library, that library's array on its device. Agrees with SciPy to
/// about 1e-15.
#[pyfunction]
#[pyo3(signature = (numtaps, freq, gain, *, nfreqs = None, window = Given(None), antisymmetric = false, fs = Fs(None)), text_signature = "(numtaps, freq, gain, *, nfreqs=None, window='hamming', antisymmetric=False, fs=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn firwin2<'py>(
    py: Python<'py>,
    numtaps: i64,
    freq: &Bound<'py, PyAny>,
    gain: &Bound<'py, PyAny>,
    nfreqs: Option<i64>,
    window: Given<'py>,
    antisymmetric: bool,
    fs: Fs,
) -> PyResult<Py<PyAny>> {
    let fs = fs.0.unwrap_or(2.0);
    let (freq, follow) = floats(freq, "freq")?;
    let (gain, follow_gain) = floats(gain, "gain")?;
    let follow = follow.or(follow_gain);
    if numtaps < 1 {
        return Err(Error::InvalidArgument(format!("numtaps must be a positive integer, got {numtaps}")).into());
    }
    let win = match window.0 {
        None => Some(window_tensor(py, PyString::new(py, "hamming").as_any(), numtaps, false)?),
        Some(w) if w.is_none() => None,
        Some(w) => Some(window_tensor(py, &w, numtaps, false)?),
    };
    let h = compute(py, 0, move || ops::firwin2(numtaps, &freq, &gain, nfreqs, win.as_ref(), antisymmetric, fs))?;
    design_result(py, h, follow)
}

/// Adds the FIR design routines to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(kaiser_beta, module)?)?;
    module.add_function(wrap_pyfunction!(kaiser_atten, module)?)?;
    module.add_function(wrap_pyfunction!(kaiserord, module)?)?;
    module.add_function(wrap_pyfunction!(firwin, module)?)?;
    module.add_function(wrap_pyfunction!(firwin2, module)?)
}
