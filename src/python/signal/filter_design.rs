//! IIR filter design and frequency responses (`scipy.signal._filter_design`),
//! see `crate::ops::signal::filter_design`.
//!
//! The conversions and frequency responses take arrays and return the
//! caller's array type on its device; the designs (`butter`, `cheby1`,
//! `cheby2`, `iirfilter`) take numbers and return numpy arrays, as SciPy's.
// SciPy's signatures have up to ten parameters, `device` included.
#![allow(clippy::too_many_arguments)]
#![allow(non_snake_case)] // SciPy's parameter names: N, Wn, worN

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyString, PyTuple};
use tch::Tensor;

use super::super::container::{wrap, Library};
use super::windows::{Flag, Target};
use super::{map_tuple, Device, Fs};
use crate::ops::signal::filter_design::{self as ops, Pairing, WorN, C};
use crate::Error;

/// Frequencies per the design docstrings' closing paragraph.
macro_rules! design_note {
    () => {
        "torchbridge: computed in float64 on the host as SciPy computes it (the\n\
         analog prototype, the frequency transform, the bilinear transform;\n\
         polynomial roots by libtorch's ``linalg_eigvals`` of the companion\n\
         matrix), returned as numpy arrays (``k`` a float); coefficients agree\n\
         with SciPy's to about 1e-13 relative. ``ftype`` ``'ellip'`` raises\n\
         ``UnsupportedParameterError``. A design takes no arrays, hence no\n\
         ``device`` keyword (as SciPy's)."
    };
}

/// The conversions' closing paragraph.
macro_rules! convert_note {
    () => {
        "torchbridge: a handful of coefficients, converted in float64/complex128 on\n\
         the host as SciPy does (roots: libtorch's ``linalg_eigvals`` of the\n\
         companion matrix), the results in the caller's array type on its device\n\
         (float64 or complex128, whatever the input's precision)."
    };
}

fn values(t: &Tensor) -> crate::Result<Vec<C>> {
    ops::complex_values(t)
}

fn back(values: &[C], real: bool, like: &Tensor) -> crate::Result<Tensor> {
    Ok(ops::to_tensor(values, real)?.f_to_device(like.device())?)
}

fn one_d(t: &Tensor, what: &str) -> crate::Result<()> {
    if t.dim() > 1 {
        return Err(Error::NotImplemented(format!("{what}: multi-dimensional input (torchbridge takes 1-d)")));
    }
    Ok(())
}

fn sections(t: &Tensor) -> crate::Result<Vec<[C; 6]>> {
    let size = t.size();
    if size.len() != 2 || size[1] != 6 {
        return Err(Error::InvalidArgument("sos array must be shape (n_sections, 6)".into()));
    }
    let v = values(t)?;
    Ok(v.chunks(6).map(|c| [c[0], c[1], c[2], c[3], c[4], c[5]]).collect())
}

fn sos_tensor(sos: &[[f64; 6]], like: &Tensor) -> crate::Result<Tensor> {
    let flat: Vec<f64> = sos.iter().flatten().copied().collect();
    Ok(Tensor::f_from_slice(&flat)?.f_view([sos.len() as i64, 6])?.f_to_device(like.device())?)
}

fn scalar(v: C, like: &Tensor) -> crate::Result<Tensor> {
    Ok(back(&[v], v.im == 0.0, like)?.f_reshape([])?)
}

/// `pairing`: `None` or one of SciPy's names.
pub(super) struct PairingArg(Option<Pairing>);

impl<'a, 'py> FromPyObject<'a, 'py> for PairingArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<PairingArg> {
        if obj.is_none() {
            return Ok(PairingArg(None));
        }
        let name = obj.str()?.to_cow()?.into_owned();
        Ok(PairingArg(Some(name.parse()?)))
    }
}

/// Return polynomial transfer function representation from zeros and poles
///
/// ``b = k * poly(z)``, ``a = poly(p)`` (real when the roots come in
/// conjugate pairs).
///
#[doc = convert_note!()]
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (z, p, k, *, device = None), text_signature = "(z, p, k, *, device=None)")]
pub(super) fn zpk2tf(
    py: Python<'_>,
    z: &Bound<'_, PyAny>,
    p: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map_tuple(py, device, &[z, p, k], |t| {
        one_d(&t[0], "zpk2tf")?;
        let k = values(&t[2])?;
        let k = *k.first().ok_or_else(|| Error::InvalidArgument("k must be a scalar".into()))?;
        let (b, a) = ops::zpk2tf(&values(&t[0])?, &values(&t[1])?, k);
        Ok(vec![back(&b.c, !b.complex, &t[0])?, back(&a.c, !a.complex, &t[0])?])
    })
}

