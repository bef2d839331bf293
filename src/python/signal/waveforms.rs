//! `scipy.signal._waveforms`: chirp, sawtooth, square, gausspulse,
//! sweep_poly (elementwise on the caller's arrays, on their device) and
//! unit_impulse (a numpy array, as SciPy's).

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString, PyTuple};
use tch::{Device, Kind, Tensor};

use super::super::container::{classify, compute, import, wrap, Library};
use super::windows::Flag;
use super::{map, map_tuple, Device as DeviceArg};
use crate::ops::signal::waveforms::{self as ops, ChirpMethod, ImpulseAt, Phi};
use crate::{DType, Error};

/// A phase offset `phi` as given: a Python number (float64 in NumPy's
/// promotion) or an array (numpy scalars included: they keep their dtype).
fn is_python_number(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>()
}

/// Runs a waveform on `t` (and `phi`, when an array): the result in `t`'s
/// array type, where the arrays live (or on `device`).
fn with_phi(
    py: Python<'_>,
    device: DeviceArg<'_, '_>,
    t: &Bound<'_, PyAny>,
    phi: &Bound<'_, PyAny>,
    op: impl FnOnce(&Tensor, &Phi) -> crate::Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    if is_python_number(phi) {
        let phi = Phi::Degrees(phi.extract::<f64>()?);
        map(py, device, &[t], move |tensors| op(&tensors[0], &phi))
    } else {
        map(py, device, &[t, phi], move |mut tensors| {
            let phi = Phi::Tensor(tensors.pop().ok_or_else(|| Error::InvalidArgument("phi".into()))?);
            op(&tensors[0], &phi)
        })
    }
}

/// Frequency-swept cosine generator.
///
/// ``cos(phase(t) + phi)`` (``exp(1j (phase(t) + phi))`` with
/// ``complex=True``), ``phi`` in degrees, the frequency sweeping from ``f0``
/// at ``t=0`` to ``f1`` at ``t1`` by ``method``: ``"linear"``,
/// ``"quadratic"`` (vertex at 0, or at ``t1`` with ``vertex_zero=False``),
/// ``"logarithmic"`` or ``"hyperbolic"`` (and SciPy's abbreviations)
/// (`scipy.signal.chirp`). float32 ``t`` keeps a float32 phase, as NumPy
/// computes it, then adds ``deg2rad(phi)`` in float64.
///
/// torchbridge: elementwise libtorch ops on ``t``'s device, the result in its
/// array type; float16/bfloat16 ``t`` computes its phase in float32, complex
/// ``t`` raises ``DtypeError``. ``phi`` may be an array of ``t``'s library
/// (broadcast).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (t, f0, t1, f1, method = None, phi = None, vertex_zero = Flag(true), *, complex = Flag(false), device = None), text_signature = "(t, f0, t1, f1, method='linear', phi=0, vertex_zero=True, *, complex=False, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn chirp(
    py: Python<'_>,
    t: &Bound<'_, PyAny>,
    f0: f64,
    t1: f64,
    f1: f64,
    method: Option<&Bound<'_, PyAny>>,
    phi: Option<&Bound<'_, PyAny>>,
    vertex_zero: Flag,
    complex: Flag,
    device: DeviceArg<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let method = match method {
        None => ChirpMethod::Linear,
        Some(m) if m.is_instance_of::<PyString>() => ChirpMethod::from_name(&m.extract::<String>()?)?,
        Some(m) => {
            return Err(Error::InvalidArgument(format!(
                "method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', but a value of {} was given.",
                m.repr()?
            ))
            .into())
        }
    };
    // SciPy checks the method's parameters before it looks at `t`
    ops::chirp_check(f0, f1, method)?;
    let zero = PyInt::new(py, 0).into_any();
    let phi = phi.unwrap_or(&zero);
    with_phi(py, device, t, phi, move |t, phi| ops::chirp(t, f0, t1, f1, method, phi, vertex_zero.0, complex.0))
}

/// Return a periodic sawtooth or triangle waveform.
///
/// The sawtooth of period ``2 pi`` rising from -1 to 1 on
/// ``[0, width 2 pi)`` and falling back on the rest, NaN where ``width`` is
/// outside ``[0, 1]``; ``width`` broadcasts against ``t``; float64
/// (`scipy.signal.sawtooth`).
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (t, width = None, *, device = None), text_signature = "(t, width=1, *, device=None)")]
pub(super) fn sawtooth(
    py: Python<'_>,
    t: &Bound<'_, PyAny>,
    width: Option<&Bound<'_, PyAny>>,
    device: DeviceArg<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let one = PyInt::new(py, 1).into_any();
    let width = width.unwrap_or(&one);
    map(py, device, &[t, width], |tensors| ops::sawtooth(&tensors[0], &tensors[1]))
}

