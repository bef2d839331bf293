//! `resample`, `resample_poly` and `decimate` of `scipy.signal._signaltools` (see
//! `crate::ops::signal::signaltools::resample`).

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use tch::{Device as TchDevice, Kind, Tensor};

use super::super::container::{compute, import_all, wrap, wrap_tuple, Library};
use super::super::placement::on_device;
use super::windows::window_tensor;
use super::{map, Device};
use crate::ops::signal::signaltools::resample::{self as ops, DecimateFilter, Domain, Padtype, PolyFilter};
use crate::Error;

/// An integral number (`up`, `down`): SciPy's `up != int(up)` check.
fn integral(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if let Ok(v) = obj.extract::<i64>() {
        return Ok(v);
    }
    match obj.extract::<f64>() {
        Ok(v) if v.fract() == 0.0 && v.is_finite() => Ok(v as i64),
        _ => Err(Error::InvalidArgument(format!("{what} must be an integer")).into()),
    }
}

/// Resample `x` to `num` samples using the Fourier method along the given `axis`.
///
/// The FFT of ``x`` (``rfft`` for real ``x`` in the time domain, else
/// ``fft``; ``domain="freq"`` takes ``x`` as the FFT already) cut or
/// zero-padded to ``num`` bins, the unpaired bin at ``min(num, n)/2`` of an
/// even length split or joined as SciPy 1.17 does, and transformed back.
/// ``window`` (``None``; an array of ``n`` values ``W`` in FFT order; a
/// callable of ``fftfreq(n)``; or anything :func:`get_window` takes,
/// ``fftshift``-ed) multiplies the spectrum first (folded for the one-sided
/// FFT). With ``t``, also returns the ``num`` timestamps ``t[0] + (t[1] -
/// t[0]) n/num k``. float32 stays float32 (complex64), integers give float64.
///
/// torchbridge: libtorch's ``rfft``/``irfft`` (``fft``/``ifft``) along the axis;
/// the window is computed in float64 (SciPy casts it to the namespace's
/// default dtype: float32 for torch); a callable ``window`` receives a numpy
/// array, as SciPy's; the timestamps are float64.
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (x, num, t = None, axis = 0, window = None, domain = "time", *, device = None), text_signature = "(x, num, t=None, axis=0, window=None, domain='time', *, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn resample<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    num: i64,
    t: Option<&Bound<'py, PyAny>>,
    axis: i64,
    window: Option<&Bound<'py, PyAny>>,
    domain: &str,
    device: Device<'_, 'py>,
) -> PyResult<Py<PyAny>> {
    let domain: Domain = domain.parse()?;
    let t = t.filter(|t| !t.is_none());
    on_device(device, || {
        let mut objs = vec![x];
        if let Some(t) = t {
            objs.push(t);
        }
        let (mut tensors, library) = import_all(&objs)?;
        let t_tensor = if t.is_some() { tensors.pop() } else { None };
        let xt = tensors.pop().ok_or_else(|| Error::InvalidArgument("x".into()))?;
        if xt.dim() == 0 {
            return Err(Error::InvalidArgument("resample: x must be at least 1-D".into()).into());
        }
        let ax = if xt.dim() > 1 { crate::ops::numpy::normalize_axis(axis, xt.dim())? } else { 0 };
        let n_x = xt.size()[ax];
        let w = match window.filter(|w| !w.is_none()) {
            None => None,
            Some(w) if w.is_callable() => {
                let freqs = Tensor::f_fft_fftfreq(n_x, 1.0, (Kind::Double, TchDevice::Cpu)).map_err(Error::from)?;
                let f = wrap(py, &Library::NumPy, freqs, false)?;
                let result = w.call1((f,))?;
                let (ts, _) = import_all(&[&result])?;
                ts.into_iter().next()
            }
            Some(w) if w.hasattr("shape")? => {
                let (ts, _) = import_all(&[w])?;
                ts.into_iter().next()
            }
            Some(w) => Some(window_tensor(py, w, n_x, true)?.f_fft_fftshift(None::<&[i64]>).map_err(Error::from)?),
        };
        let elements = xt.numel();
        let (x_r, t_r) =
            compute(py, elements, move || ops::resample(&xt, num, t_tensor.as_ref(), axis, w.as_ref(), domain))?;
        match t_r {
            None => wrap(py, &library, x_r, false),
            Some(t_r) => wrap_tuple(py, &library, vec![x_r, t_r]),
        }
    })
}