/// Return zero, pole, gain (z, p, k) representation from a numerator, denominator representation of a linear filter.
///
/// ``normalize(b, a)``, then the roots of ``b / b[0]`` and of ``a``
/// (``np.roots``) and ``k = b[0]``.
///
#[doc = convert_note!()]
/// SciPy's ``BadCoefficients`` warning (leading numerator coefficients below
/// 1e-14 trimmed) is not emitted.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (b, a, *, device = None), text_signature = "(b, a, *, device=None)")]
pub(super) fn tf2zpk(
    py: Python<'_>,
    b: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map_tuple(py, device, &[b, a], |t| {
        one_d(&t[0], "tf2zpk")?;
        let (z, zr, p, pr, k) = ops::tf2zpk(&values(&t[0])?, &values(&t[1])?)?;
        Ok(vec![back(&z, zr, &t[0])?, back(&p, pr, &t[0])?, scalar(k, &t[0])?])
    })
}

fn real_gain(k: &Tensor) -> crate::Result<f64> {
    let k = values(k)?;
    let k = *k.first().ok_or_else(|| Error::InvalidArgument("k must be a scalar".into()))?;
    if k.im != 0.0 {
        return Err(Error::InvalidArgument("k must be real".into()));
    }
    Ok(k.re)
}

/// Return second-order sections from zeros, poles, and gain of a system
///
/// SciPy's algorithm: the poles closest to the unit circle (the imaginary
/// axis when ``analog``) go last, each paired with its nearest zeros
/// (``pairing``: ``'nearest'``, ``'keep_odd'``, ``'minimal'``), the gain in
/// the first section; the same sections in the same order as SciPy's.
///
#[doc = convert_note!()]
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (z, p, k, pairing = PairingArg(None), *, analog = Flag(false), device = None), text_signature = "(z, p, k, pairing=None, *, analog=False, device=None)")]
pub(super) fn zpk2sos(
    py: Python<'_>,
    z: &Bound<'_, PyAny>,
    p: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    pairing: PairingArg,
    analog: Flag,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let (pairing, analog) = (pairing.0, analog.0);
    super::map(py, device, &[z, p, k], move |t| {
        one_d(&t[0], "zpk2sos")?;
        let sos = ops::zpk2sos(&values(&t[0])?, &values(&t[1])?, real_gain(&t[2])?, pairing, analog)?;
        sos_tensor(&sos, &t[0])
    })
}

/// Return second-order sections from transfer function representation
///
/// ``zpk2sos(*tf2zpk(b, a), pairing=pairing, analog=analog)``.
///
#[doc = convert_note!()]
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (b, a, pairing = PairingArg(None), *, analog = Flag(false), device = None), text_signature = "(b, a, pairing=None, *, analog=False, device=None)")]
pub(super) fn tf2sos(
    py: Python<'_>,
    b: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    pairing: PairingArg,
    analog: Flag,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let (pairing, analog) = (pairing.0, analog.0);
    super::map(py, device, &[b, a], move |t| {
        one_d(&t[0], "tf2sos")?;
        let (z, _, p, _, k) = ops::tf2zpk(&values(&t[0])?, &values(&t[1])?)?;
        if k.im != 0.0 {
            return Err(Error::InvalidArgument("k must be real".into()));
        }
        sos_tensor(&ops::zpk2sos(&z, &p, k.re, pairing, analog)?, &t[0])
    })
}

/// Return a single transfer function from a series of second-order sections
///
/// The products of the sections' numerators and denominators.
///
#[doc = convert_note!()]
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (sos, *, device = None), text_signature = "(sos, *, device=None)")]
pub(super) fn sos2tf(py: Python<'_>, sos: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map_tuple(py, device, &[sos], |t| {
        let s = sections(&t[0])?;
        let real = !t[0].is_complex();
        let (b, a) = ops::sos2tf(&s);
        Ok(vec![back(&b, real, &t[0])?, back(&a, real, &t[0])?])
    })
}

