//! `scipy.signal.windows`: the window functions and `get_window`, re-exported
//! by `python/torchbridge/signal/windows/` (and `get_window` by
//! `torchbridge.signal`).
//!
//! A window takes no arrays: SciPy's keyword-only `xp` names the namespace of
//! the result and `device` its device. Windows are computed by libtorch in
//! float64 on the CPU and handed back as numpy arrays, or as `xp` arrays
//! through `xp.from_dlpack` (`xp.asarray(..., device=device)` for a device).

#![allow(non_snake_case)] // SciPy's parameter names: M, NW, Kmax, Nx

use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple, PyType};
use tch::{Device, Kind, Tensor};

use super::super::container::{classify, compute, import_all, wrap, Library};
use crate::ops::signal::windows::{self as ops, DpssNorm, Parameters, Window};
use crate::Error;

/// What every window's docstring ends with: how torchbridge differs, and `xp`/`device`.
macro_rules! windows_note {
    () => {
        "torchbridge: computed by libtorch (float64, on the CPU) and returned as a\n\
         numpy float64 array, or, with ``xp`` (an array namespace: ``torch``,\n\
         ``jax.numpy``, ``array_api_strict``, ...), as an ``xp`` array in float64\n\
         (float32 where ``xp`` has no float64: JAX without x64), as SciPy does\n\
         under ``SCIPY_ARRAY_API=1``. Values agree with SciPy's to a few ulps.\n\n\
         ``device=None`` (keyword-only, SciPy's): the device of the result, one\n\
         ``xp`` knows (``xp.asarray(w, device=device)``); without ``xp`` only\n\
         ``None`` or ``\"cpu\"``."
    };
}

/// A truthy flag (`sym`, `norm`, `return_ratios`): Python's truth value, as SciPy's `if sym`.
pub(crate) struct Flag(pub bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Flag {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Flag> {
        Ok(Flag(obj.is_truthy()?))
    }
}

/// The window length `M`: an integer (`operator.index`); a negative or
/// non-integral number raises SciPy's ValueError, an integral float the
/// TypeError NumPy raises for it.
pub(crate) struct Length(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for Length {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Length> {
        if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__")? {
            return Ok(Length(obj.extract::<i64>()?));
        }
        let value: f64 = obj.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "Window length M must be a non-negative integer, got {}",
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?;
        if value.fract() != 0.0 || value < 0.0 || !value.is_finite() {
            return Err(Error::InvalidArgument("Window length M must be a non-negative integer".into()).into());
        }
        Err(PyTypeError::new_err("'float' object cannot be interpreted as an integer"))
    }
}

/// Where a window goes: numpy, or namespace `xp` (its dtype and `device`).
pub(super) struct Target<'py> {
    library: Library,
    kind: Kind,
    namespace: Option<Bound<'py, PyAny>>,
    device: Option<Bound<'py, PyAny>>,
}

impl<'py> Target<'py> {
    pub(super) fn new(xp: Option<&Bound<'py, PyAny>>, device: Option<&Bound<'py, PyAny>>) -> PyResult<Target<'py>> {
        let device = device.filter(|d| !d.is_none()).cloned();
        let numpy = || Target { library: Library::NumPy, kind: Kind::Double, namespace: None, device: None };
        let Some(xp) = xp.filter(|xp| !xp.is_none()) else {
            check_numpy_device(device.as_ref())?;
            return Ok(numpy());
        };
        // SciPy's `array_namespace(xp.empty(0))`: the library of xp's own arrays
        let library = classify(&xp.call_method1("empty", (0,))?)?.library;
        if matches!(library, Library::NumPy) {
            check_numpy_device(device.as_ref())?;
            return Ok(numpy());
        }
        Ok(Target { library, kind: real_kind(xp)?, namespace: Some(xp.clone()), device })
    }

    /// `window` (float64) as the target's array.
    pub(super) fn wrap(&self, py: Python<'py>, window: Tensor) -> PyResult<Py<PyAny>> {
        let window =
            if self.kind == Kind::Double { window } else { window.f_to_kind(self.kind).map_err(Error::from)? };
        let result = wrap(py, &self.library, window, false)?;
        match (&self.namespace, &self.device) {
            (Some(xp), Some(device)) => {
                let kwargs = PyDict::new(py);
                kwargs.set_item("device", device)?;
                Ok(xp.call_method("asarray", (result,), Some(&kwargs))?.unbind())
            }
            _ => Ok(result),
        }
    }
}

