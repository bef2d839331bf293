//! The `scipy.fft._basic` functions: the Fourier transforms in 1-D, 2-D and n-D.
// SciPy's signatures have eight parameters, `device` included.
#![allow(clippy::too_many_arguments)]

use pyo3::prelude::*;
use tch::Tensor;

use super::{last_two, run, run_nd, Axes, NoPlan, Shape, Truthy, Workers};
use crate::ops::fft::{self as ops, FftOptions, FftnOptions, Norm};
use crate::Result;

type OneD = fn(&Tensor, &FftOptions) -> Result<Tensor>;
type NDim = fn(&Tensor, &FftnOptions) -> Result<Tensor>;

/// A 1-D transform of `x` with parsed options.
fn one_d(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    options: FftOptions,
    device: Option<&Bound<'_, PyAny>>,
    op: OneD,
) -> PyResult<Py<PyAny>> {
    run(py, x, device, move |t| op(t, &options))
}

/// An n-D transform of `x` with parsed options. The complex transforms
/// (`identity_when_empty`) return `x` itself when there are no axes, as SciPy;
/// the real ones refuse that.
fn n_d(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    options: FftnOptions,
    identity_when_empty: bool,
    device: Option<&Bound<'_, PyAny>>,
    op: NDim,
) -> PyResult<Py<PyAny>> {
    if identity_when_empty {
        let (s, axes) = (options.s.clone(), options.axes.clone());
        run_nd(py, x, &s, &axes, device, move |t| op(t, &options))
    } else {
        run(py, x, device, move |t| op(t, &options))
    }
}

/// 1-D discrete Fourier transform (`scipy.fft.fft`).
///
/// ``n`` zero-pads or truncates `x` along `axis`; ``norm`` is "backward"
/// (default, no scaling), "ortho" or "forward". Real input gives a complex
/// result of matching precision. ``overwrite_x`` and ``workers`` are accepted
/// hints without effect; ``plan`` must be None.
#[pyfunction]
#[pyo3(
    signature = (x, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn fft(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    one_d(py, x, FftOptions { n, axis, norm }, device, ops::fft)
}

/// 1-D inverse discrete Fourier transform (`scipy.fft.ifft`); see :func:`fft`.
#[pyfunction]
#[pyo3(
    signature = (x, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn ifft(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    one_d(py, x, FftOptions { n, axis, norm }, device, ops::ifft)
}

/// 1-D transform of real input (`scipy.fft.rfft`): the ``n//2 + 1``
/// non-negative frequency terms. Complex input raises TypeError.
#[pyfunction]
#[pyo3(
    signature = (x, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn rfft(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    one_d(py, x, FftOptions { n, axis, norm }, device, ops::rfft)
}

/// Inverse of :func:`rfft` (`scipy.fft.irfft`): a real result of length
/// ``n`` (default ``2*(m-1)`` for ``m`` input points).
#[pyfunction]
#[pyo3(
    signature = (x, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn irfft(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    one_d(py, x, FftOptions { n, axis, norm }, device, ops::irfft)
}

/// FFT of a Hermitian-symmetric signal (`scipy.fft.hfft`): a real result
/// of length ``n`` (default ``2*(m-1)``).
#[pyfunction]
#[pyo3(
    signature = (x, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn hfft(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    one_d(py, x, FftOptions { n, axis, norm }, device, ops::hfft)
}

/// Inverse of :func:`hfft` for real input (`scipy.fft.ihfft`).
#[pyfunction]
#[pyo3(
    signature = (x, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn ihfft(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    one_d(py, x, FftOptions { n, axis, norm }, device, ops::ihfft)
}

/// 2-D discrete Fourier transform (`scipy.fft.fft2`): :func:`fftn` over `axes`.
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = last_two(), norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn fft2(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, true, device, ops::fftn)
}

/// 2-D inverse discrete Fourier transform (`scipy.fft.ifft2`).
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = last_two(), norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn ifft2(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, true, device, ops::ifftn)
}

/// N-D discrete Fourier transform (`scipy.fft.fftn`).
///
/// ``s`` (lengths, ``-1`` keeps the input's) and ``axes`` (default: all, or
/// the last ``len(s)``) as in SciPy; axes must be unique. With no axes to
/// transform the input is returned as is.
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn fftn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, true, device, ops::fftn)
}

/// N-D inverse discrete Fourier transform (`scipy.fft.ifftn`); see :func:`fftn`.
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn ifftn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, true, device, ops::ifftn)
}

/// 2-D transform of real input (`scipy.fft.rfft2`).
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = last_two(), norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn rfft2(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, false, device, ops::rfftn)
}

/// Inverse of :func:`rfft2` (`scipy.fft.irfft2`).
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = last_two(), norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn irfft2(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, false, device, ops::irfftn)
}

/// N-D transform of real input (`scipy.fft.rfftn`): the last axis keeps
/// ``s[-1]//2 + 1`` non-negative frequencies.
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn rfftn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, false, device, ops::rfftn)
}

/// Inverse of :func:`rfftn` (`scipy.fft.irfftn`): real output, the last
/// axis ``2*(m-1)`` long unless ``s`` says otherwise.
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn irfftn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, false, device, ops::irfftn)
}

/// 2-D FFT of a Hermitian-symmetric signal (`scipy.fft.hfft2`).
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = last_two(), norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn hfft2(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, false, device, ops::hfftn)
}

/// Inverse of :func:`hfft2` for real input (`scipy.fft.ihfft2`).
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = last_two(), norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn ihfft2(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, false, device, ops::ihfftn)
}

/// N-D FFT of a Hermitian-symmetric signal (`scipy.fft.hfftn`): real output.
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn hfftn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, false, device, ops::hfftn)
}

/// Inverse of :func:`hfftn` for real input (`scipy.fft.ihfftn`).
#[pyfunction]
#[pyo3(
    signature = (x, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
    text_signature = "(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
)]
pub(super) fn ihfftn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    plan: NoPlan,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers, plan);
    let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
    n_d(py, x, options, false, device, ops::ihfftn)
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(fft, module)?)?;
    module.add_function(wrap_pyfunction!(ifft, module)?)?;
    module.add_function(wrap_pyfunction!(rfft, module)?)?;
    module.add_function(wrap_pyfunction!(irfft, module)?)?;
    module.add_function(wrap_pyfunction!(hfft, module)?)?;
    module.add_function(wrap_pyfunction!(ihfft, module)?)?;
    module.add_function(wrap_pyfunction!(fft2, module)?)?;
    module.add_function(wrap_pyfunction!(ifft2, module)?)?;
    module.add_function(wrap_pyfunction!(fftn, module)?)?;
    module.add_function(wrap_pyfunction!(ifftn, module)?)?;
    module.add_function(wrap_pyfunction!(rfft2, module)?)?;
    module.add_function(wrap_pyfunction!(irfft2, module)?)?;
    module.add_function(wrap_pyfunction!(rfftn, module)?)?;
    module.add_function(wrap_pyfunction!(irfftn, module)?)?;
    module.add_function(wrap_pyfunction!(hfft2, module)?)?;
    module.add_function(wrap_pyfunction!(ihfft2, module)?)?;
    module.add_function(wrap_pyfunction!(hfftn, module)?)?;
    module.add_function(wrap_pyfunction!(ihfftn, module)?)?;
    Ok(())
}