/// Return zeros, poles, and gain of a series of second-order sections
///
/// Each section's ``tf2zpk`` in two slots of ``z`` and ``p`` (complex128,
/// zeros where a section has fewer), ``k`` their gains' product.
///
#[doc = convert_note!()]
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (sos, *, device = None), text_signature = "(sos, *, device=None)")]
pub(super) fn sos2zpk(py: Python<'_>, sos: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map_tuple(py, device, &[sos], |t| {
        let (z, p, k) = ops::sos2zpk(&sections(&t[0])?)?;
        Ok(vec![back(&z, false, &t[0])?, back(&p, false, &t[0])?, scalar(k, &t[0])?])
    })
}

/// `Wn`: one number or a sequence of two.
pub(super) struct Frequencies(Vec<f64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Frequencies {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Frequencies> {
        if let Ok(v) = obj.extract::<f64>() {
            return Ok(Frequencies(vec![v]));
        }
        if obj.is_instance_of::<PyString>() {
            return Err(Error::InvalidArgument("Wn must be a number or a sequence of two numbers".into()).into());
        }
        let list = obj
            .call_method0("__iter__")
            .and_then(|it| it.try_iter()?.map(|item| item?.extract::<f64>()).collect::<PyResult<Vec<f64>>>());
        match list {
            Ok(v) => Ok(Frequencies(v)),
            Err(_) => Err(Error::InvalidArgument("Wn must be a number or a sequence of two numbers".into()).into()),
        }
    }
}

fn lowered(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    match obj.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.to_lowercase()),
        Err(_) => Err(Error::InvalidArgument(format!("{what} must be a string")).into()),
    }
}

fn design(
    py: Python<'_>,
    N: f64,
    Wn: Frequencies,
    rp: Option<f64>,
    rs: Option<f64>,
    btype: &Bound<'_, PyAny>,
    analog: bool,
    ftype: &str,
    output: &Bound<'_, PyAny>,
    fs: Fs,
) -> PyResult<Py<PyAny>> {
    let btype = lowered(btype, "btype")?;
    let output = lowered(output, "output")?;
    let f = ops::iirfilter(N, &Wn.0, rp, rs, &btype, analog, ftype, &output, fs.0)?;
    let numpy = |t: Tensor| wrap(py, &Library::NumPy, t, false);
    match output.as_str() {
        "zpk" => {
            let z = numpy(ops::to_tensor(&f.z, f.z_real).map_err(PyErr::from)?)?;
            let p = numpy(ops::to_tensor(&f.p, f.p_real).map_err(PyErr::from)?)?;
            let k = PyFloat::new(py, f.k).into_any().unbind();
            Ok(PyTuple::new(py, [z, p, k])?.into_any().unbind())
        }
        "ba" => {
            let (b, a) = ops::zpk2tf(&f.z, &f.p, C::new(f.k, 0.0));
            let b = numpy(ops::to_tensor(&b.c, !b.complex).map_err(PyErr::from)?)?;
            let a = numpy(ops::to_tensor(&a.c, !a.complex).map_err(PyErr::from)?)?;
            Ok(PyTuple::new(py, [b, a])?.into_any().unbind())
        }
        _ => {
            let sos = ops::zpk2sos(&f.z, &f.p, f.k, None, analog)?;
            let flat: Vec<f64> = sos.iter().flatten().copied().collect();
            let t = Tensor::f_from_slice(&flat).and_then(|t| t.f_view([sos.len() as i64, 6])).map_err(Error::from)?;
            numpy(t)
        }
    }
}

/// The filter order `N`: a number (SciPy's `abs(int(N)) != N` check follows).
pub(super) struct Order(f64);

impl<'a, 'py> FromPyObject<'a, 'py> for Order {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Order> {
        Ok(Order(obj.extract::<f64>()?))
    }
}

/// IIR digital and analog filter design given order and critical points.
///
/// Design an Nth-order digital or analog filter (``ftype``: ``'butter'``,
/// ``'cheby1'``, ``'cheby2'``) of type ``btype`` (``'lowpass'``,
/// ``'highpass'``, ``'bandpass'``, ``'bandstop'``) and return its
/// coefficients as ``output``: ``'ba'``, ``'zpk'`` or ``'sos'``.
///
#[doc = design_note!()]
#[pyfunction]
#[pyo3(signature = (N, Wn, rp = None, rs = None, btype = None, analog = Flag(false), ftype = None, output = None, fs = Fs(None)), text_signature = "(N, Wn, rp=None, rs=None, btype='band', analog=False, ftype='butter', output='ba', fs=None)")]
pub(super) fn iirfilter(
    py: Python<'_>,
    N: Order,
    Wn: Frequencies,
    rp: Option<f64>,
    rs: Option<f64>,
    btype: Option<&Bound<'_, PyAny>>,
    analog: Flag,
    ftype: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    fs: Fs,
) -> PyResult<Py<PyAny>> {
    let band = PyString::new(py, "band").into_any();
    let ba = PyString::new(py, "ba").into_any();
    let ftype = match ftype {
        Some(f) => lowered(f, "ftype")?,
        None => "butter".into(),
    };
    design(py, N.0, Wn, rp, rs, btype.unwrap_or(&band), analog.0, &ftype, output.unwrap_or(&ba), fs)
}