/// NumPy arrays live on the CPU: SciPy's NumPy namespace takes `device="cpu"` only.
fn check_numpy_device(device: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    match device {
        None => Ok(()),
        Some(d) if d.is_instance_of::<PyString>() && d.extract::<String>()? == "cpu" => Ok(()),
        Some(d) => Err(Error::InvalidArgument(format!("Unsupported device for NumPy: {}", d.repr()?)).into()),
    }
}

/// float64 where namespace `xp` has it (`__array_namespace_info__().dtypes()`), else float32.
fn real_kind(xp: &Bound<'_, PyAny>) -> PyResult<Kind> {
    let Some(info) = xp.getattr_opt("__array_namespace_info__")? else {
        return Ok(Kind::Double);
    };
    let kwargs = PyDict::new(xp.py());
    kwargs.set_item("kind", "real floating")?;
    let dtypes = info.call0()?.call_method("dtypes", (), Some(&kwargs))?;
    Ok(if dtypes.contains("float64")? { Kind::Double } else { Kind::Float })
}

/// Computes `window` (libtorch, CPU, a panic turned into an error) and hands it to `target`.
pub(super) fn window<'py>(
    py: Python<'py>,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
    window: impl FnOnce(Device) -> crate::Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    let target = Target::new(xp, device)?;
    let w = compute(py, 0, move || window(Device::Cpu))?;
    target.wrap(py, w)
}

/// A window of `M` and `sym` only.
// rustfmt re-indents a multi-line attribute inside a macro on every run: the attribute stays on one line.
#[rustfmt::skip]
macro_rules! plain_window {
    ($name:ident, $summary:literal, $what:literal) => {
        #[doc = $summary]
        #[doc = ""]
        #[doc = $what]
        #[doc = ""]
        #[doc = windows_note!()]
        #[pyfunction]
        #[pyo3(signature = (M, sym = Flag(true), *, xp = None, device = None), text_signature = "(M, sym=True, *, xp=None, device=None)")]
        pub(super) fn $name<'py>(
            py: Python<'py>,
            M: Length,
            sym: Flag,
            xp: Option<&Bound<'py, PyAny>>,
            device: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            window(py, xp, device, move |d| ops::$name(M.0, sym.0, d))
        }
    };
}

plain_window!(boxcar, "Return a boxcar or rectangular window.", "Ones (`scipy.signal.windows.boxcar`).");
plain_window!(
    triang,
    "Return a triangular window.",
    "The triangular window without zeros at the ends (`scipy.signal.windows.triang`)."
);
plain_window!(parzen, "Return a Parzen window.", "The piecewise-cubic Parzen window (`scipy.signal.windows.parzen`).");
plain_window!(bohman, "Return a Bohman window.", "The Bohman window (`scipy.signal.windows.bohman`).");
plain_window!(
    blackman,
    "Return a Blackman window.",
    "The 3-term cosine sum 0.42, 0.50, 0.08 (`scipy.signal.windows.blackman`)."
);
plain_window!(
    nuttall,
    "Return a minimum 4-term Blackman-Harris window according to Nuttall.",
    "Nuttall's 4-term cosine sum (`scipy.signal.windows.nuttall`)."
);
plain_window!(
    blackmanharris,
    "Return a minimum 4-term Blackman-Harris window.",
    "The 4-term Blackman-Harris cosine sum (`scipy.signal.windows.blackmanharris`)."
);
plain_window!(flattop, "Return a flat top window.", "The 5-term flat top cosine sum (`scipy.signal.windows.flattop`).");
plain_window!(
    bartlett,
    "Return a Bartlett window.",
    "The triangular window with zeros at both ends (`scipy.signal.windows.bartlett`)."
);
plain_window!(
    barthann,
    "Return a modified Bartlett-Hann window.",
    "The modified Bartlett-Hann window (`scipy.signal.windows.barthann`)."
);
plain_window!(
    hamming,
    "Return a Hamming window.",
    "``0.54 - 0.46 cos(2 pi n / (M - 1))`` (`scipy.signal.windows.hamming`)."
);
plain_window!(
    cosine,
    "Return a window with a simple cosine shape.",
    "``sin(pi (n + 0.5) / M)`` (`scipy.signal.windows.cosine`)."
);
plain_window!(hann, "Return a Hann window.", "``0.5 - 0.5 cos(2 pi n / (M - 1))`` (`scipy.signal.windows.hann`).");