/// Resample `x` along the given axis using polyphase filtering.
///
/// ``x`` upsampled by ``up``, low-pass filtered and downsampled by ``down``
/// (the rates first divided by their gcd): :func:`upfirdn` with the filter
/// ``window`` when it is an array or list of coefficients, else with
/// ``firwin(20 max(up, down) + 1, 1/max(up, down), window=window)`` (in
/// ``x``'s dtype when ``x`` is floating); the output is centred on the
/// filter and has ``ceil(n up / down)`` samples. ``padtype``: an
/// :func:`upfirdn` mode (``"constant"`` with ``cval``, default 0), or
/// ``"mean"``, ``"median"``, ``"maximum"``, ``"minimum"`` (that value along
/// the axis removed before filtering and added back).
///
/// torchbridge: the filter designed in float64 on the host, the filtering
/// :func:`upfirdn`'s one polyphase ``conv1d`` on the arrays' device.
/// ``padtype="antireflect"`` raises ``UnsupportedParameterError``.
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (x, up, down, axis = 0, window = None, padtype = "constant", cval = None, *, device = None), text_signature = "(x, up, down, axis=0, window=('kaiser', 5.0), padtype='constant', cval=None, *, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn resample_poly<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    up: &Bound<'py, PyAny>,
    down: &Bound<'py, PyAny>,
    axis: i64,
    window: Option<&Bound<'py, PyAny>>,
    padtype: &str,
    cval: Option<f64>,
    device: Device<'_, 'py>,
) -> PyResult<Py<PyAny>> {
    let up = integral(up, "up")?;
    let down = integral(down, "down")?;
    let taps = ops::design_taps(up, down)?;
    if cval.is_some() && padtype != "constant" {
        return Err(Error::InvalidArgument(format!("cval has no effect when padtype is {padtype}")).into());
    }
    let padtype: Padtype = padtype.parse()?;
    let coefficients = window.filter(|w| {
        w.is_instance_of::<PyList>()
            || w.hasattr("__array_namespace__").unwrap_or(false)
            || w.hasattr("__dlpack__").unwrap_or(false)
    });
    on_device(device, || {
        let (mut tensors, library) = match coefficients {
            Some(h) => import_all(&[x, h])?,
            None => import_all(&[x])?,
        };
        let filter = if coefficients.is_some() {
            PolyFilter::Taps(tensors.pop().ok_or_else(|| Error::InvalidArgument("window".into()))?)
        } else {
            let kaiser = (PyString::new(py, "kaiser"), 5.0f64).into_pyobject(py)?.into_any();
            let spec = window.filter(|w| !w.is_none()).cloned().unwrap_or(kaiser);
            PolyFilter::Window(window_tensor(py, &spec, taps, false)?)
        };
        let xt = tensors.pop().ok_or_else(|| Error::InvalidArgument("x".into()))?;
        let elements = xt.numel();
        let y = compute(py, elements, move || ops::resample_poly(&xt, up, down, axis, filter, padtype, cval))?;
        wrap(py, &library, y, false)
    })
}

/// Downsample the signal after applying an anti-aliasing filter.
///
/// ``x`` low-pass filtered and every ``q``-th sample kept along ``axis``.
/// ``ftype="iir"`` (the default): a Chebyshev type I filter of order ``n``
/// (default 8), 0.05 dB ripple, cutoff ``0.8 / q``, as second-order
/// sections; ``ftype="fir"``: a Hamming-windowed :func:`firwin` of ``n + 1``
/// taps (default ``n = 20 q``), cutoff ``1 / q``. ``zero_phase=True`` (the
/// default) filters forward and backward (:func:`sosfiltfilt`, or
/// :func:`resample_poly` with the FIR taps), else once (:func:`sosfilt`, or
/// :func:`upfirdn` with ``down=q``). float32 and complex stay as they are;
/// integers and float16 give float64.
///
/// torchbridge: the filter is designed in float64 on the host and cast to
/// ``x``'s dtype, as SciPy casts it; the filtering runs on the arrays'
/// device. A ``dlti`` system as ``ftype`` raises ``UnsupportedParameterError``.
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (x, q, n = None, ftype = None, axis = -1, zero_phase = true, *, device = None), text_signature = "(x, q, n=None, ftype='iir', axis=-1, zero_phase=True, *, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn decimate(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    n: Option<&Bound<'_, PyAny>>,
    ftype: Option<&Bound<'_, PyAny>>,
    axis: i64,
    zero_phase: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let q = index(q, "q")?;
    let n = n.filter(|n| !n.is_none()).map(|n| index(n, "n")).transpose()?;
    let ftype = match ftype.filter(|f| !f.is_none()) {
        None => DecimateFilter::Iir,
        Some(f) => match f.cast::<PyString>() {
            Ok(name) => name.to_cow()?.parse()?,
            Err(_) if f.hasattr("to_zpk")? => {
                return Err(Error::NotImplemented(
                    "decimate: a dlti system as ftype is not supported; accepted: 'iir' or 'fir'".into(),
                )
                .into())
            }
            Err(_) => return Err(Error::InvalidArgument("invalid ftype".into()).into()),
        },
    };
    map(py, device, &[x], move |t| ops::decimate(&t[0], q, n, ftype, axis, zero_phase))
}

/// A Python integer, as `operator.index` takes it (an integral float is refused).
fn index(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if obj.hasattr("__index__")? {
        return obj.extract::<i64>();
    }
    Err(Error::InvalidArgument(format!("{what} must be an integer, got {}", obj.get_type().name()?)).into())
}

/// Adds `resample`, `resample_poly` and `decimate` to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(resample, module)?)?;
    module.add_function(wrap_pyfunction!(resample_poly, module)?)?;
    module.add_function(wrap_pyfunction!(decimate, module)?)
}