/// Butterworth digital and analog filter design.
///
/// Design an Nth-order digital or analog Butterworth filter and return the
/// filter coefficients (``output``: ``'ba'``, ``'zpk'`` or ``'sos'``).
///
#[doc = design_note!()]
#[pyfunction]
#[pyo3(signature = (N, Wn, btype = None, analog = Flag(false), output = None, fs = Fs(None)), text_signature = "(N, Wn, btype='low', analog=False, output='ba', fs=None)")]
pub(super) fn butter(
    py: Python<'_>,
    N: Order,
    Wn: Frequencies,
    btype: Option<&Bound<'_, PyAny>>,
    analog: Flag,
    output: Option<&Bound<'_, PyAny>>,
    fs: Fs,
) -> PyResult<Py<PyAny>> {
    let low = PyString::new(py, "low").into_any();
    let ba = PyString::new(py, "ba").into_any();
    design(py, N.0, Wn, None, None, btype.unwrap_or(&low), analog.0, "butter", output.unwrap_or(&ba), fs)
}

/// Chebyshev type I digital and analog filter design.
///
/// Design an Nth-order digital or analog Chebyshev type I filter (``rp`` dB
/// of passband ripple) and return the filter coefficients.
///
#[doc = design_note!()]
#[pyfunction]
#[pyo3(signature = (N, rp, Wn, btype = None, analog = Flag(false), output = None, fs = Fs(None)), text_signature = "(N, rp, Wn, btype='low', analog=False, output='ba', fs=None)")]
pub(super) fn cheby1(
    py: Python<'_>,
    N: Order,
    rp: f64,
    Wn: Frequencies,
    btype: Option<&Bound<'_, PyAny>>,
    analog: Flag,
    output: Option<&Bound<'_, PyAny>>,
    fs: Fs,
) -> PyResult<Py<PyAny>> {
    let low = PyString::new(py, "low").into_any();
    let ba = PyString::new(py, "ba").into_any();
    design(py, N.0, Wn, Some(rp), None, btype.unwrap_or(&low), analog.0, "cheby1", output.unwrap_or(&ba), fs)
}

/// Chebyshev type II digital and analog filter design.
///
/// Design an Nth-order digital or analog Chebyshev type II filter (``rs``
/// dB of stopband attenuation) and return the filter coefficients.
///
#[doc = design_note!()]
#[pyfunction]
#[pyo3(signature = (N, rs, Wn, btype = None, analog = Flag(false), output = None, fs = Fs(None)), text_signature = "(N, rs, Wn, btype='low', analog=False, output='ba', fs=None)")]
pub(super) fn cheby2(
    py: Python<'_>,
    N: Order,
    rs: f64,
    Wn: Frequencies,
    btype: Option<&Bound<'_, PyAny>>,
    analog: Flag,
    output: Option<&Bound<'_, PyAny>>,
    fs: Fs,
) -> PyResult<Py<PyAny>> {
    let low = PyString::new(py, "low").into_any();
    let ba = PyString::new(py, "ba").into_any();
    design(py, N.0, Wn, None, Some(rs), btype.unwrap_or(&low), analog.0, "cheby2", output.unwrap_or(&ba), fs)
}