/// Return a Lanczos window also known as a sinc window.
///
/// ``sinc(2 n / (M - 1) - 1)``, built symmetric from its right half
/// (`scipy.signal.windows.lanczos`).
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, *, sym = Flag(true), xp = None, device = None), text_signature = "(M, *, sym=True, xp=None, device=None)")]
pub(super) fn lanczos<'py>(
    py: Python<'py>,
    M: Length,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    window(py, xp, device, move |d| ops::lanczos(M.0, sym.0, d))
}

/// Return a Kaiser window.
///
/// ``I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)`` (`scipy.signal.windows.kaiser`),
/// with libtorch's ``i0`` (Cephes' Chebyshev expansion, as SciPy's).
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, beta, sym = Flag(true), *, xp = None, device = None), text_signature = "(M, beta, sym=True, *, xp=None, device=None)")]
pub(super) fn kaiser<'py>(
    py: Python<'py>,
    M: Length,
    beta: f64,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    window(py, xp, device, move |d| ops::kaiser(M.0, beta, sym.0, d))
}

/// Return a Kaiser-Bessel derived window.
///
/// The square root of the normalised cumulative sum of a Kaiser window of
/// length ``M/2 + 1``, mirrored (`scipy.signal.windows.kaiser_bessel_derived`):
/// even ``M`` and ``sym=True`` only, empty for ``M < 1``.
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, beta, *, sym = Flag(true), xp = None, device = None), text_signature = "(M, beta, *, sym=True, xp=None, device=None)")]
pub(super) fn kaiser_bessel_derived<'py>(
    py: Python<'py>,
    M: &Bound<'py, PyAny>,
    beta: f64,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    // SciPy checks `M < 1` and `M % 2` before any integer check
    let m = match M.extract::<Length>() {
        Ok(m) => m.0,
        Err(_) if M.extract::<f64>().is_ok_and(|m| m < 1.0) => 0,
        Err(_) if M.extract::<f64>().is_ok() => {
            return Err(Error::InvalidArgument(
                "Kaiser-Bessel Derived windows are only defined for even number of points".into(),
            )
            .into())
        }
        Err(err) => return Err(err),
    };
    window(py, xp, device, move |d| ops::kaiser_bessel_derived(m, beta, sym.0, d))
}

/// Return a Gaussian window.
///
/// ``exp(-n^2 / (2 std^2))`` on ``n`` centred at ``(M - 1) / 2``
/// (`scipy.signal.windows.gaussian`).
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, std, sym = Flag(true), *, xp = None, device = None), text_signature = "(M, std, sym=True, *, xp=None, device=None)")]
pub(super) fn gaussian<'py>(
    py: Python<'py>,
    M: Length,
    std: f64,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    window(py, xp, device, move |d| ops::gaussian(M.0, std, sym.0, d))
}

/// Return a window with a generalized Gaussian shape.
///
/// ``exp(-0.5 |n / sig|^(2 p))`` (`scipy.signal.windows.general_gaussian`).
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, p, sig, sym = Flag(true), *, xp = None, device = None), text_signature = "(M, p, sig, sym=True, *, xp=None, device=None)")]
pub(super) fn general_gaussian<'py>(
    py: Python<'py>,
    M: Length,
    p: f64,
    sig: f64,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    window(py, xp, device, move |d| ops::general_gaussian(M.0, p, sig, sym.0, d))
}