/// Return a periodic square-wave waveform.
///
/// The square wave of period ``2 pi``: 1 on ``[0, duty 2 pi)``, -1 on the
/// rest, NaN where ``duty`` is outside ``[0, 1]``; ``duty`` broadcasts
/// against ``t``; float64 (`scipy.signal.square`).
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (t, duty = None, *, device = None), text_signature = "(t, duty=0.5, *, device=None)")]
pub(super) fn square(
    py: Python<'_>,
    t: &Bound<'_, PyAny>,
    duty: Option<&Bound<'_, PyAny>>,
    device: DeviceArg<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let half = PyFloat::new(py, 0.5).into_any();
    let duty = duty.unwrap_or(&half);
    map(py, device, &[t, duty], |tensors| ops::square(&tensors[0], &tensors[1]))
}

/// Return a Gaussian modulated sinusoid:
///
/// ``exp(-a t^2) exp(1j 2 pi fc t)`` with ``a`` set by the fractional
/// bandwidth ``bw`` at level ``bwr`` dB: the real part, then (``retquad``)
/// the imaginary part and (``retenv``) the envelope; ``t="cutoff"`` returns
/// the time where the envelope falls to ``tpr`` dB (`scipy.signal.gausspulse`).
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (t, fc = 1000.0, bw = 0.5, bwr = -6.0, tpr = -60.0, retquad = Flag(false), retenv = Flag(false), *, device = None), text_signature = "(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False, *, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn gausspulse(
    py: Python<'_>,
    t: &Bound<'_, PyAny>,
    fc: f64,
    bw: f64,
    bwr: f64,
    tpr: f64,
    retquad: Flag,
    retenv: Flag,
    device: DeviceArg<'_, '_>,
) -> PyResult<Py<PyAny>> {
    if t.is_instance_of::<PyString>() {
        if t.extract::<String>()? != "cutoff" {
            // SciPy checks the pulse's parameters first
            let _ = ops::gausspulse_cutoff(fc, bw, bwr, -1.0)?;
            return Err(Error::InvalidArgument("If `t` is a string, it must be 'cutoff'".into()).into());
        }
        let cutoff = ops::gausspulse_cutoff(fc, bw, bwr, tpr)?;
        return Ok(py.import("numpy")?.getattr("float64")?.call1((cutoff,))?.unbind());
    }
    let (quad, env) = (retquad.0, retenv.0);
    if !quad && !env {
        return map(py, device, &[t], move |tensors| {
            let mut out = ops::gausspulse(&tensors[0], fc, bw, bwr, false, false)?;
            out.pop().ok_or_else(|| Error::InvalidArgument("gausspulse".into()))
        });
    }
    map_tuple(py, device, &[t], move |tensors| ops::gausspulse(&tensors[0], fc, bw, bwr, quad, env))
}

/// The coefficients of `poly` (a `numpy.poly1d`, or a 1-D array-like of
/// coefficients, highest power first) as float64 values.
fn poly_coefficients(poly: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    let poly = if poly.get_type().name()?.to_cow()? == "poly1d" { poly.getattr("coeffs")? } else { poly.clone() };
    let tensor = import(&classify(&poly)?)?.tensor;
    if tensor.dim() != 1 {
        return Err(Error::InvalidArgument(format!(
            "sweep_poly: poly must be a numpy.poly1d or a 1-D sequence of coefficients, got {} dimensions",
            tensor.dim()
        ))
        .into());
    }
    if tensor.is_complex() {
        return Err(Error::NotImplemented("sweep_poly: complex coefficients are not supported".into()).into());
    }
    let host = tensor.f_to_kind(Kind::Double).and_then(|t| t.f_to_device(Device::Cpu)).map_err(Error::from)?;
    Ok(Vec::<f64>::try_from(host).map_err(Error::from)?)
}

/// Frequency-swept cosine generator, with a time-dependent frequency.
///
/// ``cos(2 pi P(t) + phi)``, ``P`` the antiderivative (zero at 0) of the
/// polynomial ``poly`` (a ``numpy.poly1d`` or coefficients, highest power
/// first), ``phi`` in degrees; float64 (`scipy.signal.sweep_poly`).
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (t, poly, phi = None, *, device = None), text_signature = "(t, poly, phi=0, *, device=None)")]
pub(super) fn sweep_poly(
    py: Python<'_>,
    t: &Bound<'_, PyAny>,
    poly: &Bound<'_, PyAny>,
    phi: Option<&Bound<'_, PyAny>>,
    device: DeviceArg<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let coefficients = poly_coefficients(poly)?;
    let zero = PyInt::new(py, 0).into_any();
    let phi = phi.unwrap_or(&zero);
    with_phi(py, device, t, phi, move |t, phi| ops::sweep_poly(t, &coefficients, phi))
}

/// `unit_impulse`'s `dtype`: anything `numpy.dtype` takes, as one of the dtypes torchbridge exchanges.
fn impulse_kind(py: Python<'_>, dtype: &Bound<'_, PyAny>) -> PyResult<Kind> {
    let name: String = py.import("numpy")?.getattr("dtype")?.call1((dtype,))?.getattr("name")?.extract()?;
    DType::ALL.iter().find(|d| d.name() == name).and_then(|d| d.kind()).ok_or_else(|| {
        Error::NotImplemented(format!(
            "unit_impulse: dtype {name} is not supported; accepted: {}",
            crate::ACCEPTED_DTYPES
        ))
        .into()
    })
}