/// Bessel/Thomson digital and analog filter design.
///
/// Design an Nth-order digital or analog Bessel filter (``norm``:
/// ``'phase'``, ``'delay'`` or ``'mag'``) and return the filter coefficients.
///
/// torchbridge: the analog prototype's poles are the roots of the reverse
/// Bessel polynomial by libtorch's ``linalg_eigvals`` of its companion
/// matrix, polished by Newton's method (SciPy: Aberth's iteration on
/// ``kve``); they agree with SciPy's to about 1e-14.
///
#[doc = design_note!()]
#[pyfunction]
#[pyo3(signature = (N, Wn, btype = None, analog = Flag(false), output = None, norm = None, fs = Fs(None)), text_signature = "(N, Wn, btype='low', analog=False, output='ba', norm='phase', fs=None)")]
pub(super) fn bessel(
    py: Python<'_>,
    N: Order,
    Wn: Frequencies,
    btype: Option<&Bound<'_, PyAny>>,
    analog: Flag,
    output: Option<&Bound<'_, PyAny>>,
    norm: Option<&Bound<'_, PyAny>>,
    fs: Fs,
) -> PyResult<Py<PyAny>> {
    let low = PyString::new(py, "low").into_any();
    let ba = PyString::new(py, "ba").into_any();
    let norm = match norm {
        Some(n) => n.str()?.to_cow()?.into_owned(),
        None => "phase".into(),
    };
    let ftype = format!("bessel_{norm}");
    design(py, N.0, Wn, None, None, btype.unwrap_or(&low), analog.0, &ftype, output.unwrap_or(&ba), fs)
}

/// The prototype's `(z, p, k)`: `xp` arrays (numpy by default) on `device`, `k` a float.
fn prototype<'py>(
    py: Python<'py>,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
    f: crate::Result<ops::Zpk>,
) -> PyResult<Py<PyAny>> {
    let target = Target::new(xp, device)?;
    let f = f?;
    let z = target.wrap(py, ops::to_tensor(&f.z, f.z_real)?)?;
    let p = target.wrap(py, ops::to_tensor(&f.p, f.p_real)?)?;
    let k = PyFloat::new(py, f.k).into_any().unbind();
    Ok(PyTuple::new(py, [z, p, k])?.into_any().unbind())
}

/// The prototypes' closing paragraph.
macro_rules! prototype_note {
    () => {
        "torchbridge: computed in float64 on the host as SciPy computes it; ``z``\n\
         and ``p`` are numpy arrays (``z`` float64 or complex128 as SciPy's, ``p``\n\
         complex128), or ``xp`` arrays on ``device`` (SciPy's keyword-only ``xp``\n\
         and ``device``); ``k`` is a float."
    };
}

/// Return (z,p,k) for analog prototype of Nth-order Butterworth filter.
///
/// The poles lie evenly on the unit circle in the left half-plane; no zeros, ``k = 1``.
///
#[doc = prototype_note!()]
#[pyfunction]
#[pyo3(signature = (N, *, xp = None, device = None), text_signature = "(N, *, xp=None, device=None)")]
pub(super) fn buttap<'py>(
    py: Python<'py>,
    N: Order,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    prototype(py, xp, device, ops::buttap(N.0))
}

/// Return (z,p,k) for Nth-order Chebyshev type I analog lowpass filter.
///
/// ``rp`` dB of ripple in the passband, the poles on an ellipse; no zeros.
///
#[doc = prototype_note!()]
#[pyfunction]
#[pyo3(signature = (N, rp, *, xp = None, device = None), text_signature = "(N, rp, *, xp=None, device=None)")]
pub(super) fn cheb1ap<'py>(
    py: Python<'py>,
    N: Order,
    rp: f64,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    prototype(py, xp, device, ops::cheb1ap(N.0, rp))
}

/// Return (z,p,k) for Nth-order Chebyshev type II analog lowpass filter.
///
/// ``rs`` dB of attenuation in the stopband, the zeros on the imaginary axis.
///
#[doc = prototype_note!()]
#[pyfunction]
#[pyo3(signature = (N, rs, *, xp = None, device = None), text_signature = "(N, rs, *, xp=None, device=None)")]
pub(super) fn cheb2ap<'py>(
    py: Python<'py>,
    N: Order,
    rs: f64,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    prototype(py, xp, device, ops::cheb2ap(N.0, rs))
}