/// Coefficients `a` as a 1-D float64 tensor on their own device (lists and
/// tuples through numpy), with the library to return the window in.
fn coefficients(a: &Bound<'_, PyAny>) -> PyResult<(Tensor, Library)> {
    let arg = classify(a)?;
    let library = super::super::container::common_library(std::slice::from_ref(&arg))?;
    let tensor = super::super::container::import(&arg)?.tensor;
    Ok((tensor, library))
}

/// Generic weighted sum of cosine terms window
///
/// ``sum_k a[k] cos(k x)`` on ``x = linspace(-pi, pi, M)``
/// (`scipy.signal.windows.general_cosine`). SciPy's only window without
/// ``xp``: the result is in ``a``'s array type and on its device.
///
/// torchbridge: computed by libtorch in float64 on ``a``'s device (a list or
/// tuple ``a`` gives numpy); complex coefficients raise
/// ``UnsupportedParameterError``.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (M, a, sym = Flag(true), *, device = None), text_signature = "(M, a, sym=True, *, device=None)")]
pub(super) fn general_cosine<'py>(
    py: Python<'py>,
    M: Length,
    a: &Bound<'py, PyAny>,
    sym: Flag,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let m = M.0;
    super::map(py, device, &[a], move |mut a| {
        let a = a.pop().ok_or_else(|| Error::InvalidArgument("general_cosine: no coefficients".into()))?;
        ops::general_cosine_tensor(m, &a, sym.0)
    })
}

/// Return a generalized Hamming window.
///
/// ``alpha - (1 - alpha) cos(2 pi n / (M - 1))``
/// (`scipy.signal.windows.general_hamming`).
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, alpha, sym = Flag(true), *, xp = None, device = None), text_signature = "(M, alpha, sym=True, *, xp=None, device=None)")]
pub(super) fn general_hamming<'py>(
    py: Python<'py>,
    M: Length,
    alpha: f64,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    window(py, xp, device, move |d| ops::general_hamming(M.0, alpha, sym.0, d))
}

fn chebwin_warning(py: Python<'_>, at: f64) -> PyResult<()> {
    if ops::chebwin_warns(at) {
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        PyErr::warn(
            py,
            &category,
            c"This window is not suitable for spectral analysis for attenuation values lower than about 45dB \
              because the equivalent noise bandwidth of a Chebyshev window does not grow monotonically with \
              increasing sidelobe attenuation when the attenuation is smaller than about 45 dB.",
            1,
        )?;
    }
    Ok(())
}

/// Return a Dolph-Chebyshev window.
///
/// The window whose sidelobes are all ``at`` dB below the main lobe, from
/// the inverse FFT of the Chebyshev polynomial on the unit circle
/// (`scipy.signal.windows.chebwin`); below 45 dB it warns as SciPy does.
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, at, sym = Flag(true), *, xp = None, device = None), text_signature = "(M, at, sym=True, *, xp=None, device=None)")]
pub(super) fn chebwin<'py>(
    py: Python<'py>,
    M: Length,
    at: f64,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    chebwin_warning(py, at)?;
    window(py, xp, device, move |d| ops::chebwin(M.0, at, sym.0, d))
}

/// Return an exponential (or Poisson) window.
///
/// ``exp(-|n - center| / tau)`` (`scipy.signal.windows.exponential`),
/// ``center`` the middle by default (and only then with ``sym=True``).
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, center = None, tau = 1.0, sym = Flag(true), *, xp = None, device = None), text_signature = "(M, center=None, tau=1.0, sym=True, *, xp=None, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn exponential<'py>(
    py: Python<'py>,
    M: Length,
    center: Option<f64>,
    tau: f64,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    window(py, xp, device, move |d| ops::exponential(M.0, center, tau, sym.0, d))
}

/// Return a Tukey window, also known as a tapered cosine window.
///
/// A cosine taper over the fraction ``alpha`` of the window, flat between
/// (`scipy.signal.windows.tukey`): ``alpha <= 0`` is a boxcar, ``alpha >= 1``
/// a Hann window.
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, alpha = 0.5, sym = Flag(true), *, xp = None, device = None), text_signature = "(M, alpha=0.5, sym=True, *, xp=None, device=None)")]
pub(super) fn tukey<'py>(
    py: Python<'py>,
    M: Length,
    alpha: f64,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    window(py, xp, device, move |d| ops::tukey(M.0, alpha, sym.0, d))
}