/// `unit_impulse`'s `shape`: an integer or a sequence of integers.
fn impulse_shape(shape: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if let Ok(n) = shape.extract::<i64>() {
        return Ok(vec![n]);
    }
    let mut dims = Vec::new();
    for item in shape.try_iter()? {
        dims.push(item?.extract::<i64>()?);
    }
    Ok(dims)
}

const BAD_INDEX: &str = "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or \
                         boolean arrays are valid indices";

/// `unit_impulse`'s `idx`: `None`, `"mid"`, an integer or a tuple of integers,
/// checked against `shape` as NumPy's indexing would.
fn impulse_at(idx: Option<&Bound<'_, PyAny>>, shape: &[i64]) -> PyResult<ImpulseAt> {
    let at = match idx.filter(|i| !i.is_none()) {
        None => ImpulseAt::Start,
        Some(i) if i.is_instance_of::<PyString>() => {
            if i.extract::<String>()? != "mid" {
                return Err(PyIndexError::new_err(BAD_INDEX));
            }
            ImpulseAt::Middle
        }
        Some(i) if i.is_instance_of::<PyTuple>() => {
            let mut at = Vec::new();
            for item in i.try_iter()? {
                let item = item?;
                at.push(item.extract::<i64>().map_err(|_| PyIndexError::new_err(BAD_INDEX))?);
            }
            ImpulseAt::At(at)
        }
        Some(i) if i.hasattr("__iter__")? => {
            return Err(Error::NotImplemented(format!(
                "unit_impulse: idx={} (an iterable other than a tuple: NumPy's fancy indexing) is not supported; \
                 pass None, 'mid', an int or a tuple of ints",
                i.repr()?
            ))
            .into())
        }
        Some(i) => ImpulseAt::Every(i.extract::<i64>().map_err(|_| PyIndexError::new_err(BAD_INDEX))?),
    };
    let index: Vec<i64> = match &at {
        ImpulseAt::Start => vec![0; shape.len()],
        ImpulseAt::Middle => shape.iter().map(|n| n / 2).collect(),
        ImpulseAt::Every(i) => vec![*i; shape.len()],
        ImpulseAt::At(v) => v.clone(),
    };
    if index.len() > shape.len() {
        return Err(PyIndexError::new_err(format!(
            "too many indices for array: array is {}-dimensional, but {} were indexed",
            shape.len(),
            index.len()
        )));
    }
    for (axis, (&i, &n)) in index.iter().zip(shape).enumerate() {
        if !(-n..n).contains(&i) {
            return Err(PyIndexError::new_err(format!("index {i} is out of bounds for axis {axis} with size {n}")));
        }
    }
    Ok(at)
}

/// Unit impulse signal (discrete delta function) or unit basis vector.
///
/// Zeros of ``shape`` and ``dtype`` with a 1 at ``idx``: the first sample
/// (``None``), the middle (``"mid"``), index ``idx`` on every axis (an int)
/// or a tuple of indices (`scipy.signal.unit_impulse`).
///
/// torchbridge: built by libtorch and returned as a numpy array, as SciPy's
/// (no arrays go in, so there is no ``device=``; move the result with
/// ``torchbridge.apply`` or the caller's library). ``idx`` as a list or
/// array (NumPy's fancy indexing) raises ``UnsupportedParameterError``;
/// dtypes beyond torchbridge's raise it too.
#[pyfunction]
#[pyo3(signature = (shape, idx = None, dtype = None), text_signature = "(shape, idx=None, dtype=None)")]
pub(super) fn unit_impulse(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    idx: Option<&Bound<'_, PyAny>>,
    dtype: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    // `numpy.dtype(None)` is float64, SciPy's default `float`
    let kind = impulse_kind(py, &dtype.map_or_else(|| py.None().into_bound(py), |d| d.clone()))?;
    let shape = impulse_shape(shape)?;
    if shape.iter().any(|&n| n < 0) {
        return Err(Error::InvalidArgument("negative dimensions are not allowed".into()).into());
    }
    let at = impulse_at(idx, &shape)?;
    let out = compute(py, 0, move || ops::unit_impulse(&shape, &at, kind, Device::Cpu))?;
    wrap(py, &Library::NumPy, out, false)
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(chirp, module)?)?;
    module.add_function(wrap_pyfunction!(sawtooth, module)?)?;
    module.add_function(wrap_pyfunction!(square, module)?)?;
    module.add_function(wrap_pyfunction!(gausspulse, module)?)?;
    module.add_function(wrap_pyfunction!(sweep_poly, module)?)?;
    module.add_function(wrap_pyfunction!(unit_impulse, module)?)?;
    Ok(())
}