/// Return (z,p,k) for analog prototype of an Nth-order Bessel filter.
///
/// ``norm``: ``'phase'`` (the default), ``'delay'`` or ``'mag'``; no zeros.
/// The poles are the roots of the reverse Bessel polynomial (libtorch's
/// ``linalg_eigvals`` of the companion matrix, polished by Newton's method;
/// SciPy: Aberth's iteration), scaled as ``norm`` says.
///
#[doc = prototype_note!()]
#[pyfunction]
#[pyo3(signature = (N, norm = None, *, xp = None, device = None), text_signature = "(N, norm='phase', *, xp=None, device=None)")]
pub(super) fn besselap<'py>(
    py: Python<'py>,
    N: Order,
    norm: Option<&Bound<'py, PyAny>>,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let norm = match norm {
        Some(n) => n.str()?.to_cow()?.into_owned(),
        None => "phase".into(),
    };
    let norm = match norm.as_str() {
        "phase" => Ok(ops::BesselNorm::Phase),
        "delay" => Ok(ops::BesselNorm::Delay),
        "mag" => Ok(ops::BesselNorm::Mag),
        _ => Err(Error::InvalidArgument("normalization not understood".into())),
    };
    let f = match norm {
        Ok(norm) => ops::besselap(N.0, norm),
        // SciPy checks the order first, and an order 0 never reads `norm`
        Err(e) => ops::buttap(N.0).and_then(|f| if f.p.is_empty() { Ok(f) } else { Err(e) }),
    };
    prototype(py, xp, device, f)
}

/// `worN`: an integer (`operator.index` on a 0-d value), `None` (512) or frequencies.
fn worn_count(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<i64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Some(512));
    };
    if obj.is_instance_of::<PyInt>()
        || (obj.hasattr("__index__")? && obj.getattr("ndim").map_or(true, |n| n.extract::<i64>().ok() == Some(0)))
    {
        if let Ok(n) = obj.extract::<i64>() {
            return Ok(Some(n));
        }
    }
    Ok(None)
}

fn fs_value(fs: Fs) -> PyResult<f64> {
    fs.0.ok_or_else(|| Error::InvalidArgument("Sampling frequency can not be none.".into()).into())
}

/// Compute the frequency response of a digital filter.
///
/// ``h(w) = B(e^{-jw}) / A(e^{-jw})`` at ``worN`` frequencies (an integer:
/// that many over ``[0, pi)``, or ``[0, 2 pi)`` with ``whole``, the end point
/// included with ``include_nyquist``; an array: those frequencies, in the
/// units of ``fs``). Returns ``(w, h)``, ``w`` in the units of ``fs``.
///
/// torchbridge: libtorch ops on the coefficients' device: with an integer
/// ``worN`` and a scalar ``a``, SciPy's FFT path (``rfft`` for real
/// coefficients, ``fft`` otherwise, of ``n_fft`` points); with an integer
/// ``worN`` and a longer ``a``, the ratio of the two polynomials' FFTs at the
/// same frequencies (SciPy evaluates both by Horner's rule: equal to
/// rounding, about 2e-12 of the peak); else Horner's rule on ``exp(-jw)``. ``plot`` other than ``None`` raises
/// ``UnsupportedParameterError``; so does a multi-dimensional ``b`` outside
/// the FFT path.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (b, a = None, worN = None, whole = Flag(false), plot = None, fs = Fs(Some(std::f64::consts::TAU)), include_nyquist = Flag(false), *, device = None), text_signature = "(b, a=1, worN=512, whole=False, plot=None, fs=6.283185307179586, include_nyquist=False, *, device=None)")]
pub(super) fn freqz(
    py: Python<'_>,
    b: &Bound<'_, PyAny>,
    a: Option<&Bound<'_, PyAny>>,
    worN: Option<&Bound<'_, PyAny>>,
    whole: Flag,
    plot: Option<&Bound<'_, PyAny>>,
    fs: Fs,
    include_nyquist: Flag,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    if plot.is_some_and(|p| !p.is_none()) {
        return Err(Error::NotImplemented("freqz: plot (torchbridge does not plot)".into()).into());
    }
    let one = PyInt::new(py, 1).into_any();
    let a = a.unwrap_or(&one);
    let fs = fs_value(fs)?;
    let (whole, nyq) = (whole.0, include_nyquist.0);
    match worn_count(worN)? {
        Some(n) => map_tuple(py, device, &[b, a], move |t| {
            let (w, h) = ops::freqz(&t[0], &t[1], WorN::Count(n), whole, fs, nyq)?;
            Ok(vec![w, h])
        }),
        None => map_tuple(py, device, &[b, a, worN.unwrap_or(&one)], move |t| {
            let (w, h) = ops::freqz(&t[0], &t[1], WorN::At(t[2].shallow_clone()), whole, fs, nyq)?;
            Ok(vec![w, h])
        }),
    }
}