/// Return a Taylor window.
///
/// The Taylor window of ``nbar`` nearly constant sidelobes ``sll`` dB below
/// the main lobe, normalised to 1 at the centre with ``norm``
/// (`scipy.signal.windows.taylor`).
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (M, nbar = 4, sll = 30.0, norm = Flag(true), sym = Flag(true), *, xp = None, device = None), text_signature = "(M, nbar=4, sll=30, norm=True, sym=True, *, xp=None, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn taylor<'py>(
    py: Python<'py>,
    M: Length,
    nbar: i64,
    sll: f64,
    norm: Flag,
    sym: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    window(py, xp, device, move |d| ops::taylor(M.0, nbar, sll, norm.0, sym.0, d))
}

/// `dpss`'s `norm`: `None` (SciPy's choice by `Kmax`), `2`, `"approximate"` or `"subsample"`.
fn dpss_norm(norm: Option<&Bound<'_, PyAny>>, singleton: bool) -> PyResult<DpssNorm> {
    let Some(norm) = norm.filter(|n| !n.is_none()) else {
        return Ok(if singleton { DpssNorm::Approximate } else { DpssNorm::L2 });
    };
    if norm.eq(2)? {
        return Ok(DpssNorm::L2);
    }
    if norm.eq("approximate")? {
        return Ok(DpssNorm::Approximate);
    }
    if norm.eq("subsample")? {
        return Ok(DpssNorm::Subsample);
    }
    Err(Error::InvalidArgument(format!("norm must be one of (2, 'approximate', 'subsample'), got {}", norm.str()?))
        .into())
}

/// Compute the Discrete Prolate Spheroidal Sequences (DPSS).
///
/// The first ``Kmax`` (one when ``None``: a 1-D result) Slepian tapers of
/// standardized half bandwidth ``NW``, from the tridiagonal eigenproblem of
/// Percival and Walden, with SciPy's sign conventions, normalisations and
/// concentration ratios (`scipy.signal.windows.dpss`).
///
/// torchbridge: libtorch has no tridiagonal eigensolver, so the tapers come
/// from the dense symmetric eigendecomposition of the same matrix
/// (``linalg_eigh``; SciPy's LAPACK ``stebz``/``stein`` find only the ``Kmax``
/// largest): O(M^3) time and O(M^2) memory, fine to a few thousand samples;
/// values agree with SciPy's to about 1e-12. Returned as numpy float64, or
/// with ``xp`` as ``xp`` arrays in float64.
///
/// ``device=None`` (keyword-only, SciPy's): the device of the result, one
/// ``xp`` knows; without ``xp`` only ``None`` or ``"cpu"``.
#[pyfunction]
#[pyo3(signature = (M, NW, Kmax = None, sym = Flag(true), norm = None, return_ratios = Flag(false), *, xp = None, device = None), text_signature = "(M, NW, Kmax=None, sym=True, norm=None, return_ratios=False, *, xp=None, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn dpss<'py>(
    py: Python<'py>,
    M: Length,
    NW: f64,
    Kmax: Option<&Bound<'py, PyAny>>,
    sym: Flag,
    norm: Option<&Bound<'py, PyAny>>,
    return_ratios: Flag,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let kmax = Kmax.filter(|k| !k.is_none());
    let norm = dpss_norm(norm, kmax.is_none())?;
    let kmax = match kmax {
        None => None,
        Some(k) if M.0 <= 1 => k.extract::<i64>().ok().or(Some(1)),
        Some(k) => Some(py.import("operator")?.call_method1("index", (k,))?.extract::<i64>()?),
    };
    let target = Target::new(xp, device)?;
    let m = M.0;
    let result = compute(py, 0, move || ops::dpss(m, NW, kmax, sym.0, norm, return_ratios.0, Device::Cpu))?;
    let windows = target.wrap(py, result.windows)?;
    match result.ratios {
        None => Ok(windows),
        Some(ratios) if m <= 1 && kmax.is_none() => {
            let _ = ratios;
            Ok(PyTuple::new(py, [windows, PyFloat::new(py, 1.0).into_any().unbind()])?.into_any().unbind())
        }
        Some(ratios) => {
            let ratios = target.wrap(py, ratios)?;
            Ok(PyTuple::new(py, [windows, ratios])?.into_any().unbind())
        }
    }
}

