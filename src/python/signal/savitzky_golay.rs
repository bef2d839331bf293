//! Savitzky-Golay filters (`scipy.signal._savitzky_golay`): `savgol_coeffs`,
//! `savgol_filter` (see `crate::ops::signal::savitzky_golay`).
// SciPy's signatures have up to nine parameters, `device` included.
#![allow(clippy::too_many_arguments)]

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::windows::window;
use super::{map, Device};
use crate::ops::signal::savitzky_golay::{self as ops, SavgolMode, Use, MODE_MESSAGE};
use crate::Error;

/// `use`: `"conv"` or `"dot"` (SciPy's message otherwise).
pub(super) struct UseArg(Use);

impl<'a, 'py> FromPyObject<'a, 'py> for UseArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<UseArg> {
        match obj.cast::<PyString>() {
            Ok(name) => Ok(UseArg(name.to_cow()?.parse()?)),
            Err(_) => Err(Error::InvalidArgument("`use` must be 'conv' or 'dot'".into()).into()),
        }
    }
}

/// `mode`: one of SciPy's five names (its message otherwise).
pub(super) struct ModeArg(SavgolMode);

impl<'a, 'py> FromPyObject<'a, 'py> for ModeArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<ModeArg> {
        match obj.cast::<PyString>() {
            Ok(name) => Ok(ModeArg(name.to_cow()?.parse()?)),
            Err(_) => Err(Error::InvalidArgument(MODE_MESSAGE.into()).into()),
        }
    }
}

/// Compute the coefficients for a 1-D Savitzky-Golay FIR filter.
///
/// The ``window_length`` coefficients of the least-squares polynomial fit of
/// order ``polyorder`` (its ``deriv``-th derivative for samples ``delta``
/// apart) evaluated at ``pos`` (default: the window's centre), the
/// minimum-norm solution of the Vandermonde system as SciPy's ``lstsq``
/// (LAPACK ``gelsd``); reversed for a convolution when ``use="conv"``.
///
/// torchbridge: computed in float64 on the host by libtorch's ``gelsd``; the
/// result is a numpy float64 array, or, with ``xp`` (an array namespace:
/// ``torch``, ``jax.numpy``, ``array_api_strict``, ...), an ``xp`` array
/// (float32 where ``xp`` has no float64), on ``device`` when given, as
/// SciPy's ``xp``/``device`` keywords; it takes no arrays, hence no device
/// of its own.
#[pyfunction]
#[pyo3(signature = (window_length, polyorder, deriv = 0, delta = 1.0, pos = None, r#use = UseArg(Use::Conv), *, xp = None, device = None), text_signature = "(window_length, polyorder, deriv=0, delta=1.0, pos=None, use='conv', *, xp=None, device=None)")]
pub(super) fn savgol_coeffs<'py>(
    py: Python<'py>,
    window_length: i64,
    polyorder: i64,
    deriv: i64,
    delta: f64,
    pos: Option<f64>,
    r#use: UseArg,
    xp: Option<&Bound<'py, PyAny>>,
    device: Option<&Bound<'py, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let use_ = r#use.0;
    window(py, xp, device, move |_| ops::savgol_coeffs(window_length, polyorder, deriv, delta, pos, use_))
}

/// Apply a Savitzky-Golay filter to an array.
///
/// ``x`` convolved along ``axis`` with :func:`savgol_coeffs`'s coefficients
/// (``ndimage.convolve1d``), extended beyond its ends by ``mode``:
/// ``"mirror"``, ``"constant"`` (``cval``), ``"nearest"``, ``"wrap"``, or
/// ``"interp"`` (the default: the ``window_length // 2`` outputs at each end
/// from the polynomial fitted to the ``window_length`` samples there).
/// float32 stays float32; other real input gives float64.
///
/// torchbridge: the convolution is one GEMM of the extended signal's
/// overlapping blocks with a banded Toeplitz matrix, the ``"interp"`` edges
/// one small matrix product each, all in float64 (float32 input rounded
/// once, as ndimage's double buffers do) on the arrays' device; results agree
/// with SciPy to about 1e-13 relative. Complex input (whose imaginary part
/// SciPy discards) raises ``UnsupportedParameterError``.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (x, window_length, polyorder, deriv = 0, delta = 1.0, axis = -1, mode = ModeArg(SavgolMode::Interp), cval = 0.0, *, device = None), text_signature = "(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode='interp', cval=0.0, *, device=None)")]
pub(super) fn savgol_filter(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    window_length: i64,
    polyorder: i64,
    deriv: i64,
    delta: f64,
    axis: i64,
    mode: ModeArg,
    cval: f64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let mode = mode.0;
    map(py, device, &[x], move |t| ops::savgol_filter(&t[0], window_length, polyorder, deriv, delta, axis, mode, cval))
}

/// Adds the Savitzky-Golay routines to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(savgol_coeffs, module)?)?;
    module.add_function(wrap_pyfunction!(savgol_filter, module)?)
}