/// Compute the frequency response of a digital filter in ZPK form.
///
/// ``h(w) = k prod(e^{jw} - z) / prod(e^{jw} - p)`` at ``worN`` frequencies
/// (an integer: that many over ``[0, pi)`` or ``[0, 2 pi)``). Returns ``(w, h)``.
///
/// torchbridge: one broadcast product per root set, libtorch ops on the
/// zeros' device.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (z, p, k, worN = None, whole = Flag(false), fs = Fs(Some(std::f64::consts::TAU)), *, device = None), text_signature = "(z, p, k, worN=512, whole=False, fs=6.283185307179586, *, device=None)")]
pub(super) fn freqz_zpk(
    py: Python<'_>,
    z: &Bound<'_, PyAny>,
    p: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    worN: Option<&Bound<'_, PyAny>>,
    whole: Flag,
    fs: Fs,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let fs = fs_value(fs)?;
    let whole = whole.0;
    match worn_count(worN)? {
        Some(n) => map_tuple(py, device, &[z, p, k], move |t| {
            let (w, h) = ops::freqz_zpk(&t[0], &t[1], &t[2], WorN::Count(n), whole, fs)?;
            Ok(vec![w, h])
        }),
        None => {
            let worn = worN.ok_or_else(|| PyErr::from(Error::InvalidArgument("worN".into())))?;
            map_tuple(py, device, &[z, p, k, worn], move |t| {
                let (w, h) = ops::freqz_zpk(&t[0], &t[1], &t[2], WorN::At(t[3].shallow_clone()), whole, fs)?;
                Ok(vec![w, h])
            })
        }
    }
}

/// Compute the frequency response of a digital filter in SOS format.
///
/// The product of the sections' :func:`freqz` at ``worN`` frequencies.
/// Returns ``(w, h)``.
///
/// torchbridge: each section's response by Horner's rule (as SciPy's
/// ``freqz`` on a section), libtorch ops on the array's device.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (sos, worN = None, whole = Flag(false), fs = Fs(Some(std::f64::consts::TAU)), *, device = None), text_signature = "(sos, worN=512, whole=False, fs=6.283185307179586, *, device=None)")]
pub(super) fn freqz_sos(
    py: Python<'_>,
    sos: &Bound<'_, PyAny>,
    worN: Option<&Bound<'_, PyAny>>,
    whole: Flag,
    fs: Fs,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let fs = fs_value(fs)?;
    let whole = whole.0;
    match worn_count(worN)? {
        Some(n) => map_tuple(py, device, &[sos], move |t| {
            let (w, h) = ops::freqz_sos(&t[0], WorN::Count(n), whole, fs)?;
            Ok(vec![w, h])
        }),
        None => {
            let worn = worN.ok_or_else(|| PyErr::from(Error::InvalidArgument("worN".into())))?;
            map_tuple(py, device, &[sos, worn], move |t| {
                let (w, h) = ops::freqz_sos(&t[0], WorN::At(t[1].shallow_clone()), whole, fs)?;
                Ok(vec![w, h])
            })
        }
    }
}

/// Adds the filter-design routines to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(zpk2tf, module)?)?;
    module.add_function(wrap_pyfunction!(tf2zpk, module)?)?;
    module.add_function(wrap_pyfunction!(zpk2sos, module)?)?;
    module.add_function(wrap_pyfunction!(tf2sos, module)?)?;
    module.add_function(wrap_pyfunction!(sos2tf, module)?)?;
    module.add_function(wrap_pyfunction!(sos2zpk, module)?)?;
    module.add_function(wrap_pyfunction!(iirfilter, module)?)?;
    module.add_function(wrap_pyfunction!(butter, module)?)?;
    module.add_function(wrap_pyfunction!(cheby1, module)?)?;
    module.add_function(wrap_pyfunction!(cheby2, module)?)?;
    module.add_function(wrap_pyfunction!(bessel, module)?)?;
    module.add_function(wrap_pyfunction!(buttap, module)?)?;
    module.add_function(wrap_pyfunction!(cheb1ap, module)?)?;
    module.add_function(wrap_pyfunction!(cheb2ap, module)?)?;
    module.add_function(wrap_pyfunction!(besselap, module)?)?;
    module.add_function(wrap_pyfunction!(freqz, module)?)?;
    module.add_function(wrap_pyfunction!(freqz_zpk, module)?)?;
    module.add_function(wrap_pyfunction!(freqz_sos, module)?)
}