/// An argument as given, `None` included (`Given(None)`: not given).
pub(super) struct Given<'py>(pub(super) Option<Bound<'py, PyAny>>);

impl<'a, 'py> FromPyObject<'a, 'py> for Given<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Given<'py>> {
        Ok(Given(Some(obj.to_owned())))
    }
}

fn numbers_integral(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static INTEGRAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    INTEGRAL.import(py, "numbers", "Integral")
}

/// The parameters of a window named in `get_window`'s tuple, as the
/// window's function would take them positionally after `M`.
fn window_from(name: &str, args: &[Bound<'_, PyAny>], window: &Bound<'_, PyAny>) -> PyResult<Window> {
    let too_many = |most: usize| -> PyResult<()> {
        if args.len() > most {
            return Err(PyTypeError::new_err(format!(
                "{name}() takes at most {} positional parameters after M, but {window} gives {}",
                most,
                args.len()
            )));
        }
        Ok(())
    };
    let float = |i: usize, default: f64| -> PyResult<f64> { args.get(i).map_or(Ok(default), |a| a.extract::<f64>()) };
    Ok(match name {
        "chebwin" => {
            too_many(1)?;
            Window::Chebwin { at: float(0, 0.0)? }
        }
        "exponential" => {
            too_many(2)?;
            let center = match args.first() {
                Some(c) if !c.is_none() => Some(c.extract::<f64>()?),
                _ => None,
            };
            Window::Exponential { center, tau: float(1, 1.0)? }
        }
        "gaussian" => {
            too_many(1)?;
            Window::Gaussian { std: float(0, 0.0)? }
        }
        "general_gaussian" => {
            too_many(2)?;
            if args.len() < 2 {
                return Err(PyTypeError::new_err("general_gaussian() missing 1 required positional argument: 'sig'"));
            }
            Window::GeneralGaussian { p: float(0, 0.0)?, sig: float(1, 0.0)? }
        }
        "general_hamming" => {
            too_many(1)?;
            Window::GeneralHamming { alpha: float(0, 0.0)? }
        }
        "kaiser" => {
            too_many(1)?;
            Window::Kaiser { beta: float(0, 0.0)? }
        }
        "kaiser_bessel_derived" => {
            too_many(1)?;
            Window::KaiserBesselDerived { beta: float(0, 0.0)? }
        }
        "taylor" => {
            too_many(3)?;
            let nbar = args.first().map_or(Ok(4), |a| a.extract::<i64>())?;
            let norm = args.get(2).map_or(Ok(true), |a| a.is_truthy())?;
            Window::Taylor { nbar, sll: float(1, 30.0)?, norm }
        }
        "tukey" => {
            too_many(1)?;
            Window::Tukey { alpha: float(0, 0.5)? }
        }
        "barthann" => Window::Barthann,
        "bartlett" => Window::Bartlett,
        "blackman" => Window::Blackman,
        "blackmanharris" => Window::Blackmanharris,
        "bohman" => Window::Bohman,
        "boxcar" => Window::Boxcar,
        "cosine" => Window::Cosine,
        "flattop" => Window::Flattop,
        "hamming" => Window::Hamming,
        "hann" => Window::Hann,
        "lanczos" => Window::Lanczos,
        "nuttall" => Window::Nuttall,
        "parzen" => Window::Parzen,
        "triang" => Window::Triang,
        other => return Err(Error::InvalidArgument(format!("Invalid window name '{other}'")).into()),
    })
}

/// Convenience function for creating various windows.
///
/// A window of length ``Nx`` by name (SciPy's names and aliases, a
/// ``_symmetric``/``_periodic`` suffix overriding ``fftbins``), by tuple
/// ``(name, *parameters)`` such as ``("kaiser", 8.6)``, or by a number (a
/// Kaiser window of that ``beta``); ``fftbins=True`` (the default) gives the
/// periodic window for spectral analysis (`scipy.signal.get_window`).
///
#[doc = windows_note!()]
#[pyfunction]
#[pyo3(signature = (window, Nx, fftbins = Given(None), *, xp = None, device = None), text_signature = "(window, Nx, fftbins=True, *, xp=None, device=None)")]
pub(super) fn get_window<'py>(
    py: Python<'py>,
    window: &Bound<'py, PyAny>,
    Nx: &Bound<'py, PyAny>,
    fftbins: Given<'py>,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let fftbins = fftbins.0.unwrap_or_else(|| PyBool::new(py, true).to_owned().into_any());
    if !(Nx.gt(0)? && Nx.is_instance(numbers_integral(py)?)?) {
        return Err(Error::InvalidArgument(format!("Parameter Nx={} is not a positive integer", Nx.repr()?)).into());
    }
    let nx: i64 = Nx.extract()?;
    if !fftbins.is_instance_of::<PyBool>() {
        return Err(
            Error::InvalidArgument(format!("Parameter fftbins={} is not of type bool!", fftbins.repr()?)).into()
        );
    }
    let fftbins = fftbins.is_truthy()?;
    let is_str = window.is_instance_of::<PyString>();
    let is_tuple = window.is_instance_of::<PyTuple>();
    if !is_str && !is_tuple {
        let Ok(beta) = window.extract::<f64>() else {
            let shown = window.repr()?;
            return Err(Error::InvalidArgument(format!(
                "Parameter window={shown} must be a tuple, a string or a float!"
            ))
            .into());
        };
        let sym = !fftbins;
        return self::window(py, xp, device, move |d| ops::kaiser(nx, beta, sym, d));
    }
    let shown = window.repr()?.to_string();
    let (first, args): (Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>) = if is_tuple {
        let items = window.cast::<PyTuple>()?;
        let first = items.get_item(0).map_err(|_| PyIndexError::new_err("tuple index out of range"))?;
        (first, items.iter().skip(1).collect())
    } else {
        (window.clone(), Vec::new())
    };
    if !first.is_instance_of::<PyString>() {
        return Err(
            Error::InvalidArgument(format!("First tuple entry of parameter window={shown} is not a str!")).into()
        );
    }
    let mut name: String = first.extract()?;
    let mut sym = !fftbins;
    if let Some(stripped) = name.strip_suffix("_symmetric") {
        (sym, name) = (true, stripped.to_string());
    } else if let Some(stripped) = name.strip_suffix("_periodic") {
        (sym, name) = (false, stripped.to_string());
    }
    let Some((canonical, parameters)) = ops::window_name(&name) else {
        return Err(Error::InvalidArgument(format!("Invalid window name '{name}' in parameter window={shown}!")).into());
    };
    if !args.is_empty() && parameters == Parameters::None {
        return Err(Error::InvalidArgument(format!("'{name}' does not allow parameters, but window={shown}!")).into());
    }
    if args.is_empty() && parameters == Parameters::Required {
        return Err(Error::InvalidArgument(format!("'{name}' must have parameters, but window={shown}!")).into());
    }
    match canonical {
        "dpss" => {
            if args.len() != 1 {
                return Err(Error::InvalidArgument(format!(
                    "Window {name} must have one parameter but window={shown}"
                ))
                .into());
            }
            let nw: f64 = args[0].extract()?;
            let target = Target::new(xp, device)?;
            let result =
                compute(py, 0, move || ops::dpss(nx, nw, None, sym, DpssNorm::Approximate, false, Device::Cpu))?;
            target.wrap(py, result.windows)
        }
        "general_cosine" => {
            if xp.is_some_and(|x| !x.is_none()) || device.is_some_and(|d| !d.is_none()) {
                return Err(Error::InvalidArgument(
                    "'general_cosine' does not accept the parameters xp and device not being None!".into(),
                )
                .into());
            }
            if args.len() != 1 {
                return Err(PyTypeError::new_err(format!(
                    "general_cosine() takes one parameter after M (the coefficients), but {shown} gives {}",
                    args.len()
                )));
            }
            let (a, library) = coefficients(&args[0])?;
            let w = compute(py, 0, move || ops::general_cosine_tensor(nx, &a, sym))?;
            wrap(py, &library, w, false)
        }
        "chebwin" => {
            let spec = window_from(canonical, &args, window)?;
            if let Window::Chebwin { at } = spec {
                chebwin_warning(py, at)?;
            }
            self::window(py, xp, device, move |d| spec.compute(nx, sym, d))
        }
        _ => {
            let spec = window_from(canonical, &args, window)?;
            self::window(py, xp, device, move |d| spec.compute(nx, sym, d))
        }
    }
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(boxcar, module)?)?;
    module.add_function(wrap_pyfunction!(triang, module)?)?;
    module.add_function(wrap_pyfunction!(parzen, module)?)?;
    module.add_function(wrap_pyfunction!(bohman, module)?)?;
    module.add_function(wrap_pyfunction!(blackman, module)?)?;
    module.add_function(wrap_pyfunction!(nuttall, module)?)?;
    module.add_function(wrap_pyfunction!(blackmanharris, module)?)?;
    module.add_function(wrap_pyfunction!(flattop, module)?)?;
    module.add_function(wrap_pyfunction!(bartlett, module)?)?;
    module.add_function(wrap_pyfunction!(barthann, module)?)?;
    module.add_function(wrap_pyfunction!(hamming, module)?)?;
    module.add_function(wrap_pyfunction!(kaiser, module)?)?;
    module.add_function(wrap_pyfunction!(kaiser_bessel_derived, module)?)?;
    module.add_function(wrap_pyfunction!(gaussian, module)?)?;
    module.add_function(wrap_pyfunction!(general_cosine, module)?)?;
    module.add_function(wrap_pyfunction!(general_gaussian, module)?)?;
    module.add_function(wrap_pyfunction!(general_hamming, module)?)?;
    module.add_function(wrap_pyfunction!(chebwin, module)?)?;
    module.add_function(wrap_pyfunction!(cosine, module)?)?;
    module.add_function(wrap_pyfunction!(hann, module)?)?;
    module.add_function(wrap_pyfunction!(exponential, module)?)?;
    module.add_function(wrap_pyfunction!(tukey, module)?)?;
    module.add_function(wrap_pyfunction!(taylor, module)?)?;
    module.add_function(wrap_pyfunction!(dpss, module)?)?;
    module.add_function(wrap_pyfunction!(get_window, module)?)?;
    module.add_function(wrap_pyfunction!(lanczos, module)?)?;
    Ok(())
}

/// `get_window(window, nx)` (periodic, a numpy array) as a Python list: a
/// window named by a string or tuple for the spectral routines, imported
/// with their arrays (a list follows the arrays' library and device).
pub(super) fn window_list(py: Python<'_>, window: &Bound<'_, PyAny>, nx: i64) -> PyResult<Py<PyAny>> {
    let nx = PyInt::new(py, nx).into_any();
    let array = get_window(py, window, &nx, Given(None), None, None)?;
    Ok(array.bind(py).call_method0("tolist")?.unbind())
}

/// SciPy's `get_window(window, nx, fftbins)` as a float64 host tensor (for the
/// designs and resamplers that take a window specification).
pub(super) fn window_tensor(py: Python<'_>, window: &Bound<'_, PyAny>, nx: i64, fftbins: bool) -> PyResult<Tensor> {
    let n = PyInt::new(py, nx).into_any();
    let flag = Given(Some(PyBool::new(py, fftbins).to_owned().into_any()));
    let w = get_window(py, window, &n, flag, None, None)?;
    let (tensors, _) = import_all(&[w.bind(py)])?;
    Ok(tensors.into_iter().next().ok_or_else(|| Error::InvalidArgument("no window".into()))?)
}
